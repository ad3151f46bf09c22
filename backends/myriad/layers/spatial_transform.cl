// spatial_transform.cl -- SpatialTransform (spatial transformer network sampler, affine) as a
// Myriad-style custom kernel. theta holds 6 values per batch item, the row-major 2x3 matrix
// mapping normalized output coordinates (x_t, y_t, 1), each in [-1, 1] with -1 and 1 at the
// first and last pixel centres, to normalized source coordinates (x_s, y_s); the source is
// sampled bilinearly, zero outside the image. One work item per output pixel, all channels.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void spatial_transform(__global const half* restrict src,
                                __global const half* restrict theta, __global half* restrict dst,
                                int C, int H, int W)
{
    const int x = get_global_id(0);
    const int OW = get_global_size(0);
    const int y = get_global_id(1);
    const int OH = get_global_size(1);
    const int b = get_global_id(2);
    __global const half* restrict t = theta + b * 6;
    const float xt = OW > 1 ? -1.0f + 2.0f * (float)x / (float)(OW - 1) : 0.0f;
    const float yt = OH > 1 ? -1.0f + 2.0f * (float)y / (float)(OH - 1) : 0.0f;
    const float xs = (float)t[0] * xt + (float)t[1] * yt + (float)t[2];
    const float ys = (float)t[3] * xt + (float)t[4] * yt + (float)t[5];
    const float px = (xs + 1.0f) * 0.5f * (float)(W - 1);
    const float py = (ys + 1.0f) * 0.5f * (float)(H - 1);
    const int x0 = (int)floor(px);
    const int y0 = (int)floor(py);
    const float fx = px - (float)x0;
    const float fy = py - (float)y0;
    const float wgt[4] = {(1.0f - fx) * (1.0f - fy), fx * (1.0f - fy), (1.0f - fx) * fy, fx * fy};
    const int xi[4] = {x0, x0 + 1, x0, x0 + 1};
    const int yi[4] = {y0, y0, y0 + 1, y0 + 1};
    for (int c = 0; c < C; c++) {
        __global const half* restrict plane = src + (b * C + c) * H * W;
        float v = 0.0f;
        for (int k = 0; k < 4; k++)
            if (xi[k] >= 0 && xi[k] < W && yi[k] >= 0 && yi[k] < H)
                v += wgt[k] * (float)plane[yi[k] * W + xi[k]];
        dst[((b * C + c) * OH + y) * OW + x] = convert_half(v);
    }
}
