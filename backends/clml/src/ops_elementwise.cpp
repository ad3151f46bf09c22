// ops_elementwise.cpp -- activation, clip, binary, fill and batchnorm ops: creators and kernels.
#include <sstream>

#include "api_guard.h"
#include "op.h"
#include "program_sources.h"

namespace tessera::clml {

const char* const kElementwiseSource = R"CLC(
kernel void activation_fwd(const global T* in, int8 ist, global T* out, int8 ost, int8 shape,
                           const global T* param, int param_count, int param_stride, int fn, int nanp,
                           float default_param) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), shape, n, c, d, h, w);
  real p = param_count == 0 ? (real)default_param
                            : LD(param, (param_count == 1 ? 0 : c) * param_stride);
  ST(out, off5(ost, n, c, d, h, w), activate(LD(in, off5(ist, n, c, d, h, w)), fn, p, nanp));
}

// out = x < lo ? lo : (x > hi ? hi : x): NaN stays NaN.
kernel void clip_fwd(const global T* in, int8 ist, global T* out, int8 ost, int8 shape, float lo,
                     float hi) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), shape, n, c, d, h, w);
  real x = LD(in, off5(ist, n, c, d, h, w));
  ST(out, off5(ost, n, c, d, h, w), x < (real)lo ? (real)lo : (x > (real)hi ? (real)hi : x));
}

inline real binary_apply(int op, real x, real y) {
  switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return fmin(x, y);
    case 4: return fmax(x, y);
    default: return x / y;
  }
}

// C = (alpha*A) op (beta*B) + gamma*C, or C = (gamma*C) op (alpha*A) without B.
kernel void binary_fwd(const global T* a, int8 ast, const global T* b, int8 bst, global T* cc,
                       int8 cst, int8 shape, int op, float alpha, float beta, float gamma, int has_b) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), shape, n, c, d, h, w);
  int co = off5(cst, n, c, d, h, w);
  real x = (real)alpha * LD(a, off5(ast, n, c, d, h, w));
  real r;
  if (has_b) {
    r = binary_apply(op, x, (real)beta * LD(b, off5(bst, n, c, d, h, w)));
    if (gamma != 0.0f) r += (real)gamma * LD(cc, co);
  } else {
    r = binary_apply(op, (real)gamma * LD(cc, co), x);
  }
  ST(cc, co, r);
}

kernel void fill_fwd(global T* out, int8 ost, int8 shape, float value) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), shape, n, c, d, h, w);
  ST(out, off5(ost, n, c, d, h, w), value);
}

// vst = element strides of mean, variance, scale, bias (scale/bias may be absent).
kernel void batchnorm_fwd(const global T* in, int8 ist, global T* out, int8 ost, int8 shape,
                          const global T* mean, const global T* var, const global T* scale,
                          const global T* bias, int4 vst, float eps, int has_scale, int has_bias) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), shape, n, c, d, h, w);
  float m = ldf(mean, c * vst.s0);
  float inv = rsqrt(ldf(var, c * vst.s1) + eps);
  float g = has_scale ? ldf(scale, c * vst.s2) : 1.0f;
  float be = has_bias ? ldf(bias, c * vst.s3) : 0.0f;
  float x = ldf(in, off5(ist, n, c, d, h, w));
  ST(out, off5(ost, n, c, d, h, w), (x - m) * inv * g + be);
}
)CLC";

