// fake_quantize.cl -- FakeQuantize as a Myriad-style custom kernel. The four range inputs hold
// one value or one per channel (their F; 1 = broadcast). One work item per (x, y, batch*channel).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void fake_quantize(__global const half* restrict src,
                            __global const half* restrict input_low,
                            __global const half* restrict input_high,
                            __global const half* restrict output_low,
                            __global const half* restrict output_high,
                            __global half* restrict dst, int levels, int C,
                            int il_count, int ih_count, int ol_count, int oh_count)
{
    const int x = get_global_id(0);
    const int W = get_global_size(0);
    const int y = get_global_id(1);
    const int H = get_global_size(1);
    const int bc = get_global_id(2);
    const int c = bc % C;
    const float il = (float)input_low[il_count == 1 ? 0 : c];
    const float ih = (float)input_high[ih_count == 1 ? 0 : c];
    const float ol = (float)output_low[ol_count == 1 ? 0 : c];
    const float oh = (float)output_high[oh_count == 1 ? 0 : c];
    const int i = (bc * H + y) * W + x;
    const float v = (float)src[i];
    float r;
    if (v <= fmin(il, ih)) r = ol;
    else if (v > fmax(il, ih)) r = oh;
    else r = round((v - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol;
    dst[i] = (half)r;
}
