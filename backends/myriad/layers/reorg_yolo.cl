// reorg_yolo.cl -- ReorgYolo (Darknet reorg) as Myriad-style custom kernels, for BFYX and BYXF.
// Output [B, C*s*s, H/s, W/s]: out[b][c][h][w] = in[b][c % C2][h*s + (c/C2)/s][w*s + (c/C2)%s]
// with C2 = C_in (the output's channels divided by s*s).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// BFYX, line-wise and unrolled by stride (the seed's fastest variant): one work item per
// (output row, input channel, batch); the source row is read once.
__kernel void reorg_chw(__global const half* restrict src, __global half* restrict dst,
                        int H, int W, int stride)
{
    const int h = min((int)get_global_id(0), H - 1);
    const int c2 = get_global_id(1);
    const int C2 = get_global_size(1);
    const int b = get_global_id(2);
    const int H2 = H * stride;
    const int W2 = W * stride;
    src += b * C2 * H2 * W2;
    dst += b * C2 * stride * stride * H * W;
    for (int stride_y = 0; stride_y < stride; stride_y++)
        for (int stride_x = 0; stride_x < stride; stride_x++)
            for (int w2 = 0, w = 0; w < W; w2 += stride, w++)
                dst[W * H * C2 * (stride_y * stride + stride_x) + W * H * c2 + W * h + w] =
                    src[W2 * H2 * c2 + W2 * h * stride + W2 * stride_y + w2 + stride_x];
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
