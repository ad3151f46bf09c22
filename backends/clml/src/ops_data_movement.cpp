// ops_data_movement.cpp -- concat, permute, reshape, transpose, depth-to-space (plain and fused
// with an activation), pad and resize-bilinear: creators and kernels.
#include <numeric>
#include <sstream>

#include "api_guard.h"
#include "copy_kernels.h"
#include "op.h"
#include "program_sources.h"

namespace tessera::clml {

const char* const kMovementSource = R"CLC(
// Matrix transpose of packed row-major memory: in is m x n, out is n x m.
kernel void transpose2d(const global T* in, global T* out, int m, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if (i < m && j < n) ST(out, j * m + i, LD(in, i * n + j));
}

// DCR depth-to-space with optional activation (fn < 0: none).
kernel void depth_to_space(const global T* in, int8 ist, global T* out, int8 ost, int8 oshape,
                           int block, int fn, int nanp, const global T* param, int param_count,
                           int param_stride, float default_param) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), oshape, n, c, d, h, w);
  int bi = h % block, bj = w % block;
  int ic = (bi * block + bj) * oshape.s1 + c;
  real v = LD(in, off5(ist, n, ic, d, h / block, w / block));
  if (fn >= 0) {
    real p = param_count == 0 ? (real)default_param
                              : LD(param, (param_count == 1 ? 0 : c) * param_stride);
    v = activate(v, fn, p, nanp);
  }
  ST(out, off5(ost, n, c, d, h, w), v);
}

inline int pad_index(int i, int size, int mode) {
  if (mode == 1) {  // reflect (edge not repeated)
    if (size == 1) return 0;
    int period = 2 * (size - 1);
    i = i % period; if (i < 0) i += period;
    return i < size ? i : period - i;
  }
  if (mode == 2) {  // symmetric (edge repeated)
    int period = 2 * size;
    i = i % period; if (i < 0) i += period;
    return i < size ? i : period - 1 - i;
  }
  return clamp(i, 0, size - 1);  // edge
}

// pads = (left, right, top, bottom); mode follows cl_pad_mode_qcom.
kernel void pad_fwd(const global T* in, int8 ist, int8 ishape, global T* out, int8 ost,
                    int8 oshape, int4 pads, int mode, float value) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), oshape, n, c, d, h, w);
  int ih = h - pads.s2, iw = w - pads.s0;
  real v;
  if (ih >= 0 && ih < ishape.s3 && iw >= 0 && iw < ishape.s4) {
    v = LD(in, off5(ist, n, c, d, ih, iw));
  } else if (mode == 0) {
    v = (real)value;
  } else {
    v = LD(in, off5(ist, n, c, d, pad_index(ih, ishape.s3, mode), pad_index(iw, ishape.s4, mode)));
  }
  ST(out, off5(ost, n, c, d, h, w), v);
}

inline float source_coord(int o, float scale, int half_pixel) {
  return half_pixel ? ((float)o + 0.5f) * scale - 0.5f : (float)o * scale;
}

kernel void resize_bilinear(const global T* in, int8 ist, int8 ishape, global T* out, int8 ost,
                            int8 oshape, float sh, float sw, int half_pixel) {
  int n, c, d, h, w;
  UNRAVEL5(get_global_id(0), oshape, n, c, d, h, w);
  float fy = fmax(source_coord(h, sh, half_pixel), 0.0f);
  float fx = fmax(source_coord(w, sw, half_pixel), 0.0f);
  int y0 = min((int)floor(fy), ishape.s3 - 1), x0 = min((int)floor(fx), ishape.s4 - 1);
  int y1 = min(y0 + 1, ishape.s3 - 1), x1 = min(x0 + 1, ishape.s4 - 1);
  float dy = fy - (float)y0, dx = fx - (float)x0;
  float v00 = ldf(in, off5(ist, n, c, d, y0, x0)), v01 = ldf(in, off5(ist, n, c, d, y0, x1));
  float v10 = ldf(in, off5(ist, n, c, d, y1, x0)), v11 = ldf(in, off5(ist, n, c, d, y1, x1));
  float top = v00 + (v01 - v00) * dx, bottom = v10 + (v11 - v10) * dx;
  ST(out, off5(ost, n, c, d, h, w), top + (bottom - top) * dy);
}
)CLC";