namespace {

constexpr const char* kProgram = "elementwise";

std::string shape_text(const TensorInfo& info) {
  std::ostringstream s;
  s << info.dtype << ":" << info.shape[0] << "x" << info.shape[1] << "x" << info.shape[2] << "x" << info.shape[3] << "x"
    << info.shape[4] << "/" << info.layout;
  return s.str();
}

KernelDispatch elementwise_dispatch(cl::Kernel kernel, const TensorInfo& out) {
  KernelDispatch d;
  d.kernel = std::move(kernel);
  d.global = cl::NDRange(static_cast<size_t>(out.elements()));
  d.local_candidates = local_candidates_1d(static_cast<size_t>(out.elements()));
  return d;
}

// Shapes of a and b must be equal to out's or 1 along each axis (broadcast).
bool broadcastable(const TensorInfo& in, const TensorInfo& out) {
  for (int a = 0; a < 5; ++a)
    if (in.shape[a] != out.shape[a] && in.shape[a] != 1) return false;
  return true;
}

Shape5 broadcast_strides(const TensorInfo& in, const TensorInfo& out) {
  Shape5 st = in.strides;
  for (int a = 0; a < 5; ++a)
    if (in.shape[a] == 1 && out.shape[a] != 1) st[a] = 0;
  return st;
}

cl_int8 to_arg(const Shape5& v) {
  cl_int8 out{};
  for (int a = 0; a < 5; ++a) out.s[a] = static_cast<cl_int>(v[a]);
  return out;
}

cl_int create_activation(cl_context context, const cl_ml_op_properties_qcom* properties,
                         const cl_ml_op_activation_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom param,
                         cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (!is_valid_activation(*desc)) return CL_INVALID_VALUE;
  TensorPtr in, prm, outp;
  if (cl_int err = b.require(input, in); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(param, prm); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, outp); err != CL_SUCCESS) return err;
  cl_channel_type dtype;
  if (cl_int err = b.same_dtype({&in, &prm, &outp}, dtype); err != CL_SUCCESS) return err;
  if (!in->logical().same_shape(outp->logical())) return CL_INVALID_VALUE;
  int64_t count = 0;
  int stride = 0;
  if (prm) {
    if (!vector_layout(prm->logical(), count, stride)) return CL_INVALID_VALUE;
    if (count != 1 && count != in->logical().shape[kC]) return CL_INVALID_VALUE;
  } else if (desc->function == CL_ACTIVATION_PRELU) {
    return CL_INVALID_VALUE;  // PReLU needs its slopes
  }
  const int si = b.add(in), sp = b.add(prm);
  const int so = b.add(outp, OpBuilder::follow_layout(b.info(si)));
  if (prm) vector_layout(b.info(sp), count, stride);
  const float default_param = desc->function == CL_ACTIVATION_LEAKY_RELU ? 0.01f : 1.0f;
  KernelConfig config{dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = elementwise_dispatch(b.kernel(kProgram, kElementwiseSource, "activation_fwd", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  b.bind(d, 2, so);
  d.kernel.setArg(3, strides_arg(b.info(so)));
  d.kernel.setArg(4, shape_arg(b.info(so)));
  b.bind(d, 5, sp);
  d.kernel.setArg(6, static_cast<cl_int>(prm ? count : 0));
  d.kernel.setArg(7, static_cast<cl_int>(stride));
  d.kernel.setArg(8, static_cast<cl_int>(desc->function));
  d.kernel.setArg(9, static_cast<cl_int>(desc->nan_propagation));
  d.kernel.setArg(10, default_param);
  b.add_dispatch(std::move(d));
  return b.finish("act" + std::to_string(desc->function) + shape_text(b.info(so)));
}

cl_int create_clip(cl_context context, const cl_ml_op_properties_qcom* properties, const cl_ml_op_clip_desc_qcom* desc,
                   cl_ml_tensor_qcom input, cl_ml_tensor_qcom output, cl_ml_op_qcom* out,
                   cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  float hi, lo;
  if (desc->type != CL_CLIP_BY_VALUE_QCOM || !is_valid_arithmetic_mode(desc->arithmetic_mode) ||
      !ml_value_to_float(desc->max_value, hi) || !ml_value_to_float(desc->min_value, lo) || !(lo <= hi))
    return CL_INVALID_VALUE;  // also NaN bounds
  TensorPtr in, outp;
  if (cl_int err = b.require(input, in); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, outp); err != CL_SUCCESS) return err;
  cl_channel_type dtype;
  if (cl_int err = b.same_dtype({&in, &outp}, dtype); err != CL_SUCCESS) return err;
  if (!in->logical().same_shape(outp->logical())) return CL_INVALID_VALUE;
  const int si = b.add(in);
  const int so = b.add(outp, OpBuilder::follow_layout(b.info(si)));
  KernelConfig config{dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = elementwise_dispatch(b.kernel(kProgram, kElementwiseSource, "clip_fwd", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  b.bind(d, 2, so);
  d.kernel.setArg(3, strides_arg(b.info(so)));
  d.kernel.setArg(4, shape_arg(b.info(so)));
  d.kernel.setArg(5, lo);
  d.kernel.setArg(6, hi);
  b.add_dispatch(std::move(d));
  return b.finish("clip" + shape_text(b.info(so)));
}

cl_int create_binary(cl_context context, const cl_ml_op_properties_qcom* properties,
                     const cl_ml_op_binary_desc_qcom* desc, cl_ml_tensor_qcom a_handle, cl_ml_tensor_qcom b_handle,
                     cl_ml_tensor_qcom c_handle, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  float alpha, beta, gamma;
  if (desc->binary_op < CL_TENSOR_OP_ADD_QCOM || desc->binary_op > CL_TENSOR_OP_DIV_QCOM ||
      !is_valid_arithmetic_mode(desc->arithmetic_mode) || !ml_value_to_float(desc->alpha, alpha) ||
      !ml_value_to_float(desc->beta, beta) || !ml_value_to_float(desc->gamma, gamma))
    return CL_INVALID_VALUE;
  TensorPtr ta, tb, tc;
  if (cl_int err = b.require(a_handle, ta); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(b_handle, tb); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(c_handle, tc); err != CL_SUCCESS) return err;
  cl_channel_type dtype;
  if (cl_int err = b.same_dtype({&ta, &tb, &tc}, dtype); err != CL_SUCCESS) return err;
  if (!broadcastable(ta->logical(), tc->logical()) || (tb && !broadcastable(tb->logical(), tc->logical())))
    return CL_INVALID_VALUE;
  const int sa = b.add(ta), sb = b.add(tb);
  const int sc = b.add(tc, OpBuilder::follow_layout(b.info(sa)));
  KernelConfig config{dtype, desc->arithmetic_mode, ""};
  const TensorInfo& ci = b.info(sc);
  KernelDispatch d = elementwise_dispatch(b.kernel(kProgram, kElementwiseSource, "binary_fwd", config), ci);
  b.bind(d, 0, sa);
  d.kernel.setArg(1, to_arg(broadcast_strides(b.info(sa), ci)));
  b.bind(d, 2, sb);
  d.kernel.setArg(3, sb >= 0 ? to_arg(broadcast_strides(b.info(sb), ci)) : cl_int8{});
  b.bind(d, 4, sc);
  d.kernel.setArg(5, strides_arg(ci));
  d.kernel.setArg(6, shape_arg(ci));
  d.kernel.setArg(7, static_cast<cl_int>(desc->binary_op));
  d.kernel.setArg(8, alpha);
  d.kernel.setArg(9, beta);
  d.kernel.setArg(10, gamma);
  d.kernel.setArg(11, static_cast<cl_int>(sb >= 0));
  b.add_dispatch(std::move(d));
  return b.finish("bin" + std::to_string(desc->binary_op) + shape_text(ci));
}

cl_int create_fill(cl_context context, const cl_ml_op_properties_qcom* properties, const cl_ml_op_fill_desc_qcom* desc,
                   cl_ml_tensor_qcom tensor, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  float value;
  if (!is_valid_arithmetic_mode(desc->arithmetic_mode) || !ml_value_to_float(desc->fill_value, value))
    return CL_INVALID_VALUE;
  TensorPtr t;
  if (cl_int err = b.require(tensor, t); err != CL_SUCCESS) return err;
  const int s = b.add(t);
  KernelConfig config{b.info(s).dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = elementwise_dispatch(b.kernel(kProgram, kElementwiseSource, "fill_fwd", config), b.info(s));
  b.bind(d, 0, s);
  d.kernel.setArg(1, strides_arg(b.info(s)));
  d.kernel.setArg(2, shape_arg(b.info(s)));
  d.kernel.setArg(3, value);
  b.add_dispatch(std::move(d));
  return b.finish("fill" + shape_text(b.info(s)));
}

cl_int create_batchnorm(cl_context context, const cl_ml_op_properties_qcom* properties,
                        const cl_ml_op_batchnorm_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom mean,
                        cl_ml_tensor_qcom variance, cl_ml_tensor_qcom scale, cl_ml_tensor_qcom bias,
                        cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (desc->mode != CL_BATCHNORM_MODE_SPATIAL_QCOM || !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  TensorPtr in, tm, tv, ts, tb, to;
  if (cl_int err = b.require(input, in); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(mean, tm); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(variance, tv); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(scale, ts); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(bias, tb); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  cl_channel_type dtype;
  if (cl_int err = b.same_dtype({&in, &tm, &tv, &ts, &tb, &to}, dtype); err != CL_SUCCESS) return err;
  if (!in->logical().same_shape(to->logical())) return CL_INVALID_VALUE;
  const int64_t channels = in->logical().shape[kC];
  for (const TensorPtr* v : {&tm, &tv, &ts, &tb}) {
    if (!*v) continue;
    int64_t count;
    int stride;
    if (!vector_layout((*v)->logical(), count, stride) || count != channels) return CL_INVALID_VALUE;
  }
  const int si = b.add(in), so = b.add(to, OpBuilder::follow_layout(b.info(si)));
  const int sm = b.add(tm), sv = b.add(tv), ss = b.add(ts), sb = b.add(tb);
  cl_int4 vst{};
  const int slots[4] = {sm, sv, ss, sb};
  for (int i = 0; i < 4; ++i) {
    int64_t count;
    int stride = 0;
    if (slots[i] >= 0) vector_layout(b.info(slots[i]), count, stride);
    vst.s[i] = stride;
  }
  KernelConfig config{dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = elementwise_dispatch(b.kernel(kProgram, kElementwiseSource, "batchnorm_fwd", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  b.bind(d, 2, so);
  d.kernel.setArg(3, strides_arg(b.info(so)));
  d.kernel.setArg(4, shape_arg(b.info(so)));
  b.bind(d, 5, sm);
  b.bind(d, 6, sv);
  b.bind(d, 7, ss);
  b.bind(d, 8, sb);
  d.kernel.setArg(9, vst);
  d.kernel.setArg(10, b.properties().batchnorm_epsilon);
  d.kernel.setArg(11, static_cast<cl_int>(ss >= 0));
  d.kernel.setArg(12, static_cast<cl_int>(sb >= 0));
  b.add_dispatch(std::move(d));
  return b.finish("bn" + shape_text(b.info(so)));
}

}  // namespace

cl_int api_create_activation(cl_context context, const cl_ml_op_properties_qcom* properties,
                             const cl_ml_op_activation_desc_qcom* desc, cl_ml_tensor_qcom input,
                             cl_ml_tensor_qcom param, cl_ml_tensor_qcom output, cl_ml_op_qcom* out,
                             cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_activation(context, properties, desc, input, param, output, out, cache); });
}

cl_int api_create_clip(cl_context context, const cl_ml_op_properties_qcom* properties,
                       const cl_ml_op_clip_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                       cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_clip(context, properties, desc, input, output, out, cache); });
}

cl_int api_create_binary(cl_context context, const cl_ml_op_properties_qcom* properties,
                         const cl_ml_op_binary_desc_qcom* desc, cl_ml_tensor_qcom a, cl_ml_tensor_qcom b,
                         cl_ml_tensor_qcom c, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_binary(context, properties, desc, a, b, c, out, cache); });
}

cl_int api_create_fill(cl_context context, const cl_ml_op_properties_qcom* properties,
                       const cl_ml_op_fill_desc_qcom* desc, cl_ml_tensor_qcom tensor, cl_ml_op_qcom* out,
                       cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_fill(context, properties, desc, tensor, out, cache); });
}

cl_int api_create_batchnorm(cl_context context, const cl_ml_op_properties_qcom* properties,
                            const cl_ml_op_batchnorm_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom mean,
                            cl_ml_tensor_qcom variance, cl_ml_tensor_qcom scale, cl_ml_tensor_qcom bias,
                            cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] {
    return create_batchnorm(context, properties, desc, input, mean, variance, scale, bias, output, out, cache);
  });
}

}  // namespace tessera::clml
