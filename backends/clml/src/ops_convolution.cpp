// ops_convolution.cpp -- convolution (regular, grouped, depthwise, transposed; 4D and 5D) and
// its fusions with batchnorm and/or an activation: creators and kernels.
//
// The direct kernel gives each work-item OCB output channels x OWB output columns so that every
// loaded input value and weight is reused from registers. Where it applies (4-D, one group, input
// channels % 4, output channels % 8) the op prefers channels-last: OPTIMAL activations are
// finalised NHWC and OPTIMAL weights with output channels innermost, and conv_nhwc vectorises
// over 8 output channels with float4 input loads.
#include <optional>
#include <sstream>

#include "api_guard.h"
#include "op.h"
#include "program_sources.h"

namespace tessera::clml {

const char* const kConvSource = R"CLC(
// Epilogue shared by both kernels: bias, batchnorm, activation. `ep` holds
// (has_bias, has_bn, has_bn_scale, has_bn_bias), `bst` the element strides of
// (bias, mean, var, scale) and bn bias stride in `bst2`.
inline float epilogue(float v, int oc, int4 ep, const global T* bias, const global T* mean,
                      const global T* var, const global T* scale, const global T* bnb, int4 bst,
                      int bst2, float eps, int act_fn, int act_nan, const global T* act_param,
                      int act_count, int act_stride, float act_default) {
  if (ep.s0) v += ldf(bias, oc * bst.s0);
  if (ep.s1) {
    float g = ep.s2 ? ldf(scale, oc * bst.s3) : 1.0f;
    float be = ep.s3 ? ldf(bnb, oc * bst2) : 0.0f;
    v = (v - ldf(mean, oc * bst.s1)) * rsqrt(ldf(var, oc * bst.s2) + eps) * g + be;
  }
  if (act_fn >= 0) {
    float p = act_count == 0 ? act_default : ldf(act_param, (act_count == 1 ? 0 : oc) * act_stride);
    v = (float)activate((real)v, act_fn, (real)p, act_nan);
  }
  return v;
}

#define EPILOGUE_ARGS                                                                          \
  int4 ep, const global T *bias, const global T *mean, const global T *var,                    \
      const global T *scale, const global T *bnb, int4 bst, int bst2, float eps, int act_fn,   \
      int act_nan, const global T *act_param, int act_count, int act_stride, float act_default
#define EPILOGUE_PASS                                                                          \
  ep, bias, mean, var, scale, bnb, bst, bst2, eps, act_fn, act_nan, act_param, act_count,      \
      act_stride, act_default

// Weights: logical [O, I/groups, KD, KH, KW]. stride/dil/pad: (d, h, w, -).
// Range: (ceil(OW / 8), OH, N * OD * (O / OCB)). Each work-item computes OCB output channels x 8
// output columns. Compile-time KW, SW, DW: for every (ic, kd, kh) the input row segment that the
// 8 columns need is loaded once into registers and reused for all KW taps and OCB channels.
#define OWB 8
#define ROWLEN ((OWB - 1) * SW + (KW - 1) * DW + 1)
kernel void conv_direct(const global T* in, int8 ist, int8 ishape, const global T* wt, int8 wst,
                        int8 wshape, global T* out, int8 ost, int8 oshape, int4 stride, int4 dil,
                        int4 pad, int groups, EPILOGUE_ARGS) {
  const int ow0 = get_global_id(0) * OWB;
  const int oh = get_global_id(1);
  int z = get_global_id(2);
  const int ocblocks = oshape.s1 / OCB;
  const int od = z % oshape.s2; z /= oshape.s2;
  const int oc0 = (z % ocblocks) * OCB;
  const int n = z / ocblocks;
  const int icg = wshape.s1;
  const int ocg = oshape.s1 / groups;
  const int ic0 = (oc0 / ocg) * icg;
  const int iw0 = ow0 * SW - pad.s2;
  // Whole row segment inside the input: no per-element bounds checks.
  const bool interior = iw0 >= 0 && iw0 + ROWLEN <= ishape.s4 && ist.s4 == 1;
  float8 acc[OCB];
  for (int a = 0; a < OCB; ++a) acc[a] = (float8)(0.0f);
  for (int ic = 0; ic < icg; ++ic) {
    for (int kd = 0; kd < wshape.s2; ++kd) {
      const int id = od * stride.s0 - pad.s0 + kd * dil.s0;
      if (id < 0 || id >= ishape.s2) continue;
      for (int kh = 0; kh < wshape.s3; ++kh) {
        const int ih = oh * stride.s1 - pad.s1 + kh * dil.s1;
        if (ih < 0 || ih >= ishape.s3) continue;
        const int ibase = off5(ist, n, ic0 + ic, id, ih, 0);
        float row[ROWLEN];
        if (interior) {
#pragma unroll
          for (int r = 0; r < ROWLEN; ++r) row[r] = ldf(in, ibase + iw0 + r);
        } else {
#pragma unroll
          for (int r = 0; r < ROWLEN; ++r) {
            const int iw = iw0 + r;
            row[r] = (iw >= 0 && iw < ishape.s4) ? ldf(in, ibase + iw * ist.s4) : 0.0f;
          }
        }
        const int wbase = off5(wst, oc0, ic, kd, kh, 0);
#pragma unroll
        for (int kw = 0; kw < KW; ++kw) {
#if SW == 1
          const float8 x = vload8(0, row + kw * DW);
#else
          float8 x;
          x.s0 = row[0 * SW + kw * DW]; x.s1 = row[1 * SW + kw * DW];
          x.s2 = row[2 * SW + kw * DW]; x.s3 = row[3 * SW + kw * DW];
          x.s4 = row[4 * SW + kw * DW]; x.s5 = row[5 * SW + kw * DW];
          x.s6 = row[6 * SW + kw * DW]; x.s7 = row[7 * SW + kw * DW];
#endif
#pragma unroll
          for (int a = 0; a < OCB; ++a)
            acc[a] = mad((float8)(ldf(wt, wbase + a * wst.s0 + kw * wst.s4)), x, acc[a]);
        }
      }
    }
  }
  for (int a = 0; a < OCB; ++a) {
    float r[8];
    vstore8(acc[a], 0, r);
    for (int q = 0; q < OWB; ++q) {
      if (ow0 + q >= oshape.s4) break;
      ST(out, off5(ost, n, oc0 + a, od, oh, ow0 + q), epilogue(r[q], oc0 + a, EPILOGUE_PASS));
    }
  }
}

// Channels-last kernel: input channels contiguous (ist.s1 == 1, I % 4 == 0), weights with
// output channels contiguous (wst.s0 == 1), one group, O % 8 == 0. Range:
// (ceil(OW / PB), OH, N * OD * (O / 8)). Each work-item accumulates 8 output channels (one
// float8) for PB output columns: per filter tap and 4 input channels it loads 4 weight vectors
// and PB input vectors and issues 4 * PB vector multiply-adds.
#define PB 8
inline float4 ld4(const global T* p, int i) {
#if DT == 0
  return vload4(0, p + i);
#elif DT == 1
  return vload_half4(0, p + i);
#else
  return convert_float4(vload4(0, p + i));
#endif
}
inline float8 ld8(const global T* p, int i) {
#if DT == 0
  return vload8(0, p + i);
#elif DT == 1
  return vload_half8(0, p + i);
#else
  return convert_float8(vload8(0, p + i));
#endif
}

kernel void conv_nhwc(const global T* in, int8 ist, int8 ishape, const global T* wt, int8 wst,
                      int8 wshape, global T* out, int8 ost, int8 oshape, int4 stride, int4 dil,
                      int4 pad, int groups, EPILOGUE_ARGS) {
  const int ow0 = get_global_id(0) * PB;
  const int oh = get_global_id(1);
  int z = get_global_id(2);
  const int ocblocks = oshape.s1 / 8;
  const int od = z % oshape.s2; z /= oshape.s2;
  const int oc0 = (z % ocblocks) * 8;
  const int n = z / ocblocks;
  const int channels = ishape.s1;
  const int wic = wst.s1;
  float8 acc[PB];
#pragma unroll
  for (int p = 0; p < PB; ++p) acc[p] = (float8)(0.0f);
  for (int kd = 0; kd < wshape.s2; ++kd) {
    const int id = od * stride.s0 - pad.s0 + kd * dil.s0;
    if (id < 0 || id >= ishape.s2) continue;
    for (int kh = 0; kh < wshape.s3; ++kh) {
      const int ih = oh * stride.s1 - pad.s1 + kh * dil.s1;
      if (ih < 0 || ih >= ishape.s3) continue;
      const int rowbase = off5(ist, n, 0, id, ih, 0);
#pragma unroll
      for (int kw = 0; kw < KW; ++kw) {
        // Columns outside the input read a clamped (valid) address and are zeroed.
        int ibase[PB];
        int inside[PB];
#pragma unroll
        for (int p = 0; p < PB; ++p) {
          const int iw = (ow0 + p) * SW - pad.s2 + kw * DW;
          inside[p] = iw >= 0 && iw < ishape.s4;
          ibase[p] = rowbase + clamp(iw, 0, ishape.s4 - 1) * ist.s4;
        }
        const int wbase = off5(wst, oc0, 0, kd, kh, kw);
        for (int ic = 0; ic < channels; ic += 4) {
          const int wi = wbase + ic * wic;
          const float8 w0 = ld8(wt, wi), w1 = ld8(wt, wi + wic);
          const float8 w2 = ld8(wt, wi + 2 * wic), w3 = ld8(wt, wi + 3 * wic);
#pragma unroll
          for (int p = 0; p < PB; ++p) {
            const float4 x = inside[p] ? ld4(in, ibase[p] + ic) : (float4)(0.0f);
            acc[p] = mad((float8)(x.s0), w0, acc[p]);
            acc[p] = mad((float8)(x.s1), w1, acc[p]);
            acc[p] = mad((float8)(x.s2), w2, acc[p]);
            acc[p] = mad((float8)(x.s3), w3, acc[p]);
          }
        }
      }
    }
  }
  for (int p = 0; p < PB; ++p) {
    const int ow = ow0 + p;
    if (ow >= oshape.s4) break;
    float r[8];
    vstore8(acc[p], 0, r);
    for (int a = 0; a < 8; ++a)
      ST(out, off5(ost, n, oc0 + a, od, oh, ow), epilogue(r[a], oc0 + a, EPILOGUE_PASS));
  }
}

// Transposed convolution by gathering. Weights: logical [I, O/groups, KD, KH, KW].
// Range: (OW, OH, N * OD * O).
kernel void conv_transpose(const global T* in, int8 ist, int8 ishape, const global T* wt, int8 wst,
                           int8 wshape, global T* out, int8 ost, int8 oshape, int4 stride,
                           int4 dil, int4 pad, int groups, EPILOGUE_ARGS) {
  const int ow = get_global_id(0);
  const int oh = get_global_id(1);
  int z = get_global_id(2);
  const int od = z % oshape.s2; z /= oshape.s2;
  const int oc = z % oshape.s1;
  const int n = z / oshape.s1;
  const int ocg = wshape.s1;
  const int icg = ishape.s1 / groups;
  const int g = oc / ocg;
  acc_t acc = (acc_t)0;
  for (int ic = g * icg; ic < (g + 1) * icg; ++ic)
    for (int kd = 0; kd < wshape.s2; ++kd) {
      const int td = od + pad.s0 - kd * dil.s0;
      if (td < 0 || td % stride.s0) continue;
      const int id = td / stride.s0;
      if (id >= ishape.s2) continue;
      for (int kh = 0; kh < wshape.s3; ++kh) {
        const int th = oh + pad.s1 - kh * dil.s1;
        if (th < 0 || th % stride.s1) continue;
        const int ih = th / stride.s1;
        if (ih >= ishape.s3) continue;
        for (int kw = 0; kw < wshape.s4; ++kw) {
          const int tw = ow + pad.s2 - kw * dil.s2;
          if (tw < 0 || tw % stride.s2) continue;
          const int iw = tw / stride.s2;
          if (iw >= ishape.s4) continue;
          acc += (acc_t)(LD(in, off5(ist, n, ic, id, ih, iw)) *
                         LD(wt, off5(wst, ic, oc - g * ocg, kd, kh, kw)));
        }
      }
    }
  ST(out, off5(ost, n, oc, od, oh, ow), epilogue((float)acc, oc, EPILOGUE_PASS));
}
)CLC";

