// tensor.h -- CLML tensor objects: descriptor validation, physical layout (element strides) and
// the OPTIMAL-layout finalisation rule (an OPTIMAL tensor has no size until an op first uses it).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "cl_config.h"

namespace tessera::clml {

// Logical axis order used everywhere inside the backend: n, c, d, h, w (d = 1 for 4D tensors).
enum Axis : int { kN = 0, kC = 1, kD = 2, kH = 3, kW = 4 };
using Shape5 = std::array<int64_t, 5>;

// Resolved view of a tensor: what kernels need. Copied into ops when they are created.
struct TensorInfo {
  bool unused = false;
  bool five_d = false;
  cl_channel_type dtype = CL_FLOAT;
  cl_tensor_layout_qcom layout = CL_TENSOR_LAYOUT_NCHW_QCOM;  // physical layout once finalised
  Shape5 shape{1, 1, 1, 1, 1};
  Shape5 strides{0, 0, 0, 0, 0};  // in elements

  int64_t elements() const { return shape[0] * shape[1] * shape[2] * shape[3] * shape[4]; }
  size_t element_size() const;
  // Bytes needed to back the tensor (highest addressed element + 1).
  size_t bytes() const;
  // True when memory order equals the logical n,c,d,h,w row-major order with no gaps.
  bool is_packed_nchw() const { return is_packed(CL_TENSOR_LAYOUT_NCHW_QCOM); }
  // True when memory order equals packed `layout` order (strides of extent-1 axes ignored).
  bool is_packed(cl_tensor_layout_qcom layout) const;
  bool same_shape(const TensorInfo& other) const { return shape == other.shape; }
};

// a * b without overflow: false (and `out` untouched) when the product does not fit int64_t.
inline bool checked_mul(int64_t a, int64_t b, int64_t& out) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return false;
  out = product;
  return true;
}

size_t element_size_of(cl_channel_type dtype);
bool is_supported_dtype(cl_channel_type dtype);
// Packed strides of a shape in NCHW (NCDHW) or NHWC (NDHWC) order.
Shape5 packed_strides(const Shape5& shape, cl_tensor_layout_qcom layout);
// True when two stride sets address the elements of `shape` identically.
bool same_memory_order(const Shape5& shape, const Shape5& a, const Shape5& b);

class Tensor {
 public:
  // Validates the descriptor; returns CL_SUCCESS and the tensor, or an error code.
  static cl_int create(cl_context context, const cl_ml_tensor_properties_qcom* properties,
                       const cl_ml_tensor_desc_qcom* desc, std::shared_ptr<Tensor>& out);

  cl_context context() const { return context_; }
  bool unused() const { return unused_; }
  bool is_optimal() const { return requested_layout_ == CL_TENSOR_LAYOUT_OPTIMAL_QCOM; }
  bool finalized() const;
  // Fixes the physical layout of an OPTIMAL tensor (no-op for linear ones) and returns the info.
  TensorInfo finalize(cl_tensor_layout_qcom preferred = CL_TENSOR_LAYOUT_NCHW_QCOM);
  // Fixes an OPTIMAL tensor to explicit element strides (a permutation of packed axes, e.g.
  // convolution weights with output channels innermost); `tag` names it in op signatures.
  TensorInfo finalize_strided(const Shape5& strides, cl_tensor_layout_qcom tag);
  // The resolved info; only meaningful once finalized().
  TensorInfo info() const;
  // Shape and dtype, available before finalisation.
  TensorInfo logical() const;

 private:
  cl_context context_ = nullptr;
  bool unused_ = false;
  cl_tensor_layout_qcom requested_layout_ = CL_TENSOR_LAYOUT_NCHW_QCOM;
  mutable std::mutex mutex_;
  bool finalized_ = false;
  TensorInfo info_;
};

using TensorPtr = std::shared_ptr<Tensor>;

// Resolves a client handle: nullptr when it is not a live tensor.
TensorPtr find_tensor(cl_ml_tensor_qcom handle);

}  // namespace tessera::clml
