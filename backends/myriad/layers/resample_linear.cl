// resample_linear.cl -- Resample LINEAR without antialias as a Myriad-style custom kernel. Per
// axis (input size I, output size O, f = I / O) output o samples the input at
// c = o * f + f / 2 - 0.5, clamped to [0, I - 1], interpolating linearly between floor(c) and the
// next pixel (the last pixel repeats at the far edge). This is OpenVINO's linear resampling with
// the unit triangle filter (no antialias; its normalised weights reduce to this clamp at the
// edges) and TensorFlow's half-pixel-centres bilinear resize. One work item per output
// (x, y, batch*channel).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static inline float resample_source(int o, int in, int out)
{
    const float f = (float)in / out;
    return clamp(o * f + f * 0.5f - 0.5f, 0.0f, (float)(in - 1));
}

__kernel void resample_linear(__global const half* restrict src, __global half* restrict dst,
                              int IW, int IH, int OW, int OH)
{
    const int ox = get_global_id(0);
    const int oy = get_global_id(1);
    const int bc = get_global_id(2);
    if (ox >= OW || oy >= OH) return;
    const float sx = resample_source(ox, IW, OW);
    const float sy = resample_source(oy, IH, OH);
    const int x0 = (int)sx, y0 = (int)sy;
    const int x1 = min(x0 + 1, IW - 1), y1 = min(y0 + 1, IH - 1);
    const float fx = sx - x0, fy = sy - y0;
    const __global half* plane = src + (size_t)bc * IH * IW;
    const float top = mix((float)plane[y0 * IW + x0], (float)plane[y0 * IW + x1], fx);
    const float bottom = mix((float)plane[y1 * IW + x0], (float)plane[y1 * IW + x1], fx);
    dst[((size_t)bc * OH + oy) * OW + ox] = convert_half(mix(top, bottom, fy));
}
