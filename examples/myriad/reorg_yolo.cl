// reorg_yolo.cl -- a user's ReorgYolo kernel (YOLOv2's reorg) as written for the Neural Compute
// Stick 2: half data, one work item per output element.
// out[b][c][h][w] = in[b][c % C][h*s + (c / C) / s][w*s + (c / C) % s], C = input channels.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void reorg_per_element(__global const half* restrict src, __global half* restrict dst,
                                int C, int H, int W, int stride)
{
    const int w = get_global_id(0);
    const int OW = get_global_size(0);
    const int h = get_global_id(1);
    const int OH = get_global_size(1);
    const int OC = C * stride * stride;
    const int c = get_global_id(2) % OC;
    const int b = get_global_id(2) / OC;
    const int offset = c / C;
    const int ih = h * stride + offset / stride;
    const int iw = w * stride + offset % stride;
    dst[((b * OC + c) * OH + h) * OW + w] = src[((b * C + c % C) * H + ih) * W + iw];
}
