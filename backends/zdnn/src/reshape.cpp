// zdnn_reshape_ztensor: copies cells between two transformed NHWC (or HWCK) tensors holding the same
// number of elements, in row-major element order, without changing their values.
#include <cstring>

#include "common.hpp"
#include "status.hpp"
#include "stick_layout.hpp"
#include "tensor_checks.hpp"

using namespace tessera::zdnn;

namespace {

// Byte offset of the i-th element (row-major over transformed dims).
uint64_t cell_offset(const zdnn_tensor_desc& d, uint64_t i) {
  const uint32_t c = static_cast<uint32_t>(i % d.dim1);
  i /= d.dim1;
  const uint32_t w = static_cast<uint32_t>(i % d.dim2);
  i /= d.dim2;
  const uint32_t h = static_cast<uint32_t>(i % d.dim3);
  const uint32_t n = static_cast<uint32_t>(i / d.dim3);
  if (d.format == ZDNN_FORMAT_4DKERNEL) return kernel_offset(d, n, h, w, c);
  return feature_geometry(d).offset(n, h, w, c);
}

}  // namespace

static zdnn_status zdnn_reshape_ztensor_impl(const zdnn_ztensor* src, zdnn_ztensor* dest) {
  static constexpr const char* where = "zdnn_reshape_ztensor";
  if (!has_descriptors(src) || !has_descriptors(dest)) return report(ZDNN_INVALID_BUFFER, where, "NULL ztensor");
  const zdnn_tensor_desc& sd = *src->transformed_desc;
  const zdnn_tensor_desc& dd = *dest->transformed_desc;
  const uint64_t count = static_cast<uint64_t>(sd.dim4) * sd.dim3 * sd.dim2 * sd.dim1;
  if (count != static_cast<uint64_t>(dd.dim4) * dd.dim3 * dd.dim2 * dd.dim1) return report(ZDNN_INVALID_SHAPE, where);
  if (zdnn_status s = check_transformed_desc(&dd); s == ZDNN_INVALID_SHAPE) return report(s, where);
  if (sd.layout != dd.layout || (sd.layout != ZDNN_NHWC && sd.layout != ZDNN_HWCK) ||
      !is_pre_transformed_layout(src->pre_transformed_desc->layout) ||
      !is_pre_transformed_layout(dest->pre_transformed_desc->layout))
    return report(ZDNN_INVALID_LAYOUT, where);
  if (!src->is_transformed) return report(ZDNN_INVALID_STATE, where, "src not transformed");
  if (dest->is_transformed) return report(ZDNN_INVALID_STATE, where, "dest already transformed");
  const zdnn_data_formats expected = sd.layout == ZDNN_HWCK ? ZDNN_FORMAT_4DKERNEL : ZDNN_FORMAT_4DFEATURE;
  if (sd.format != expected || dd.format != expected) return report(ZDNN_INVALID_FORMAT, where);
  if (!is_pre_transformed_type(src->pre_transformed_desc->type) ||
      !is_pre_transformed_type(dest->pre_transformed_desc->type) || sd.type != ZDNN_DLFLOAT16 ||
      dd.type != ZDNN_DLFLOAT16)
    return report(ZDNN_INVALID_TYPE, where);
  if (zdnn_status s = check_transformed_desc(&sd); s != ZDNN_OK) return report(s, where);
  if (zdnn_status s = check_buffer(src); s != ZDNN_OK) return report(s, where);
  if (zdnn_status s = check_buffer(dest); s != ZDNN_OK) return report(s, where);
  const auto* from = static_cast<const unsigned char*>(src->buffer);
  auto* to = static_cast<unsigned char*>(dest->buffer);
  std::memset(to, 0, transformed_size_bytes(dd));
  for (uint64_t i = 0; i < count; ++i) std::memcpy(to + cell_offset(dd, i), from + cell_offset(sd, i), 2);
  dest->is_transformed = true;
  return ZDNN_OK;
}

extern "C" zdnn_status zdnn_reshape_ztensor(const zdnn_ztensor* src, zdnn_ztensor* dest) {
  return guarded("zdnn_reshape_ztensor", [&] { return zdnn_reshape_ztensor_impl(src, dest); });
}
