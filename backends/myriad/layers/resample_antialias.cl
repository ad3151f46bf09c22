// resample_antialias.cl -- Resample with antialias="1" as a Myriad-style custom kernel, with
// OpenVINO's antialiased resampling: per axis (input size I, output size O, f = I / O) output o
// samples the input at c = o * f + f / 2 - 0.5 with the triangle filter a * max(0, 1 - |a * d|),
// a = 1 / f, over the input pixels within r of round(c) (r = 2 when upscaling, ceil(2 * f)
// otherwise); the weights of the pixels inside the image are normalised to sum to 1 (an output
// whose weights are all 0 is 0). One work item per output (x, y, batch*channel).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static inline float triangle_coeff(float x)
{
    return fmax(0.0f, 1.0f - fabs(x));
}

__kernel void resample_antialias(__global const half* restrict src, __global half* restrict dst,
                                 int IW, int IH, int OW, int OH)
{
    const int ox = get_global_id(0);
    const int oy = get_global_id(1);
    const int bc = get_global_id(2);
    if (ox >= OW || oy >= OH) return;
    const float fx = (float)IW / OW, fy = (float)IH / OH;
    const float ax = 1.0f / fx, ay = 1.0f / fy;
    const float cx = ox * fx + fx / 2 - 0.5f, cy = oy * fy + fy / 2 - 0.5f;
    const int rx = fx < 1.0f ? 2 : (int)ceil(2.0f * fx);
    const int ry = fy < 1.0f ? 2 : (int)ceil(2.0f * fy);
    const int x0 = (int)round(cx), y0 = (int)round(cy);
    const __global half* plane = src + bc * IH * IW;
    float sum = 0.0f, wsum = 0.0f;
    for (int y = max(y0 - ry, 0); y <= min(y0 + ry, IH - 1); y++) {
        const float wy = ay * triangle_coeff(ay * (cy - y));
        for (int x = max(x0 - rx, 0); x <= min(x0 + rx, IW - 1); x++) {
            const float w = ax * triangle_coeff(ax * (cx - x)) * wy;
            sum += w * (float)plane[y * IW + x];
            wsum += w;
        }
    }
    dst[(bc * OH + oy) * OW + ox] = wsum == 0.0f ? (half)0.0f : (half)(sum / wsum);
}
