// convert.cl -- Convert from u8 to f16 as a Myriad-style custom kernel. A work group of 256
// converts 2048 consecutive values, 8 per work item at a stride of 256, so each step of the
// group reads and writes consecutive addresses.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define CONVERT_CHUNK 2048  /* values per work group; the WorkSizes use the same */

__kernel void convert_u8_f16(__global const uchar* restrict src, __global half* restrict dst,
                             int B, int F, int Y, int X)
{
    const int count = B * F * Y * X;
    const int L = get_local_size(0);
    const int end = min(count, (int)(get_group_id(0) + 1) * CONVERT_CHUNK);
    #pragma unroll 8
    for (int i = get_group_id(0) * CONVERT_CHUNK + get_local_id(0); i < end; i += L)
        dst[i] = convert_half(src[i]);
}