namespace {

constexpr const char* kProgram = "convolution";

std::string shape_text(const TensorInfo& info) {
  std::ostringstream s;
  s << info.dtype << ":" << info.shape[0] << "x" << info.shape[1] << "x" << info.shape[2] << "x" << info.shape[3] << "x"
    << info.shape[4] << "/" << info.layout;
  return s.str();
}

// Weight strides with output channels innermost: [KD][KH][KW][I][O] in memory.
Shape5 output_channels_last(const Shape5& shape) {
  Shape5 st{};
  st[kN] = 1;
  st[kC] = shape[kN];
  st[kW] = st[kC] * shape[kC];
  st[kH] = st[kW] * shape[kW];
  st[kD] = st[kH] * shape[kH];
  return st;
}

// Signature tag of weights finalised by output_channels_last (not a client-visible layout).
constexpr auto kWeightLayoutTag = static_cast<cl_tensor_layout_qcom>(16);

cl_int8 to_arg(const Shape5& v) {
  cl_int8 out{};
  for (int a = 0; a < 5; ++a) out.s[a] = static_cast<cl_int>(v[a]);
  return out;
}

struct ConvTensors {
  cl_ml_tensor_qcom input = nullptr, weight = nullptr, bias = nullptr, output = nullptr;
  cl_ml_tensor_qcom mean = nullptr, variance = nullptr, scale = nullptr, bn_bias = nullptr;
  cl_ml_tensor_qcom param = nullptr;
};

cl_int create_conv(cl_context context, const cl_ml_op_properties_qcom* properties,
                   const cl_ml_op_convolution_desc_qcom* desc, const cl_ml_op_batchnorm_desc_qcom* bn,
                   const cl_ml_op_activation_desc_qcom* act, bool with_bn, bool with_act, const ConvTensors& h,
                   cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (with_bn &&
      (bn == nullptr || bn->mode != CL_BATCHNORM_MODE_SPATIAL_QCOM || !is_valid_arithmetic_mode(bn->arithmetic_mode)))
    return CL_INVALID_VALUE;
  if (with_act && (act == nullptr || !is_valid_activation(*act))) return CL_INVALID_VALUE;
  if (desc->mode < CL_CONVOLUTION_MODE_CONVOLUTION_QCOM || desc->mode > CL_CONVOLUTION_MODE_DEPTHWISE_QCOM ||
      !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  TensorPtr ti, tw, tb, to, tm, tv, ts, tbb, tp;
  if (cl_int err = b.require(h.input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(h.weight, tw); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(h.bias, tb); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(h.output, to); err != CL_SUCCESS) return err;
  if (with_bn) {
    if (cl_int err = b.require(h.mean, tm); err != CL_SUCCESS) return err;
    if (cl_int err = b.require(h.variance, tv); err != CL_SUCCESS) return err;
    if (cl_int err = b.optional(h.scale, ts); err != CL_SUCCESS) return err;
    if (cl_int err = b.optional(h.bn_bias, tbb); err != CL_SUCCESS) return err;
  }
  if (with_act)
    if (cl_int err = b.optional(h.param, tp); err != CL_SUCCESS) return err;
  cl_channel_type dtype;
  if (cl_int err = b.same_dtype({&ti, &tw, &tb, &to, &tm, &tv, &ts, &tbb, &tp}, dtype); err != CL_SUCCESS) return err;
  const TensorInfo ii = ti->logical(), wi0 = tw->logical(), oi = to->logical();
  if (ii.five_d != oi.five_d || wi0.five_d != ii.five_d || ii.shape[kN] != oi.shape[kN] ||
      !is_valid_op_dimensions(desc->num_dimensions, ii.five_d))
    return CL_INVALID_VALUE;
  const bool transpose = desc->mode == CL_CONVOLUTION_MODE_TRANSPOSE_QCOM;
  const bool depthwise = desc->mode == CL_CONVOLUTION_MODE_DEPTHWISE_QCOM;
  const int64_t in_c = ii.shape[kC], out_c = oi.shape[kC];
  int64_t groups = depthwise ? in_c : desc->group_count;
  if (groups == 0 || in_c % groups != 0 || out_c % groups != 0) return CL_INVALID_VALUE;
  // Weight shape (logical [O, I/g, K...] or, transposed, [I, O/g, K...]). Depthwise weights may
  // also come as [1, O, K...].
  bool swap_weight_nc = false;
  if (transpose) {
    if (wi0.shape[kN] != in_c || wi0.shape[kC] * groups != out_c) return CL_INVALID_VALUE;
  } else if (depthwise && wi0.shape[kN] == 1 && wi0.shape[kC] == out_c && out_c != 1) {
    swap_weight_nc = true;
  } else if (wi0.shape[kN] != out_c || wi0.shape[kC] != in_c / groups) {
    return CL_INVALID_VALUE;
  }
  // Spatial parameters in internal order (d, h, w).
  int stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, pa[3] = {0, 0, 0};
  const int first = ii.five_d ? 0 : 1;
  for (int s = first; s < 3; ++s) {
    const int idx = s - first;
    if (desc->filter_stride[idx] == 0 || desc->filter_stride[idx] > 4096 || desc->dilation[idx] > 4096 ||
        desc->input_padding_before[idx] > 4096 || desc->input_padding_after[idx] > 4096)
      return CL_INVALID_VALUE;
    stride[s] = static_cast<int>(desc->filter_stride[idx]);
    dil[s] = desc->dilation[idx] == 0 ? 1 : static_cast<int>(desc->dilation[idx]);
    pb[s] = static_cast<int>(desc->input_padding_before[idx]);
    pa[s] = static_cast<int>(desc->input_padding_after[idx]);
    const int64_t kext = static_cast<int64_t>(dil[s]) * (wi0.shape[kD + s] - 1) + 1;
    const int64_t in_e = ii.shape[kD + s], out_e = oi.shape[kD + s];
    if (transpose) {
      const int64_t expect = (in_e - 1) * stride[s] - pb[s] - pa[s] + kext;
      if (out_e < expect || out_e >= expect + stride[s] || expect <= 0) return CL_INVALID_VALUE;
    } else {
      const int64_t span = in_e + pb[s] + pa[s] - kext;
      if (span < 0 || out_e != span / stride[s] + 1) return CL_INVALID_VALUE;
    }
  }
  for (const TensorPtr* v : {&tb, &tm, &tv, &ts, &tbb}) {
    if (!*v) continue;
    int64_t count;
    int vstride;
    if (!vector_layout((*v)->logical(), count, vstride) || count != out_c) return CL_INVALID_VALUE;
  }
  if (tp) {
    int64_t count;
    int vstride;
    if (!vector_layout(tp->logical(), count, vstride) || (count != 1 && count != out_c)) return CL_INVALID_VALUE;
  } else if (with_act && act->function == CL_ACTIVATION_PRELU) {
    return CL_INVALID_VALUE;
  }

  // The direct kernel keeps (7 * stride + (KW - 1) * dilation + 1) input values per row in
  // registers; absurdly wide rows are valid but not accelerated.
  if (!transpose && 7 * stride[2] + (wi0.shape[kW] - 1) * dil[2] + 1 > 512) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  // OPTIMAL layout choice: channels-last activations (and weights with output channels innermost)
  // for the vectorised kernel where it applies, else NCHW for the direct/transposed kernels.
  const bool channels_last = !optimal_forced_nchw() && !ii.five_d && !transpose && !depthwise && groups == 1 &&
                             in_c % 4 == 0 && out_c % 8 == 0;
  const cl_tensor_layout_qcom act_layout = channels_last ? CL_TENSOR_LAYOUT_NHWC_QCOM : CL_TENSOR_LAYOUT_NCHW_QCOM;
  const int si = b.add(ti, act_layout), so = b.add(to, act_layout);
  const int sw = channels_last ? b.add_strided(tw, output_channels_last(wi0.shape), kWeightLayoutTag) : b.add(tw);
  const int sb = b.add(tb);
  const int sm = b.add(tm), sv = b.add(tv), ss = b.add(ts), sbb = b.add(tbb), sp = b.add(tp);
  TensorInfo wi = b.info(sw);
  Shape5 wshape = wi.shape, wstrides = wi.strides;
  if (swap_weight_nc) {
    std::swap(wshape[kN], wshape[kC]);
    std::swap(wstrides[kN], wstrides[kC]);
  }
  // Tensors already laid out otherwise (linear client tensors, OPTIMAL ones other ops finalised)
  // are repacked for the channels-last kernel by a copy dispatch before it.
  TensorInfo in_view = b.info(si);
  std::optional<cl::Buffer> in_repacked, wt_repacked;
  if (channels_last && in_view.strides[kC] != 1) {
    in_view.strides = packed_strides(in_view.shape, CL_TENSOR_LAYOUT_NHWC_QCOM);
    in_repacked = b.add_repack(si, in_view.strides);
  }
  // The direct kernel's fast path reads input rows contiguously: a channels-last input (e.g. the
  // OPTIMAL output of a preceding channels-last conv feeding a depthwise one) is repacked to NCHW.
  if (!channels_last && !transpose && in_view.strides[kW] != 1 && in_view.shape[kW] > 1) {
    in_view.strides = packed_strides(in_view.shape, CL_TENSOR_LAYOUT_NCHW_QCOM);
    in_repacked = b.add_repack(si, in_view.strides);
  }
  if (channels_last && wstrides[kN] != 1) {
    wstrides = output_channels_last(wshape);
    wt_repacked = b.add_repack(sw, wstrides);
  }
  const int64_t ocg = out_c / groups;
  const int ocb = transpose ? 1 : (ocg % 8 == 0 ? 8 : ocg % 4 == 0 ? 4 : ocg % 2 == 0 ? 2 : 1);
  const int owb = transpose ? 1 : 8;
  // The direct kernel specialises on the filter width, column stride and dilation.
  KernelConfig config{dtype, desc->arithmetic_mode,
                      "-DOCB=" + std::to_string(ocb) + " -DKW=" + std::to_string(wshape[kW]) +
                          " -DSW=" + std::to_string(stride[2]) + " -DDW=" + std::to_string(dil[2])};
  KernelDispatch d;
  d.kernel = b.kernel(kProgram, kConvSource,
                      transpose       ? "conv_transpose"
                      : channels_last ? "conv_nhwc"
                                      : "conv_direct",
                      config);
  const TensorInfo& oinfo = b.info(so);
  const size_t gx = static_cast<size_t>((oinfo.shape[kW] + owb - 1) / owb);
  const size_t gy = static_cast<size_t>(oinfo.shape[kH]);
  const size_t gz = static_cast<size_t>(oinfo.shape[kN] * oinfo.shape[kD] * (out_c / ocb));
  d.global = cl::NDRange(gx, gy, gz);
  d.local_candidates.push_back(cl::NullRange);
  for (size_t lx : {1, 2, 4, 8, 16})
    for (size_t ly : {1, 2, 4, 8})
      if (gx % lx == 0 && gy % ly == 0 && lx * ly >= 4) d.local_candidates.emplace_back(lx, ly, 1);
  int arg = 0;
  if (in_repacked)
    d.kernel.setArg(arg++, *in_repacked);
  else
    b.bind(d, arg++, si);
  d.kernel.setArg(arg++, strides_arg(in_view));
  d.kernel.setArg(arg++, shape_arg(in_view));
  if (wt_repacked)
    d.kernel.setArg(arg++, *wt_repacked);
  else
    b.bind(d, arg++, sw);
  d.kernel.setArg(arg++, to_arg(wstrides));
  d.kernel.setArg(arg++, to_arg(wshape));
  b.bind(d, arg++, so);
  d.kernel.setArg(arg++, strides_arg(oinfo));
  d.kernel.setArg(arg++, shape_arg(oinfo));
  d.kernel.setArg(arg++, cl_int4{{stride[0], stride[1], stride[2], 0}});
  d.kernel.setArg(arg++, cl_int4{{dil[0], dil[1], dil[2], 0}});
  d.kernel.setArg(arg++, cl_int4{{pb[0], pb[1], pb[2], 0}});
  d.kernel.setArg(arg++, static_cast<cl_int>(groups));
  auto vstride = [&](int slot) {
    int64_t count;
    int st = 0;
    if (slot >= 0) vector_layout(b.info(slot), count, st);
    return st;
  };
  d.kernel.setArg(arg++, cl_int4{{sb >= 0, sm >= 0, ss >= 0, sbb >= 0}});
  b.bind(d, arg++, sb);
  b.bind(d, arg++, sm);
  b.bind(d, arg++, sv);
  b.bind(d, arg++, ss);
  b.bind(d, arg++, sbb);
  d.kernel.setArg(arg++, cl_int4{{vstride(sb), vstride(sm), vstride(sv), vstride(ss)}});
  d.kernel.setArg(arg++, static_cast<cl_int>(vstride(sbb)));
  d.kernel.setArg(arg++, b.properties().batchnorm_epsilon);
  d.kernel.setArg(arg++, static_cast<cl_int>(with_act ? act->function : -1));
  d.kernel.setArg(arg++, static_cast<cl_int>(with_act ? act->nan_propagation : 0));
  b.bind(d, arg++, sp);
  int64_t pcount = 0;
  int pstride = 0;
  if (sp >= 0) vector_layout(b.info(sp), pcount, pstride);
  d.kernel.setArg(arg++, static_cast<cl_int>(pcount));
  d.kernel.setArg(arg++, static_cast<cl_int>(pstride));
  d.kernel.setArg(arg++, with_act && act->function == CL_ACTIVATION_LEAKY_RELU ? 0.01f : 1.0f);
  b.add_dispatch(std::move(d));
  std::ostringstream sig;
  sig << "conv" << desc->mode << "g" << groups << "s" << stride[0] << stride[1] << stride[2] << "d" << dil[0] << dil[1]
      << dil[2] << "p" << pb[0] << pb[1] << pb[2] << "b" << (sb >= 0) << (sm >= 0) << "a"
      << (with_act ? act->function : -1) << shape_text(b.info(si)) << shape_text(wi) << shape_text(oinfo);
  return b.finish(sig.str());
}

}  // namespace

cl_int api_create_convolution(cl_context context, const cl_ml_op_properties_qcom* properties,
                              const cl_ml_op_convolution_desc_qcom* desc, cl_ml_tensor_qcom input,
                              cl_ml_tensor_qcom weight, cl_ml_tensor_qcom bias, cl_ml_tensor_qcom output,
                              cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  ConvTensors h;
  h.input = input, h.weight = weight, h.bias = bias, h.output = output;
  return guarded([&] { return create_conv(context, properties, desc, nullptr, nullptr, false, false, h, out, cache); });
}

cl_int api_create_conv_activation(cl_context context, const cl_ml_op_properties_qcom* properties,
                                  const cl_ml_op_convolution_desc_qcom* desc, const cl_ml_op_activation_desc_qcom* act,
                                  cl_ml_tensor_qcom input, cl_ml_tensor_qcom weight, cl_ml_tensor_qcom bias,
                                  cl_ml_tensor_qcom param, cl_ml_tensor_qcom output, cl_ml_op_qcom* out,
                                  cl_ml_tuningcache_qcom cache) {
  ConvTensors h;
  h.input = input, h.weight = weight, h.bias = bias, h.output = output, h.param = param;
  return guarded([&] { return create_conv(context, properties, desc, nullptr, act, false, true, h, out, cache); });
}

cl_int api_create_conv_batchnorm(cl_context context, const cl_ml_op_properties_qcom* properties,
                                 const cl_ml_op_convolution_desc_qcom* desc, const cl_ml_op_batchnorm_desc_qcom* bn,
                                 cl_ml_tensor_qcom input, cl_ml_tensor_qcom weight, cl_ml_tensor_qcom bias,
                                 cl_ml_tensor_qcom output, cl_ml_tensor_qcom mean, cl_ml_tensor_qcom variance,
                                 cl_ml_tensor_qcom scale, cl_ml_tensor_qcom bn_bias, cl_ml_op_qcom* out,
                                 cl_ml_tuningcache_qcom cache) {
  ConvTensors h;
  h.input = input, h.weight = weight, h.bias = bias, h.output = output;
  h.mean = mean, h.variance = variance, h.scale = scale, h.bn_bias = bn_bias;
  return guarded([&] { return create_conv(context, properties, desc, bn, nullptr, true, false, h, out, cache); });
}

cl_int api_create_conv_batchnorm_activation(cl_context context, const cl_ml_op_properties_qcom* properties,
                                            const cl_ml_op_convolution_desc_qcom* desc,
                                            const cl_ml_op_batchnorm_desc_qcom* bn,
                                            const cl_ml_op_activation_desc_qcom* act, cl_ml_tensor_qcom input,
                                            cl_ml_tensor_qcom weight, cl_ml_tensor_qcom bias, cl_ml_tensor_qcom output,
                                            cl_ml_tensor_qcom param, cl_ml_tensor_qcom mean, cl_ml_tensor_qcom variance,
                                            cl_ml_tensor_qcom scale, cl_ml_tensor_qcom bn_bias, cl_ml_op_qcom* out,
                                            cl_ml_tuningcache_qcom cache) {
  ConvTensors h;
  h.input = input, h.weight = weight, h.bias = bias, h.output = output, h.param = param;
  h.mean = mean, h.variance = variance, h.scale = scale, h.bn_bias = bn_bias;
  return guarded([&] { return create_conv(context, properties, desc, bn, act, true, true, h, out, cache); });
}

}  // namespace tessera::clml
