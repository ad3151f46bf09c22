// convolution.cl -- Convolution 1x1 and 3x3 (stride 1; 3x3 with padding 1) as Myriad-style custom
// kernels. One work group per (output row, output channel, batch item), one work item per output
// column; the group first copies its filter into the __local buffer (local_data argument) with
// async_work_group_copy, so every work item reads the weights from local memory.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void convolution_3x3(__global const half* restrict src,
                              __global const half* restrict weights,
                              __global half* restrict dst, __local half* restrict filter,
                              int C, int IH, int IW, int K)
{
    const int x = get_global_id(0);
    const int OW = get_global_size(0);
    const int y = get_global_id(1);
    const int OH = get_global_size(1);
    const int k = get_global_id(2) % K;
    const int b = get_global_id(2) / K;
    event_t copied = async_work_group_copy(filter, weights + k * C * 9, C * 9, 0);
    wait_group_events(1, &copied);
    float acc = 0.0f;
    for (int c = 0; c < C; c++) {
        __global const half* restrict plane = src + (b * C + c) * IH * IW;
        for (int ky = 0; ky < 3; ky++) {
            const int iy = y + ky - 1;
            if (iy < 0 || iy >= IH) continue;
            for (int kx = 0; kx < 3; kx++) {
                const int ix = x + kx - 1;
                if (ix < 0 || ix >= IW) continue;
                acc += (float)plane[iy * IW + ix] * (float)filter[(c * 3 + ky) * 3 + kx];
            }
        }
    }
    dst[((b * K + k) * OH + y) * OW + x] = convert_half(acc);
}

__kernel void convolution_1x1(__global const half* restrict src,
                              __global const half* restrict weights,
                              __global half* restrict dst, __local half* restrict filter,
                              int C, int K)
{
    const int x = get_global_id(0);
    const int W = get_global_size(0);
    const int y = get_global_id(1);
    const int H = get_global_size(1);
    const int k = get_global_id(2) % K;
    const int b = get_global_id(2) / K;
    event_t copied = async_work_group_copy(filter, weights + k * C, C, 0);
    wait_group_events(1, &copied);
    float acc = 0.0f;
    for (int c = 0; c < C; c++)
        acc += (float)src[((b * C + c) * H + y) * W + x] * (float)filter[c];
    dst[((b * K + k) * H + y) * W + x] = convert_half(acc);
}
