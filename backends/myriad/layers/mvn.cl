// mvn.cl -- MVN (mean-variance normalization) in two stages, as the vendor shipped it.
// Stage 0 (reduction): per (batch, channel) plane, sum and sum of squares in float (one work
// group of 64 per plane, local_data for the partial sums), into the stage buffer `stats`.
// Stage 1 (scale): every value minus the mean of its plane (or of its whole batch item when
// across_channels), divided by sqrt(variance + eps) when normalize_variance.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void mvn_reduction(__global const half* restrict src, __global float* restrict stats,
                            __local float* restrict partial, int H, int W)
{
    // One work group per plane: strided partial sums, then a tree reduction in local memory.
    const int lid = get_local_id(0);
    const int L = get_local_size(0);
    const int c = get_group_id(1);
    const int C = get_num_groups(1);
    const int b = get_group_id(2);
    __global const half* restrict plane = src + (b * C + c) * H * W;
    float sum = 0.0f, sum2 = 0.0f;
    for (int i = lid; i < H * W; i += L) {
        const float v = (float)plane[i];
        sum += v;
        sum2 += v * v;
    }
    partial[lid] = sum;
    partial[L + lid] = sum2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = L / 2; step > 0; step /= 2) {
        if (lid < step) {
            partial[lid] += partial[lid + step];
            partial[L + lid] += partial[L + lid + step];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        stats[2 * (b * C + c)] = partial[0];
        stats[2 * (b * C + c) + 1] = partial[L];
    }
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
