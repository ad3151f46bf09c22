// grn.cl -- GRN (global response normalization) as a Myriad-style custom kernel:
// dst = src / sqrt(bias + sum over channels of src^2), per (y, x). One work item per x; the
// work group is a run of 64 columns of one line, so every channel step reads consecutive
// addresses across the group (the global width is rounded up to whole groups).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void grn_NCHW(__global const half* restrict src_data, __global half* restrict dst_data,
                       int C, int H, int W, float bias)
{
    const int x = get_global_id(0);
    if (x >= W) return;
    const int y = get_global_id(1);
    const int b = get_global_id(2);
    const size_t plane = (size_t)H * W;
    __global const half* restrict src = src_data + b * C * plane + y * W + x;
    __global half* restrict dst = dst_data + b * C * plane + y * W + x;

    float variance = bias + 1e-9f;
    #pragma unroll 8
    for (int c = 0; c < C; c++) {
        const float val = (float)src[c * plane];
        variance += val * val;
    }
    const float scale = native_rsqrt(variance);
    #pragma unroll 8
    for (int c = 0; c < C; c++)
        dst[c * plane] = convert_half((float)src[c * plane] * scale);
}
