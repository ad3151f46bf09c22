// grn.cl -- GRN (global response normalization) as a Myriad-style custom kernel:
// dst = src / sqrt(bias + sum over channels of src^2), per (y, x). One work item per x; the
// work group is a line of the image so the channel loop reads consecutive addresses.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void grn_NCHW(__global const half* restrict src_data, __global half* restrict dst_data,
                       int C, float bias)
{
    const int x = get_global_id(0);
    const int W = get_global_size(0);
    const int y = get_global_id(1);
    const int H = get_global_size(1);
    const int b = get_global_id(2);
    __global const half* restrict src = src_data + b * C * H * W + y * W + x;
    __global half* restrict dst = dst_data + b * C * H * W + y * W + x;

    float variance = bias + 1e-9f;
    #pragma unroll 4
    for (int c = 0; c < C; c++) {
        const float val = (float)src[c * H * W];
        variance += val * val;
    }
    const float scale = native_rsqrt(variance);
    #pragma unroll 4
    for (int c = 0; c < C; c++)
        dst[c * H * W] = convert_half((float)src[c * H * W] * scale);
}
