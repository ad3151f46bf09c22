// shuffle_channels.cl -- ShuffleChannels along axis 1 as a Myriad-style custom kernel:
// out[b][c][y][x] = in[b][(c % group) * (C / group) + c / group][y][x]; one work item per
// (output channel, batch) copies a whole plane.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void shuffle_channels(__global const half* restrict src, __global half* restrict dst,
                               int C, int H, int W, int group)
{
    const int HW = H * W;
    const int c = get_global_id(0);
    const int b = get_global_id(1);
    const int src_c = (c % group) * (C / group) + c / group;
    __global const half* restrict from = src + (b * C + src_c) * HW;
    __global half* restrict to = dst + (b * C + c) * HW;
    int i = 0;
    for (; i + 8 <= HW; i += 8) vstore8(vload8(0, from + i), 0, to + i);
    for (; i < HW; i++) to[i] = from[i];
}
