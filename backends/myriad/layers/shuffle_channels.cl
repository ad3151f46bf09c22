// shuffle_channels.cl -- ShuffleChannels along axis 1 as a Myriad-style custom kernel:
// out[b][c][y][x] = in[b][(c % group) * (C / group) + c / group][y][x]; each work item moves 8
// consecutive values of one output plane (a shorter tail at the plane's end).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void shuffle_channels(__global const half* restrict src, __global half* restrict dst,
                               int C, int H, int W, int group)
{
    const int HW = H * W;
    const int i = get_global_id(0) * 8;
    const int c = get_global_id(1);
    const int b = get_global_id(2);
    const int src_c = (c % group) * (C / group) + c / group;
    __global const half* restrict from = src + (b * C + src_c) * HW;
    __global half* restrict to = dst + (b * C + c) * HW;
    if (i + 8 <= HW) {
        vstore8(vload8(0, from + i), 0, to + i);
    } else {
        for (int k = i; k < HW; k++) to[k] = from[k];
    }
}
