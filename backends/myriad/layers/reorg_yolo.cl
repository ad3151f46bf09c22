// reorg_yolo.cl -- ReorgYolo (Darknet reorg) as Myriad-style custom kernels, for BFYX and BYXF.
// Output [B, C*s*s, H/s, W/s]: out[b][c][h][w] = in[b][c % C2][h*s + (c/C2)/s][w*s + (c/C2)%s]
// with C2 = C_in (the output's channels divided by s*s).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// BFYX: one work item per (output column, output row, input channel and batch) moves the
// stride x stride block of its input channel into the stride*stride output channels; the work
// items of a group read and write consecutive addresses (the global width is rounded up).
__kernel void reorg_chw(__global const half* restrict src, __global half* restrict dst,
                        int H, int W, int C2, int stride)
{
    const int w = get_global_id(0);
    if (w >= W) return;
    const int h = get_global_id(1);
    const int bc = get_global_id(2);
    const int b = bc / C2;
    const int c2 = bc - b * C2;
    const int W2 = W * stride;
    const size_t out_channel = (size_t)C2 * H * W;
    __global const half* restrict in = src + ((size_t)bc * H + h) * stride * W2 + w * stride;
    __global half* restrict out = dst + ((size_t)(b * C2 * stride * stride + c2) * H + h) * W + w;
    for (int sy = 0; sy < stride; sy++)
        for (int sx = 0; sx < stride; sx++)
            out[(sy * stride + sx) * out_channel] = in[sy * W2 + sx];
}

// BYXF (the seed's signature): one work item per input row y; w, h, c are the input's sizes.
__kernel void reorg_nhwc(__global const half* src, __global half* out, int w, int h, int c,
                         int stride)
{
    const int y = get_global_id(0);
    if (y >= h) return;
    const int b = get_global_id(1);
    const int Wo = w / stride;
    const int Co = c * stride * stride;
    const int ho = y / stride;
    src += (b * h + y) * w * c;
    out += b * h * w * c;
    for (int x = 0; x < w; x++) {
        const int wo = x / stride;
        const int offset = (y % stride) * stride + x % stride;
        for (int ch = 0; ch < c; ch++)
            out[(ho * Wo + wo) * Co + offset * c + ch] = src[x * c + ch];
    }
}