namespace {

constexpr const char* kProgram = "movement";

std::string shape_text(const TensorInfo& info) {
  std::ostringstream s;
  s << info.dtype << ":" << info.shape[0] << "x" << info.shape[1] << "x" << info.shape[2] << "x" << info.shape[3] << "x"
    << info.shape[4] << "/" << info.layout;
  return s.str();
}

cl_int8 to_arg(const Shape5& v) {
  cl_int8 out{};
  for (int a = 0; a < 5; ++a) out.s[a] = static_cast<cl_int>(v[a]);
  return out;
}

KernelDispatch linear_dispatch(cl::Kernel kernel, const TensorInfo& out) {
  KernelDispatch d;
  d.kernel = std::move(kernel);
  d.global = cl::NDRange(static_cast<size_t>(out.elements()));
  d.local_candidates = local_candidates_1d(static_cast<size_t>(out.elements()));
  return d;
}

// Dispatch of copy_strided from slot `src` to a window of slot `dst`.
KernelDispatch copy_dispatch(OpBuilder& b, int src, const Shape5& src_strides, int dst, int dst_offset,
                             const Shape5& dst_strides, const Shape5& shape, cl_arithmetic_mode_qcom mode) {
  KernelConfig config = copy_config(b.info(src).dtype, b.info(dst).dtype);
  config.mode = mode;
  TensorInfo window = b.info(src);
  window.shape = shape;
  KernelDispatch d = linear_dispatch(b.kernel("copy", kCopyKernelSource, "copy_strided", config), window);
  b.bind(d, 0, src);
  d.kernel.setArg(1, 0);
  d.kernel.setArg(2, to_arg(src_strides));
  b.bind(d, 3, dst);
  d.kernel.setArg(4, dst_offset);
  d.kernel.setArg(5, to_arg(dst_strides));
  d.kernel.setArg(6, to_arg(shape));
  return d;
}

// Logical axis (n, c, d, h, w index) of a client axis number for a 4D or 5D tensor.
int logical_axis(cl_uint axis, bool five_d) {
  static const int four[4] = {kN, kC, kH, kW};
  static const int five[5] = {kN, kC, kD, kH, kW};
  return five_d ? five[axis] : four[axis];
}

cl_int create_concat(cl_context context, const cl_ml_op_properties_qcom* properties,
                     const cl_ml_op_concat_desc_qcom* desc, cl_ml_tensor_qcom* inputs, cl_ml_tensor_qcom output,
                     cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (inputs == nullptr || desc->num_input_tensors == 0 || desc->num_input_tensors > 4096 ||
      !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  TensorPtr to;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  const TensorInfo oi = to->logical();
  if (desc->axis > (oi.five_d ? 4u : 3u)) return CL_INVALID_VALUE;
  const int axis = logical_axis(desc->axis, oi.five_d);
  std::vector<TensorPtr> ins(desc->num_input_tensors);
  int64_t total = 0;
  for (cl_uint i = 0; i < desc->num_input_tensors; ++i) {
    if (cl_int err = b.require(inputs[i], ins[i]); err != CL_SUCCESS) return err;
    const TensorInfo ii = ins[i]->logical();
    if (ii.dtype != oi.dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
    for (int a = 0; a < 5; ++a)
      if (a != axis && ii.shape[a] != oi.shape[a]) return CL_INVALID_VALUE;
    total += ii.shape[axis];
  }
  if (total != oi.shape[axis]) return CL_INVALID_VALUE;
  const int so = b.add(to);
  int64_t offset = 0;
  std::ostringstream sig;
  sig << "concat" << axis << shape_text(b.info(so));
  for (const TensorPtr& t : ins) {
    const int si = b.add(t);
    const TensorInfo& ii = b.info(si);
    b.add_dispatch(copy_dispatch(b, si, ii.strides, so, static_cast<int>(offset * b.info(so).strides[axis]),
                                 b.info(so).strides, ii.shape, desc->arithmetic_mode));
    offset += ii.shape[axis];
    sig << "+" << ii.shape[axis];
  }
  return b.finish(sig.str());
}

cl_int create_permute(cl_context context, const cl_ml_op_properties_qcom* properties,
                      const cl_ml_op_permute_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                      cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (!is_valid_arithmetic_mode(desc->arithmetic_mode)) return CL_INVALID_VALUE;
  TensorPtr ti, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  const TensorInfo ii = ti->logical(), oi = to->logical();
  const cl_uint rank = ii.five_d ? 5 : 4;
  if (desc->len_order != rank || oi.five_d != ii.five_d) return CL_INVALID_VALUE;
  bool seen[5] = {false, false, false, false, false};
  for (cl_uint i = 0; i < rank; ++i) {
    if (desc->order[i] >= rank || seen[desc->order[i]]) return CL_INVALID_VALUE;
    seen[desc->order[i]] = true;
  }
  // Output axis i takes input axis order[i].
  for (cl_uint i = 0; i < rank; ++i)
    if (oi.shape[logical_axis(i, oi.five_d)] != ii.shape[logical_axis(desc->order[i], ii.five_d)])
      return CL_INVALID_VALUE;
  if (ii.dtype != oi.dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  const int si = b.add(ti), so = b.add(to);
  Shape5 src_strides{0, 0, 0, 0, 0};
  for (cl_uint i = 0; i < rank; ++i)
    src_strides[logical_axis(i, oi.five_d)] = b.info(si).strides[logical_axis(desc->order[i], ii.five_d)];
  b.add_dispatch(copy_dispatch(b, si, src_strides, so, 0, b.info(so).strides, b.info(so).shape, desc->arithmetic_mode));
  std::ostringstream sig;
  sig << "perm";
  for (cl_uint i = 0; i < rank; ++i) sig << desc->order[i];
  return b.finish(sig.str() + shape_text(b.info(so)));
}

cl_int create_reshape(cl_context context, const cl_ml_op_properties_qcom* properties, cl_ml_tensor_qcom input,
                      cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  static const int no_desc = 0;
  if (cl_int err = b.begin(context, properties, &no_desc, out, cache); err != CL_SUCCESS) return err;
  TensorPtr ti, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  if (ti->logical().elements() != to->logical().elements()) return CL_INVALID_VALUE;
  if (ti->logical().dtype != to->logical().dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  const int si = b.add(ti), so = b.add(to);
  KernelConfig config = copy_config(b.info(si).dtype, b.info(so).dtype);
  KernelDispatch d = linear_dispatch(b.kernel("copy", kCopyKernelSource, "reshape_copy", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  d.kernel.setArg(2, shape_arg(b.info(si)));
  b.bind(d, 3, so);
  d.kernel.setArg(4, strides_arg(b.info(so)));
  d.kernel.setArg(5, shape_arg(b.info(so)));
  b.add_dispatch(std::move(d));
  return b.finish("reshape" + shape_text(b.info(si)) + "->" + shape_text(b.info(so)));
}

cl_int create_transpose(cl_context context, const cl_ml_op_properties_qcom* properties,
                        const cl_ml_op_transpose_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                        cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (desc->m == 0 || desc->n == 0 || !is_valid_arithmetic_mode(desc->arithmetic_mode)) return CL_INVALID_VALUE;
  TensorPtr ti, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  if (ti->is_optimal() || to->is_optimal()) return CL_INVALID_VALUE;  // linear layouts only
  const TensorInfo ii = ti->info(), oi = to->info();
  int64_t mn = 0;
  if (!checked_mul(desc->m, desc->n, mn)) return CL_INVALID_VALUE;
  if (ii.elements() != mn || oi.elements() != mn) return CL_INVALID_VALUE;
  if (ii.dtype != oi.dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  // The matrix view is of raw memory: both tensors must be packed.
  if (static_cast<int64_t>(ii.bytes()) != mn * static_cast<int64_t>(ii.element_size()) ||
      static_cast<int64_t>(oi.bytes()) != mn * static_cast<int64_t>(oi.element_size()))
    return CL_ML_OP_NOT_ACCELERATED_QCOM;
  const int si = b.add(ti), so = b.add(to);
  KernelConfig config{ii.dtype, desc->arithmetic_mode, ""};
  KernelDispatch d;
  d.kernel = b.kernel(kProgram, kMovementSource, "transpose2d", config);
  d.global = cl::NDRange(round_up(desc->n, 8), round_up(desc->m, 8));
  d.local = cl::NDRange(8, 8);
  d.local_candidates = {cl::NDRange(8, 8), cl::NDRange(16, 8), cl::NDRange(8, 16), cl::NDRange(32, 8)};
  b.bind(d, 0, si);
  b.bind(d, 1, so);
  d.kernel.setArg(2, static_cast<cl_int>(desc->m));
  d.kernel.setArg(3, static_cast<cl_int>(desc->n));
  b.add_dispatch(std::move(d));
  return b.finish("transpose" + std::to_string(desc->m) + "x" + std::to_string(desc->n) + shape_text(ii));
}

cl_int create_depth_to_space(cl_context context, const cl_ml_op_properties_qcom* properties,
                             const cl_ml_op_depthtospace_desc_qcom* desc, const cl_ml_op_activation_desc_qcom* act,
                             cl_ml_tensor_qcom input, cl_ml_tensor_qcom param, cl_ml_tensor_qcom output,
                             cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache, bool fused) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (fused && (act == nullptr || !is_valid_activation(*act))) return CL_INVALID_VALUE;
  if (desc->block_dim == 0 || desc->block_dim > 4096 || !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  TensorPtr ti, tp, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.optional(param, tp); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  cl_channel_type dtype;
  if (cl_int err = b.same_dtype({&ti, &tp, &to}, dtype); err != CL_SUCCESS) return err;
  const TensorInfo ii = ti->logical(), oi = to->logical();
  const int64_t bs = desc->block_dim;
  if (ii.shape[kC] % (bs * bs) != 0 || oi.shape[kC] != ii.shape[kC] / (bs * bs) || oi.shape[kH] != ii.shape[kH] * bs ||
      oi.shape[kW] != ii.shape[kW] * bs || oi.shape[kN] != ii.shape[kN] || oi.shape[kD] != ii.shape[kD])
    return CL_INVALID_VALUE;
  int64_t count = 0;
  int stride = 0;
  if (tp) {
    if (!vector_layout(tp->logical(), count, stride) || (count != 1 && count != oi.shape[kC])) return CL_INVALID_VALUE;
  } else if (fused && act->function == CL_ACTIVATION_PRELU) {
    return CL_INVALID_VALUE;
  }
  const int si = b.add(ti), sp = b.add(tp), so = b.add(to);
  if (sp >= 0) vector_layout(b.info(sp), count, stride);
  KernelConfig config{dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = linear_dispatch(b.kernel(kProgram, kMovementSource, "depth_to_space", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  b.bind(d, 2, so);
  d.kernel.setArg(3, strides_arg(b.info(so)));
  d.kernel.setArg(4, shape_arg(b.info(so)));
  d.kernel.setArg(5, static_cast<cl_int>(bs));
  d.kernel.setArg(6, static_cast<cl_int>(fused ? act->function : -1));
  d.kernel.setArg(7, static_cast<cl_int>(fused ? act->nan_propagation : 0));
  b.bind(d, 8, sp);
  d.kernel.setArg(9, static_cast<cl_int>(sp >= 0 ? count : 0));
  d.kernel.setArg(10, static_cast<cl_int>(stride));
  d.kernel.setArg(11, fused && act->function == CL_ACTIVATION_LEAKY_RELU ? 0.01f : 1.0f);
  b.add_dispatch(std::move(d));
  return b.finish("d2s" + std::to_string(bs) + "a" + std::to_string(fused ? act->function : -1) +
                  shape_text(b.info(so)));
}

cl_int create_pad(cl_context context, const cl_ml_op_properties_qcom* properties, const cl_ml_op_pad_desc_qcom* desc,
                  cl_ml_tensor_qcom input, cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (desc->pad_mode < CL_PAD_MODE_CONSTANT_QCOM || desc->pad_mode > CL_PAD_MODE_EDGE_QCOM ||
      !is_valid_arithmetic_mode(desc->arithmetic_mode))
    return CL_INVALID_VALUE;
  for (int i = 0; i < 4; ++i)
    if (desc->paddings[i] > (1u << 20)) return CL_INVALID_VALUE;
  TensorPtr ti, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  const TensorInfo ii = ti->logical(), oi = to->logical();
  if (ii.dtype != oi.dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  const cl_uint* p = desc->paddings;  // left, right, top, bottom
  if (oi.shape[kN] != ii.shape[kN] || oi.shape[kC] != ii.shape[kC] || oi.shape[kD] != ii.shape[kD] ||
      oi.shape[kW] != ii.shape[kW] + p[0] + p[1] || oi.shape[kH] != ii.shape[kH] + p[2] + p[3])
    return CL_INVALID_VALUE;
  // Reflect needs the padding to be smaller than the extent, symmetric at most the extent.
  if (desc->pad_mode == CL_PAD_MODE_REFLECT_QCOM &&
      (p[0] >= ii.shape[kW] || p[1] >= ii.shape[kW] || p[2] >= ii.shape[kH] || p[3] >= ii.shape[kH]))
    return CL_INVALID_VALUE;
  if (desc->pad_mode == CL_PAD_MODE_SYMMETRIC_QCOM &&
      (p[0] > ii.shape[kW] || p[1] > ii.shape[kW] || p[2] > ii.shape[kH] || p[3] > ii.shape[kH]))
    return CL_INVALID_VALUE;
  const int si = b.add(ti), so = b.add(to);
  KernelConfig config{ii.dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = linear_dispatch(b.kernel(kProgram, kMovementSource, "pad_fwd", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  d.kernel.setArg(2, shape_arg(b.info(si)));
  b.bind(d, 3, so);
  d.kernel.setArg(4, strides_arg(b.info(so)));
  d.kernel.setArg(5, shape_arg(b.info(so)));
  cl_int4 pads{};
  for (int i = 0; i < 4; ++i) pads.s[i] = static_cast<cl_int>(p[i]);
  d.kernel.setArg(6, pads);
  d.kernel.setArg(7, static_cast<cl_int>(desc->pad_mode));
  d.kernel.setArg(8, b.properties().pad_constant);
  b.add_dispatch(std::move(d));
  return b.finish("pad" + std::to_string(desc->pad_mode) + shape_text(b.info(si)) + shape_text(b.info(so)));
}

cl_int create_resize(cl_context context, const cl_ml_op_properties_qcom* properties,
                     const cl_ml_op_resize_bilinear_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                     cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  OpBuilder b;
  if (cl_int err = b.begin(context, properties, desc, out, cache); err != CL_SUCCESS) return err;
  if (!is_valid_arithmetic_mode(desc->arithmetic_mode) || (desc->align_corners && desc->half_pixel_centers))
    return CL_INVALID_VALUE;
  TensorPtr ti, to;
  if (cl_int err = b.require(input, ti); err != CL_SUCCESS) return err;
  if (cl_int err = b.require(output, to); err != CL_SUCCESS) return err;
  const TensorInfo ii = ti->logical(), oi = to->logical();
  if (ii.dtype != oi.dtype) return CL_ML_OP_NOT_ACCELERATED_QCOM;
  if (oi.shape[kN] != ii.shape[kN] || oi.shape[kC] != ii.shape[kC] || oi.shape[kD] != ii.shape[kD])
    return CL_INVALID_VALUE;
  auto scale = [&](int64_t in, int64_t outn) {
    if (desc->align_corners) return outn > 1 ? static_cast<float>(in - 1) / static_cast<float>(outn - 1) : 0.0f;
    return static_cast<float>(in) / static_cast<float>(outn);
  };
  const int si = b.add(ti), so = b.add(to);
  KernelConfig config{ii.dtype, desc->arithmetic_mode, ""};
  KernelDispatch d = linear_dispatch(b.kernel(kProgram, kMovementSource, "resize_bilinear", config), b.info(so));
  b.bind(d, 0, si);
  d.kernel.setArg(1, strides_arg(b.info(si)));
  d.kernel.setArg(2, shape_arg(b.info(si)));
  b.bind(d, 3, so);
  d.kernel.setArg(4, strides_arg(b.info(so)));
  d.kernel.setArg(5, shape_arg(b.info(so)));
  d.kernel.setArg(6, scale(ii.shape[kH], oi.shape[kH]));
  d.kernel.setArg(7, scale(ii.shape[kW], oi.shape[kW]));
  d.kernel.setArg(8, static_cast<cl_int>(desc->half_pixel_centers ? 1 : 0));
  b.add_dispatch(std::move(d));
  return b.finish("resize" + std::to_string(desc->align_corners) + std::to_string(desc->half_pixel_centers) +
                  shape_text(b.info(si)) + shape_text(b.info(so)));
}

}  // namespace

cl_int api_create_concat(cl_context context, const cl_ml_op_properties_qcom* properties,
                         const cl_ml_op_concat_desc_qcom* desc, cl_ml_tensor_qcom* inputs, cl_ml_tensor_qcom output,
                         cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_concat(context, properties, desc, inputs, output, out, cache); });
}
cl_int api_create_permute(cl_context context, const cl_ml_op_properties_qcom* properties,
                          const cl_ml_op_permute_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                          cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_permute(context, properties, desc, input, output, out, cache); });
}
cl_int api_create_reshape(cl_context context, const cl_ml_op_properties_qcom* properties, cl_ml_tensor_qcom input,
                          cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_reshape(context, properties, input, output, out, cache); });
}
cl_int api_create_transpose(cl_context context, const cl_ml_op_properties_qcom* properties,
                            const cl_ml_op_transpose_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                            cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_transpose(context, properties, desc, input, output, out, cache); });
}
cl_int api_create_depth_to_space(cl_context context, const cl_ml_op_properties_qcom* properties,
                                 const cl_ml_op_depthtospace_desc_qcom* desc, cl_ml_tensor_qcom input,
                                 cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] {
    return create_depth_to_space(context, properties, desc, nullptr, input, nullptr, output, out, cache, false);
  });
}
cl_int api_create_depth_to_space_activation(cl_context context, const cl_ml_op_properties_qcom* properties,
                                            const cl_ml_op_depthtospace_desc_qcom* desc,
                                            const cl_ml_op_activation_desc_qcom* act, cl_ml_tensor_qcom input,
                                            cl_ml_tensor_qcom param, cl_ml_tensor_qcom output, cl_ml_op_qcom* out,
                                            cl_ml_tuningcache_qcom cache) {
  return guarded(
      [&] { return create_depth_to_space(context, properties, desc, act, input, param, output, out, cache, true); });
}
cl_int api_create_pad(cl_context context, const cl_ml_op_properties_qcom* properties,
                      const cl_ml_op_pad_desc_qcom* desc, cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                      cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_pad(context, properties, desc, input, output, out, cache); });
}
cl_int api_create_resize_bilinear(cl_context context, const cl_ml_op_properties_qcom* properties,
                                  const cl_ml_op_resize_bilinear_desc_qcom* desc, cl_ml_tensor_qcom input,
                                  cl_ml_tensor_qcom output, cl_ml_op_qcom* out, cl_ml_tuningcache_qcom cache) {
  return guarded([&] { return create_resize(context, properties, desc, input, output, out, cache); });
}

}  // namespace tessera::clml
