// binary_convolution.cl -- BinaryConvolution (mode xnor-popcount) as a Myriad-style custom kernel.
// Inputs are binarized (x > 0 -> 1, else 0; positions in the padding take pad_value > 0); the
// weights are bits packed 8 per byte, least significant bit first, in [O, C/group, KH, KW]
// order (the layer's "weights" blob). Each output is C/group*KH*KW - 2 * popcount(input ^ weight),
// i.e. the dot product of the +-1 values. One work item per output element.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void binary_convolution(__global const half* restrict src_data,
                                 __global const uchar* restrict weights_data,
                                 __global half* restrict dst_data, float pad_value, int IW, int IH,
                                 int IC, int DW, int DH, int GC, int KW, int KH, int PW, int PH,
                                 int SW, int SH, int OC)
{
    const int ow = get_global_id(0);
    const int OW = get_global_size(0);
    const int oh = get_global_id(1);
    const int OH = get_global_size(1);
    const int oc = get_global_id(2) % OC;
    const int b = get_global_id(2) / OC;
    const int ipad_value = pad_value > 0.0f ? 1 : 0;
    const int group_in = IC / GC;
    const int group_out = OC / GC;
    const int g = oc / group_out;
    __global const half* restrict src = src_data + (b * IC + g * group_in) * IH * IW;

    int differing = 0;
    for (int ic = 0; ic < group_in; ic++) {
        for (int kh = 0; kh < KH; kh++) {
            const int ih = oh * SH - PH + kh * DH;
            for (int kw = 0; kw < KW; kw++) {
                const int iw = ow * SW - PW + kw * DW;
                const int widx = ((oc * group_in + ic) * KH + kh) * KW + kw;
                const int w = (weights_data[widx >> 3] >> (widx & 7)) & 1;
                int s = ipad_value;
                if (ih >= 0 && ih < IH && iw >= 0 && iw < IW)
                    s = (float)src[(ic * IH + ih) * IW + iw] > 0.0f ? 1 : 0;
                differing += s ^ w;
            }
        }
    }
    dst_data[((b * OC + oc) * OH + oh) * OW + ow] =
        convert_half((float)(group_in * KH * KW - 2 * differing));
}
