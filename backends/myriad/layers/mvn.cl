// mvn.cl -- MVN (mean-variance normalization) in two stages, as the vendor shipped it.
// Each plane (batch, channel) is cut into chunks of MVN_CHUNK values, one work group of 256 per
// chunk in both stages (the WorkSizes use the same chunk size), the work items reading at a
// stride of 256 so that every step of a group touches consecutive addresses.
// Stage 0 (reduction): per chunk, sum and sum of squares in float (tree reduction in local_data)
// into the stage buffer `stats`, G = number of chunks per plane pairs per plane.
// Stage 1 (scale): each group first sums the pairs of its plane (or of its whole batch item when
// across_channels) the same way, then writes its chunk: value minus the mean, divided by
// sqrt(variance + eps) when normalize_variance.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define MVN_CHUNK 4096

/* Sums partial[0..L) and partial[L..2L) into partial[0] and partial[L] (L a power of two). */
void mvn_reduce_pairs(__local float* partial, int lid, int L)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = L / 2; step > 0; step /= 2) {
        if (lid < step) {
            partial[lid] += partial[lid + step];
            partial[L + lid] += partial[L + lid + step];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel void mvn_reduction(__global const half* restrict src, __global float* restrict stats,
                            __local float* restrict partial, int H, int W)
{
    const int lid = get_local_id(0);
    const int L = get_local_size(0);
    const int g = get_group_id(0);
    const int G = get_num_groups(0);
    const int c = get_group_id(1);
    const int C = get_num_groups(1);
    const int b = get_group_id(2);
    const int HW = H * W;
    __global const half* restrict plane = src + (size_t)(b * C + c) * HW;
    const int end = min(HW, (g + 1) * MVN_CHUNK);
    float sum = 0.0f, sum2 = 0.0f;
    #pragma unroll 4
    for (int i = g * MVN_CHUNK + lid; i < end; i += L) {
        const float v = (float)plane[i];
        sum += v;
        sum2 += v * v;
    }
    partial[lid] = sum;
    partial[L + lid] = sum2;
    mvn_reduce_pairs(partial, lid, L);
    if (lid == 0) {
        stats[2 * ((b * C + c) * G + g)] = partial[0];
        stats[2 * ((b * C + c) * G + g) + 1] = partial[L];
    }
}

__kernel void mvn_scale(__global const half* restrict src, __global const float* restrict stats,
                        __global half* restrict dst, __local float* restrict partial, int H, int W,
                        int across_channels, int normalize_variance, float eps)
{
    const int lid = get_local_id(0);
    const int L = get_local_size(0);
    const int g = get_group_id(0);
    const int G = get_num_groups(0);
    const int c = get_group_id(1);
    const int C = get_num_groups(1);
    const int b = get_group_id(2);
    const int HW = H * W;
    const int first = across_channels ? b * C * G : (b * C + c) * G;
    const int pairs = across_channels ? C * G : G;
    float sum = 0.0f, sum2 = 0.0f;
    for (int k = lid; k < pairs; k += L) {
        sum += stats[2 * (first + k)];
        sum2 += stats[2 * (first + k) + 1];
    }
    partial[lid] = sum;
    partial[L + lid] = sum2;
    mvn_reduce_pairs(partial, lid, L);
    const float count = (float)HW * (across_channels ? C : 1);
    const float mean = partial[0] / count;
    float scale = 1.0f;
    if (normalize_variance)
        scale = native_rsqrt(fmax(partial[L] / count - mean * mean, 0.0f) + eps);
    const size_t offset = (size_t)(b * C + c) * HW;
    __global const half* restrict in = src + offset;
    __global half* restrict out = dst + offset;
    const int end = min(HW, (g + 1) * MVN_CHUNK);
    #pragma unroll 4
    for (int i = g * MVN_CHUNK + lid; i < end; i += L)
        out[i] = convert_half(((float)in[i] - mean) * scale);
}
