// shuffle_channels.cl -- ShuffleChannels along axis 1 as a Myriad-style custom kernel:
// out[b][c][y][x] = in[b][(c % group) * (C / group) + c / group][y][x]. A work group of 256
// moves 2048 consecutive values of one output plane, 8 per work item at a stride of 256, so
// each step of the group reads and writes consecutive addresses.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define SHUFFLE_CHUNK 2048  /* values per work group; the WorkSizes use the same */

__kernel void shuffle_channels(__global const half* restrict src, __global half* restrict dst,
                               int C, int H, int W, int group)
{
    const int HW = H * W;
    const int L = get_local_size(0);
    const int c = get_global_id(1);
    const int b = get_global_id(2);
    const int src_c = (c % group) * (C / group) + c / group;
    __global const half* restrict from = src + (size_t)(b * C + src_c) * HW;
    __global half* restrict to = dst + (size_t)(b * C + c) * HW;
    const int end = min(HW, (int)(get_group_id(0) + 1) * SHUFFLE_CHUNK);
    #pragma unroll 8
    for (int i = get_group_id(0) * SHUFFLE_CHUNK + get_local_id(0); i < end; i += L)
        to[i] = from[i];
}
