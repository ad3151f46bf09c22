// convert.cl -- Convert from u8 to f16 as a Myriad-style custom kernel, 8 values per work item
// with a scalar tail.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void convert_u8_f16(__global const uchar* restrict src, __global half* restrict dst,
                             int B, int F, int Y, int X)
{
    const int count = B * F * Y * X;
    const int i = get_global_id(0) * 8;
    if (i + 8 <= count) {
        vstore8(convert_half8(vload8(0, src + i)), 0, dst + i);
    } else {
        for (int k = i; k < count; k++) dst[k] = convert_half(src[k]);
    }
}
