// prior_grid_generator.cl -- ExperimentalDetectronPriorGridGenerator as a Myriad-style custom
// kernel: for every grid cell (w, h) of the feature map and prior p,
// out[h][w][p] = priors[p] + ((w + 0.5) * stride_x, (h + 0.5) * stride_y) on both corners.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void experimental_detectron_prior_grid_generator(__global const half* restrict priors,
                                                          __global half* restrict output,
                                                          int num_priors, float stride_x,
                                                          float stride_y)
{
    const int w = get_global_id(0);
    const int W = get_global_size(0);
    const int h = get_global_id(1);
    const float shift_x = (w + 0.5f) * stride_x;
    const float shift_y = (h + 0.5f) * stride_y;
    for (int p = 0; p < num_priors; p++) {
        __global half* restrict out = output + ((h * W + w) * num_priors + p) * 4;
        out[0] = (half)((float)priors[p * 4 + 0] + shift_x);
        out[1] = (half)((float)priors[p * 4 + 1] + shift_y);
        out[2] = (half)((float)priors[p * 4 + 2] + shift_x);
        out[3] = (half)((float)priors[p * 4 + 3] + shift_y);
    }
}
