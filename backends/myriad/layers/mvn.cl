// mvn.cl -- MVN (mean-variance normalization) in two stages, as the vendor shipped it.
// Stage 0 (reduction): per (batch, channel) plane, sum and sum of squares in float, into the
// stage buffer `stats` (2 floats per plane). Stage 1 (scale): every value minus the mean of its
// plane (or of its whole batch item when across_channels), divided by sqrt(variance + eps) when
// normalize_variance.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void mvn_reduction(__global const half* restrict src, __global float* restrict stats,
                            int H, int W)
{
    const int c = get_global_id(0);
    const int C = get_global_size(0);
    const int b = get_global_id(1);
    __global const half* restrict plane = src + (b * C + c) * H * W;
    float sum = 0.0f, sum2 = 0.0f;
    for (int i = 0; i < H * W; i++) {
        const float v = (float)plane[i];
        sum += v;
        sum2 += v * v;
    }
    stats[2 * (b * C + c)] = sum;
    stats[2 * (b * C + c) + 1] = sum2;
}

__kernel void mvn_scale(__global const half* restrict src, __global const float* restrict stats,
                        __global half* restrict dst, int H, int W, int C, int across_channels,
                        int normalize_variance, float eps)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    const int bc = get_global_id(2);
    const int b = bc / C;
    float sum = 0.0f, sum2 = 0.0f;
    float count = (float)(H * W);
    if (across_channels) {
        for (int c = 0; c < C; c++) {
            sum += stats[2 * (b * C + c)];
            sum2 += stats[2 * (b * C + c) + 1];
        }
        count *= C;
    } else {
        sum = stats[2 * bc];
        sum2 = stats[2 * bc + 1];
    }
    const float mean = sum / count;
    const int i = (bc * H + y) * W + x;
    float v = (float)src[i] - mean;
    if (normalize_variance) {
        const float variance = fmax(sum2 / count - mean * mean, 0.0f);
        v *= native_rsqrt(variance + eps);
    }
    dst[i] = convert_half(v);
}
