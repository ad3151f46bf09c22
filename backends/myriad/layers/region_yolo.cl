// region_yolo.cl -- RegionYolo as Myriad-style custom kernels. Channels of each region:
// coords (x, y logistic; the rest copied), objectness (logistic), classes (softmax across the
// classes when do_softmax, else logistic). One work item per (spatial position, region, batch).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static inline float logistic(float x) { return 1.0f / (1.0f + native_exp(-x)); }

__kernel void region_softmax(__global const half* restrict src, __global half* restrict dst,
                             int coords, int classes, int H, int W)
{
    const int HW = H * W;
    const int i = get_global_id(0);
    const int n = get_global_id(1);
    const int regions = get_global_size(1);
    const int b = get_global_id(2);
    const int entries = coords + classes + 1;
    const int base = ((b * regions + n) * entries) * HW + i;
    for (int k = 0; k < coords; k++) {
        const float v = (float)src[base + k * HW];
        dst[base + k * HW] = (half)(k < 2 ? logistic(v) : v);
    }
    dst[base + coords * HW] = (half)logistic((float)src[base + coords * HW]);
    const int cls = base + (coords + 1) * HW;
    float largest = -INFINITY;
    for (int c = 0; c < classes; c++) largest = fmax(largest, (float)src[cls + c * HW]);
    float sum = 0.0f;
    for (int c = 0; c < classes; c++) sum += native_exp((float)src[cls + c * HW] - largest);
    for (int c = 0; c < classes; c++)
        dst[cls + c * HW] = (half)(native_exp((float)src[cls + c * HW] - largest) / sum);
}

__kernel void region_logistic(__global const half* restrict src, __global half* restrict dst,
                              int coords, int classes, int H, int W)
{
    const int HW = H * W;
    const int i = get_global_id(0);
    const int n = get_global_id(1);
    const int regions = get_global_size(1);
    const int b = get_global_id(2);
    const int entries = coords + classes + 1;
    const int base = ((b * regions + n) * entries) * HW + i;
    for (int k = 0; k < entries; k++) {
        const float v = (float)src[base + k * HW];
        dst[base + k * HW] = (half)(k < 2 || k >= coords ? logistic(v) : v);
    }
}
