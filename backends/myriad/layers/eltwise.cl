// eltwise.cl -- Eltwise (sum, sub, mul, div, max, min of two tensors of one shape) as a
// Myriad-style custom kernel: one work item per element, the operation a constant the binding
// passes (0 sum, 1 sub, 2 mul, 3 div, 4 max, 5 min).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void eltwise(__global const half* restrict a, __global const half* restrict b,
                      __global half* restrict dst, int operation)
{
    const int i = get_global_id(0);
    const float x = (float)a[i];
    const float y = (float)b[i];
    float r;
    switch (operation) {
        case 0: r = x + y; break;
        case 1: r = x - y; break;
        case 2: r = x * y; break;
        case 3: r = x / y; break;
        case 4: r = fmax(x, y); break;
        default: r = fmin(x, y); break;
    }
    dst[i] = convert_half(r);
}
