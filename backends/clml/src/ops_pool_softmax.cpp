// ops_pool_softmax.cpp -- pooling (max, average with/without padding, global max/average) and
// softmax (instance, channel, spatial): creators and kernels.
#include <sstream>

#include "api_guard.h"
#include "op.h"
#include "program_sources.h"

namespace tessera::clml {

const char* const kPoolSource = R"CLC(
// win, stride, pad_before are (d, h, w, -); mode follows cl_pooling_mode_qcom (global modes are
// mapped to a window covering the whole input on the host).
kernel void pool_fwd(const global T* in, int8 ist, int8 ishape, global T* out, int8 ost,
                     int8 oshape, int4 win, int4 stride, int4 pad_before, int4 pad_after, int mode,
                     int nanp) {
  int n, c, od, oh, ow;
  UNRAVEL5(get_global_id(0), oshape, n, c, od, oh, ow);
  int d0 = od * stride.s0 - pad_before.s0, h0 = oh * stride.s1 - pad_before.s1, w0 = ow * stride.s2 - pad_before.s2;
  // Window clipped to the padded input (counts for average-including-padding) and to the input.
  int d1p = min(d0 + win.s0, ishape.s2 + pad_after.s0), h1p = min(h0 + win.s1, ishape.s3 + pad_after.s1);
  int w1p = min(w0 + win.s2, ishape.s4 + pad_after.s2);
  int padded_count = (d1p - d0) * (h1p - h0) * (w1p - w0);
  int ds = max(d0, 0), hs = max(h0, 0), ws = max(w0, 0);
  int de = min(d0 + win.s0, ishape.s2), he = min(h0 + win.s1, ishape.s3), we = min(w0 + win.s2, ishape.s4);
  float acc = mode == 0 ? -INFINITY : 0.0f;
  int count = 0;
  bool saw_nan = false;
  for (int d = ds; d < de; ++d)
    for (int h = hs; h < he; ++h)
      for (int w = ws; w < we; ++w) {
        float v = ldf(in, off5(ist, n, c, d, h, w));
        if (mode == 0) { saw_nan |= isnan(v); acc = fmax(acc, v); }
        else acc += v;
        ++count;
      }
  float r;
  if (mode == 0) r = (nanp && saw_nan) ? NAN : acc;
  else if (mode == 1) r = acc / (float)max(padded_count, 1);
  else r = acc / (float)max(count, 1);
  ST(out, off5(ost, n, c, od, oh, ow), r);
}

// One work-item per softmax group. gshape: shape with reduced axes set to 1; rshape: the reduced
// extent along each axis (1 for kept axes).
kernel void softmax_fwd(const global T* in, int8 ist, global T* out, int8 ost, int8 gshape, int8 rshape,
                        int rcount) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), gshape, n, c, d, h, w);
  float m = -INFINITY;
  for (int r = 0; r < rcount; ++r) {
    int rn, rc, rd, rh, rw;
    UNRAVEL5(r, rshape, rn, rc, rd, rh, rw);
    m = fmax(m, ldf(in, off5(ist, n + rn, c + rc, d + rd, h + rh, w + rw)));
  }
  float s = 0.0f;
  for (int r = 0; r < rcount; ++r) {
    int rn, rc, rd, rh, rw;
    UNRAVEL5(r, rshape, rn, rc, rd, rh, rw);
    s += exp(ldf(in, off5(ist, n + rn, c + rc, d + rd, h + rh, w + rw)) - m);
  }
  float inv = 1.0f / s;
  for (int r = 0; r < rcount; ++r) {
    int rn, rc, rd, rh, rw;
    UNRAVEL5(r, rshape, rn, rc, rd, rh, rw);
    float e = exp(ldf(in, off5(ist, n + rn, c + rc, d + rd, h + rh, w + rw)) - m);
    ST(out, off5(ost, n + rn, c + rc, d + rd, h + rh, w + rw), e * inv);
  }
}
)CLC";

