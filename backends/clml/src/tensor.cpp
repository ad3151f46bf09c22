// tensor.cpp -- tensor creation, layout/stride computation, finalisation, size query, release.
#include "tensor.h"

#include <limits>

#include "api_functions.h"
#include "api_guard.h"
#include "handle_registry.h"

namespace tessera::clml {

size_t element_size_of(cl_channel_type dtype) {
  switch (dtype) {
  case CL_FLOAT: return 4;
  case CL_HALF_FLOAT: return 2;
  case CL_SIGNED_INT8: return 1;
  default: return 0;
  }
}

bool is_supported_dtype(cl_channel_type dtype) {
  return element_size_of(dtype) != 0;
}

size_t TensorInfo::element_size() const {
  return element_size_of(dtype);
}

size_t TensorInfo::bytes() const {
  if (unused) return 0;
  int64_t last = 0;
  for (int a = 0; a < 5; ++a) last += (shape[a] - 1) * strides[a];
  return static_cast<size_t>(last + 1) * element_size();
}

bool TensorInfo::is_packed(cl_tensor_layout_qcom layout) const {
  return same_memory_order(shape, strides, packed_strides(shape, layout));
}

bool same_memory_order(const Shape5& shape, const Shape5& a, const Shape5& b) {
  for (int axis = 0; axis < 5; ++axis)
    if (shape[axis] > 1 && a[axis] != b[axis]) return false;
  return true;
}

Shape5 packed_strides(const Shape5& s, cl_tensor_layout_qcom layout) {
  Shape5 st{};
  if (layout == CL_TENSOR_LAYOUT_NHWC_QCOM) {
    st[kC] = 1;
    st[kW] = s[kC];
    st[kH] = s[kW] * st[kW];
    st[kD] = s[kH] * st[kH];
    st[kN] = s[kD] * st[kD];
  } else {
    st[kW] = 1;
    st[kH] = s[kW];
    st[kD] = s[kH] * st[kH];
    st[kC] = s[kD] * st[kD];
    st[kN] = s[kC] * st[kC];
  }
  return st;
}

namespace {
// Limit that keeps every element offset inside a signed 32-bit kernel index.
constexpr int64_t kMaxTensorBytes = std::numeric_limits<int32_t>::max();
}  // namespace

cl_int Tensor::create(cl_context context, const cl_ml_tensor_properties_qcom* properties,
                      const cl_ml_tensor_desc_qcom* desc, std::shared_ptr<Tensor>& out) {
  if (desc == nullptr) return CL_INVALID_VALUE;
  // No tensor property keys are defined by V1: only an empty list is accepted.
  if (properties != nullptr && properties[0] != 0) return CL_INVALID_VALUE;
  auto tensor = std::make_shared<Tensor>();
  tensor->context_ = context;
  if (desc->num_dimensions == CL_TENSOR_UNUSED_QCOM) {
    tensor->unused_ = true;
    tensor->finalized_ = true;
    tensor->info_.unused = true;
    out = std::move(tensor);
    return CL_SUCCESS;
  }
  if (desc->num_dimensions != CL_TENSOR_DIMENSIONS_4D_QCOM && desc->num_dimensions != CL_TENSOR_DIMENSIONS_5D_QCOM)
    return CL_INVALID_VALUE;
  if (!is_supported_dtype(desc->data_type)) return CL_INVALID_VALUE;
  if (desc->layout != CL_TENSOR_LAYOUT_OPTIMAL_QCOM && desc->layout != CL_TENSOR_LAYOUT_NCHW_QCOM &&
      desc->layout != CL_TENSOR_LAYOUT_NHWC_QCOM)
    return CL_INVALID_VALUE;
  const bool five_d = desc->num_dimensions == CL_TENSOR_DIMENSIONS_5D_QCOM;
  if (desc->n == 0 || desc->c == 0 || desc->h == 0 || desc->w == 0 || (five_d && desc->d == 0)) return CL_INVALID_VALUE;
  TensorInfo& info = tensor->info_;
  info.five_d = five_d;
  info.dtype = desc->data_type;
  info.shape = {desc->n, desc->c, five_d ? desc->d : 1u, desc->h, desc->w};
  const size_t esize = element_size_of(desc->data_type);
  int64_t total = esize;
  for (int64_t extent : info.shape) {
    total *= extent;
    if (total > kMaxTensorBytes) return CL_INVALID_VALUE;
  }
  tensor->requested_layout_ = desc->layout;
  // desc->stride is indexed n, c, h, w, d (the order of the size fields).
  const bool has_strides =
      desc->stride[0] || desc->stride[1] || desc->stride[2] || desc->stride[3] || (five_d && desc->stride[4]);
  if (has_strides) {
    if (desc->layout == CL_TENSOR_LAYOUT_OPTIMAL_QCOM) return CL_INVALID_VALUE;
    const int field_of_axis[5] = {0, 1, 4, 2, 3};
    for (int a = 0; a < 5; ++a) {
      if (a == kD && !five_d) {
        info.strides[a] = 0;
        continue;
      }
      const int64_t bytes = desc->stride[field_of_axis[a]];
      if (bytes <= 0 || bytes % static_cast<int64_t>(esize) != 0) return CL_INVALID_VALUE;
      info.strides[a] = bytes / static_cast<int64_t>(esize);
    }
    if (static_cast<int64_t>(info.bytes()) > kMaxTensorBytes) return CL_INVALID_VALUE;
    info.layout = desc->layout;
    tensor->finalized_ = true;
  } else if (desc->layout != CL_TENSOR_LAYOUT_OPTIMAL_QCOM) {
    info.layout = desc->layout;
    info.strides = packed_strides(info.shape, desc->layout);
    tensor->finalized_ = true;
  }
  out = std::move(tensor);
  return CL_SUCCESS;
}

bool Tensor::finalized() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return finalized_;
}

