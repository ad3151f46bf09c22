// Descriptor and ztensor validation helpers.
#include "tensor_checks.hpp"

#include "stick_layout.hpp"

namespace tessera::zdnn {

zdnn_status check_transformed_desc(const zdnn_tensor_desc* d) {
  if (!d) return ZDNN_INVALID_BUFFER;
  if (!is_known_format(d->format) || d->format == ZDNN_FORMAT_4DGENERIC) return ZDNN_INVALID_FORMAT;
  if (!is_transformed_type(d->type) || d->type == ZDNN_BINARY_FP32) return ZDNN_INVALID_TYPE;
  if (!is_transformed_layout(d->layout)) return ZDNN_INVALID_LAYOUT;
  const uint32_t dims[4] = {d->dim4, d->dim3, d->dim2, d->dim1};
  for (uint32_t v : dims)
    if (v == 0 || v > kMaxDimIndexSize) return ZDNN_INVALID_SHAPE;
  if (transformed_size_bytes(*d) > kMaxTensorBytes) return ZDNN_INVALID_SHAPE;
  return ZDNN_OK;
}

zdnn_status check_buffer(const zdnn_ztensor* t) {
  if (!t->buffer || (reinterpret_cast<uintptr_t>(t->buffer) % kPageBytes) != 0) return ZDNN_INVALID_BUFFER;
  if (t->buffer_size < transformed_size_bytes(*t->transformed_desc)) return ZDNN_INVALID_BUFFER;
  return ZDNN_OK;
}

bool has_descriptors(const zdnn_ztensor* t) {
  return t && t->pre_transformed_desc && t->transformed_desc;
}

bool same_dims(const zdnn_tensor_desc& a, const zdnn_tensor_desc& b) {
  return a.dim4 == b.dim4 && a.dim3 == b.dim3 && a.dim2 == b.dim2 && a.dim1 == b.dim1;
}

zdnn_status check_dlfloat_operand(const zdnn_ztensor* t) {
  if (!has_descriptors(t)) return ZDNN_INVALID_BUFFER;
  const zdnn_tensor_desc& d = *t->transformed_desc;
  if (d.type != ZDNN_DLFLOAT16) return ZDNN_INVALID_TYPE;
  if (d.format != ZDNN_FORMAT_4DFEATURE) return ZDNN_INVALID_FORMAT;
  if (zdnn_status s = check_transformed_desc(&d); s != ZDNN_OK) return s;
  return check_buffer(t);
}

}  // namespace tessera::zdnn