namespace {

constexpr const char* kProgram = "pool_softmax";

std::string shape_text(const TensorInfo& info) {
  std::ostringstream s;
  s << info.dtype << ":" << info.shape[0] << "x" << info.shape[1] << "x" << info.shape[2] << "x" << info.shape[3] << "x"
    << info.shape[4] << "/" << info.layout;
  return s.str();
}

cl_int create_pooling(cl_context context, const cl_ml_op_properties_qcom* properties,
                      const cl_ml_op_pooling_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom mask,
                      cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (desc->mode < CL_POOLING_MODE_MAX_QCOM || desc->mode > CL_POOLING_MODE_GLOBAL_AVERAGE_QCOM ||
      (desc->nan_propagation != CL_DO_NOT_PROPAGATE_NAN_QCOM && desc->nan_propagation != CL_PROPAGATE_NAN_QCOM) ||
      !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  TensorPtr ti, tm, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(mask, tm); err != CL_SUCCESS) return err;
  if (tm) return CL_ML_OP_NOT_ACCELERATED_QCOM;  // pooling masks (training) are not produced
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  const TensorInfo ii = ti->logical(), oi = to->logical();
  if (ii.dtype != oi.dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  if (ii.five_d != oi.five_d || ii.shape[kN] != oi.shape[kN] || ii.shape[kC] != oi.shape[kC] ||
      !is_valid_op_dimensions(desc->num_dimensions, ii.five_d))
    return CL_INVALID_VALUE;
  // Spatial descriptor index i: (h, w) for 4D, (d, h, w) for 5D. Internal order: d, h, w.
  int win[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, pa[3] = {0, 0, 0};
  const int first_axis = ii.five_d ? 0 : 1;
  const bool global_mode =
      desc->mode == CL_POOLING_MODE_GLOBAL_MAX_QCOM || desc->mode == CL_POOLING_MODE_GLOBAL_AVERAGE_QCOM;
  for (int s = first_axis; s < 3; ++s) {
    const int idx = s - first_axis;
    const int64_t in_extent = ii.shape[kD + s];
    const int64_t out_extent = oi.shape[kD + s];
    if (global_mode) {
      win[s] = static_cast<int>(in_extent);
      if (out_extent != 1) return CL_INVALID_VALUE;
      continue;
    }
    if (desc->window_size[idx] == 0 || desc->stride[idx] == 0 || desc->window_size[idx] > 4096 ||
        desc->stride[idx] > 4096 || desc->input_padding_before[idx] > 4096 || desc->input_padding_after[idx] > 4096)
      return CL_INVALID_VALUE;
    win[s] = static_cast<int>(desc->window_size[idx]);
    stride[s] = static_cast<int>(desc->stride[idx]);
    pb[s] = static_cast<int>(desc->input_padding_before[idx]);
    pa[s] = static_cast<int>(desc->input_padding_after[idx]);
    const int64_t span = in_extent + pb[s] + pa[s] - win[s];
    if (span < 0) return CL_INVALID_VALUE;
    const int64_t floor_out = span / stride[s] + 1;
    const int64_t ceil_out = (span + stride[s] - 1) / stride[s] + 1;
    if (out_extent != floor_out && out_extent != ceil_out) return CL_INVALID_VALUE;
  }
  if (!ii.five_d && oi.shape[kD] != 1) return CL_INVALID_VALUE;
  const int si = b.add(ti), so = b.add(to, OpBuilder::follow_layout(b.info(si)));
  int mode = 0;
  if (desc->mode == CL_POOLING_MODE_AVERAGE_INCLUDE_PADDING_QCOM) mode = 1;
  if (desc->mode == CL_POOLING_MODE_AVERAGE_EXCLUDE_PADDING_QCOM || desc->mode == CL_POOLING_MODE_GLOBAL_AVERAGE_QCOM)
    mode = 2;
  KernelConfig config{ii.dtype, desc->arithmetic_mode, ""};
  KernelDispatch d;
  d.kernel = b.kernel(kProgram, kPoolSource, "pool_fwd", config);
  const size_t total = static_cast<size_t>(b.info(so).elements());
  d.global = cl::NDRange(total);
  d.local_candidates = local_candidates_1d(total);
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  d.kernel.setArg(2, shape_arg(b.info(si)));
  b.bind(d, 3, so);
  d.kernel.setArg(4, strides_arg(b.info(so)));
  d.kernel.setArg(5, shape_arg(b.info(so)));
  d.kernel.setArg(6, cl_int4{{win[0], win[1], win[2], 0}});
  d.kernel.setArg(7, cl_int4{{stride[0], stride[1], stride[2], 0}});
  d.kernel.setArg(8, cl_int4{{pb[0], pb[1], pb[2], 0}});
  d.kernel.setArg(9, cl_int4{{pa[0], pa[1], pa[2], 0}});
  d.kernel.setArg(10, static_cast<cl_int>(mode));
  d.kernel.setArg(11, static_cast<cl_int>(desc->nan_propagation));
  b.add_dispatch(std::move(d));
  std::ostringstream sig;
  sig << "pool" << desc->mode << "w" << win[0] << win[1] << win[2] << "s" << stride[0] << stride[1] << stride[2] << "p"
      << pb[0] << pb[1] << pb[2] << pa[0] << pa[1] << pa[2];
  return b.finish(sig.str() + shape_text(b.info(si)) + shape_text(b.info(so)));
}

cl_int create_softmax(cl_context context, const cl_ml_op_properties_qcom* properties,
                      const cl_ml_op_softmax_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                      cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (desc->algo != CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM || desc->mode < CL_SOFTMAX_MODE_INSTANCE_QCOM ||
      desc->mode > CL_SOFTMAX_MODE_SPATIAL_QCOM || !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  TensorPtr ti, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  if (!ti->logical().same_shape(to->logical())) return CL_INVALID_VALUE;
  if (ti->logical().dtype != to->logical().dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  const int si = b.add(ti), so = b.add(to);
  const TensorInfo& oi = b.info(so);
  bool reduced[5] = {false, false, false, false, false};
  if (desc->mode == CL_SOFTMAX_MODE_INSTANCE_QCOM) reduced[kC] = reduced[kD] = reduced[kH] = reduced[kW] = true;
  if (desc->mode == CL_SOFTMAX_MODE_CHANNEL_QCOM) reduced[kC] = true;
  if (desc->mode == CL_SOFTMAX_MODE_SPATIAL_QCOM) reduced[kD] = reduced[kH] = reduced[kW] = true;
  cl_int8 gshape{}, rshape{};
  int64_t groups = 1, rcount = 1;
  for (int a = 0; a < 5; ++a) {
    gshape.s[a] = reduced[a] ? 1 : static_cast<cl_int>(oi.shape[a]);
    rshape.s[a] = reduced[a] ? static_cast<cl_int>(oi.shape[a]) : 1;
    groups *= gshape.s[a];
    rcount *= rshape.s[a];
  }
  KernelConfig config{oi.dtype, desc->arithmetic_mode, ""};
  KernelDispatch d;
  d.kernel = b.kernel(kProgram, kPoolSource, "softmax_fwd", config);
  d.global = cl::NDRange(static_cast<size_t>(groups));
  d.local_candidates = local_candidates_1d(static_cast<size_t>(groups));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  b.bind(d, 2, so);
  d.kernel.setArg(3, strides_arg(oi));
  d.kernel.setArg(4, gshape);
  d.kernel.setArg(5, rshape);
  d.kernel.setArg(6, static_cast<cl_int>(rcount));
  b.add_dispatch(std::move(d));
  return b.finish("softmax" + std::to_string(desc->mode) + shape_text(oi));
}

}  // namespace

cl_int api_create_pooling(cl_context context, const cl_ml_op_properties_qcom* properties,
                          const cl_ml_op_pooling_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom mask,
                          cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_pooling(context, properties, desc, input, mask, output, out, cache); });
}

cl_int api_create_softmax(cl_context context, const cl_ml_op_properties_qcom* properties,
                          const cl_ml_op_softmax_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                          cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_softmax(context, properties, desc, input, output, out, cache); });
}

}  // namespace tessera::clml