TensorInfo Tensor::finalize(cl_tensor_layout_qcom preferred) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!finalized_) {
    info_.layout = preferred;
    info_.strides = packed_strides(info_.shape, preferred);
    finalized_ = true;
  }
  return info_;
}

TensorInfo Tensor::finalize_strided(const Shape5& strides, cl_tensor_layout_qcom tag) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!finalized_) {
    info_.layout = tag;
    info_.strides = strides;
    finalized_ = true;
  }
  return info_;
}

TensorInfo Tensor::info() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return info_;
}

TensorInfo Tensor::logical() const {
  return info();
}

TensorPtr find_tensor(cl_ml_tensor_qcom handle) {
  return HandleRegistry<Tensor>::instance().find(handle);
}

// ------------------------------------------------------------------ API entry points

cl_int api_create_tensor(cl_context context, const cl_ml_tensor_properties_qcom* properties,
                         const cl_ml_tensor_desc_qcom* desc, cl_ml_tensor_qcom* out) {
  return guarded([&]() -> cl_int {
    if (cl_int err = validate_context(context); err != CL_SUCCESS) return err;
    if (out == nullptr) return CL_INVALID_VALUE;
    TensorPtr tensor;
    if (cl_int err = Tensor::create(context, properties, desc, tensor); err != CL_SUCCESS) return err;
    *out = HandleRegistry<Tensor>::instance().add<cl_ml_tensor_qcom>(std::move(tensor));
    return CL_SUCCESS;
  });
}

cl_int api_create_tensor_with_usage(cl_context context, const cl_ml_tensor_properties_qcom* properties,
                                    const cl_ml_tensor_desc_qcom* desc, cl_ml_tensor_usage_qcom usage,
                                    cl_ml_tensor_qcom* out) {
  // The usage is a hint for a vendor's memory placement; here every tensor is laid out by the ops
  // that use it, so a valid usage changes nothing.
  if (usage < CL_TENSOR_USAGE_UNUSED_QCOM || usage > CL_TENSOR_USAGE_TNN_QCOM) return CL_INVALID_VALUE;
  return api_create_tensor(context, properties, desc, out);
}

cl_int api_get_tensor_memory_size(cl_context context, cl_ml_tensor_qcom handle, cl_uint* size) {
  return guarded([&]() -> cl_int {
    if (cl_int err = validate_context(context); err != CL_SUCCESS) return err;
    TensorPtr tensor = find_tensor(handle);
    if (!tensor || size == nullptr || !tensor->finalized()) return CL_INVALID_VALUE;
    if (tensor->context() != context) return CL_INVALID_CONTEXT;
    *size = static_cast<cl_uint>(tensor->info().bytes());
    return CL_SUCCESS;
  });
}

cl_int api_release_tensor(cl_ml_tensor_qcom handle) {
  return guarded(
      [&]() -> cl_int { return HandleRegistry<Tensor>::instance().remove(handle) ? CL_SUCCESS : CL_INVALID_VALUE; });
}

}  // namespace tessera::clml
