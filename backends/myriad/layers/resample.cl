// resample.cl -- Resample (nearest neighbour) as a Myriad-style custom kernel: one work item per
// output (x, y, batch*channel); the source pixel is floor(o * in / out), clamped.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void resample_nearest(__global const half* restrict src, __global half* restrict dst,
                               int IW, int IH, int OW, int OH)
{
    const int ox = get_global_id(0);
    const int oy = get_global_id(1);
    const int bc = get_global_id(2);
    if (ox >= OW || oy >= OH) return;
    const int ix = min((int)floor((float)ox * IW / OW), IW - 1);
    const int iy = min((int)floor((float)oy * IH / OH), IH - 1);
    dst[(bc * OH + oy) * OW + ox] = src[(bc * IH + iy) * IW + ix];
}
