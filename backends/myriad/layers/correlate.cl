// correlate.cl -- Correlate (the FlowNet correlation layer, multiplicative) as a Myriad-style custom
// kernel. With r = max_displacement / stride_2 and the grid width G = 2r + 1, output channel
// t = (dy + r) * G + (dx + r) holds, per output (x, y), the mean over channels and a
// kernel_size x kernel_size patch of bottom0 at (x*stride_1 + max_displacement, same for y) times
// bottom1 displaced by (dx*stride_2, dy*stride_2), in coordinates padded by `pad` zeros.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void correlate(__global const half* restrict bottom0,
                        __global const half* restrict bottom1, __global half* restrict top,
                        int W, int H, int C, int top_channels, int max_displacement, int pad,
                        int kernel_size, int stride1, int stride2)
{
    const int x = get_global_id(0);
    const int topwidth = get_global_size(0);
    const int y = get_global_id(1);
    const int topheight = get_global_size(1);
    const int tc = get_global_id(2) % top_channels;
    const int b = get_global_id(2) / top_channels;
    const int radius = max_displacement / stride2;
    const int grid = 2 * radius + 1;
    const int dx = (tc % grid - radius) * stride2;
    const int dy = (tc / grid - radius) * stride2;
    const int x1 = x * stride1 + max_displacement - pad;
    const int y1 = y * stride1 + max_displacement - pad;

    float sum = 0.0f;
    for (int c = 0; c < C; c++) {
        __global const half* restrict a = bottom0 + (b * C + c) * H * W;
        __global const half* restrict d = bottom1 + (b * C + c) * H * W;
        for (int j = 0; j < kernel_size; j++) {
            const int ya = y1 + j, yb = y1 + dy + j;
            if (ya < 0 || ya >= H || yb < 0 || yb >= H) continue;
            for (int i = 0; i < kernel_size; i++) {
                const int xa = x1 + i, xb = x1 + dx + i;
                if (xa < 0 || xa >= W || xb < 0 || xb >= W) continue;
                sum += (float)a[ya * W + xa] * (float)d[yb * W + xb];
            }
        }
    }
    top[((b * top_channels + tc) * topheight + y) * topwidth + x] =
        convert_half(sum / (float)(kernel_size * kernel_size * C));
}
