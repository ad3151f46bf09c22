// zdnn_transform_quantized_ztensor: QUANTIZED_DLFLOAT16 (plain DLFLOAT16, optional saturation),
// QUANTIZED_INT8 (floats: q = clamp(round(x / scale + offset), clip_min, clip_max); INT8 data copied
// as is; 128-cell int8 sticks) and QUANTIZED_WEIGHTS_INT8 (int8 copied into the interleaved
// 4DWEIGHTS format).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common.hpp"
#include "descriptors.hpp"
#include "element_io.hpp"
#include "status.hpp"
#include "stick_layout.hpp"
#include "tensor_checks.hpp"

using namespace tessera::zdnn;

static zdnn_status zdnn_transform_quantized_ztensor_impl(zdnn_ztensor* t, bool saturation_control, int8_t clip_min,
                                                         int8_t clip_max, const void* data) {
  static constexpr const char* where = "zdnn_transform_quantized_ztensor";
  if (!has_descriptors(t)) return report(ZDNN_INVALID_BUFFER, where, "NULL ztensor or descriptor");
  const zdnn_tensor_desc& pre = *t->pre_transformed_desc;
  const zdnn_tensor_desc& tf = *t->transformed_desc;
  if (t->is_transformed) return report(ZDNN_INVALID_STATE, where);
  if (tf.format != ZDNN_FORMAT_4DFEATURE && tf.format != ZDNN_FORMAT_4DWEIGHTS)
    return report(ZDNN_INVALID_FORMAT, where);
  if (!quantizable_layout(pre.layout)) return report(ZDNN_INVALID_LAYOUT, where);
  if (tf.layout != ZDNN_NHWC) return report(ZDNN_INVALID_LAYOUT, where);
  const bool weights = tf.format == ZDNN_FORMAT_4DWEIGHTS;
  if (tf.type == ZDNN_DLFLOAT16) {
    if (weights || !is_pre_transformed_float_type(pre.type)) return report(ZDNN_INVALID_TYPE, where);
  } else if (tf.type == ZDNN_BINARY_INT8) {
    if (weights ? pre.type != INT8 : (pre.type != INT8 && !is_pre_transformed_float_type(pre.type)))
      return report(ZDNN_INVALID_TYPE, where);
  } else {
    return report(ZDNN_INVALID_TYPE, where);
  }
  if (zdnn_status s = check_transformed_desc(&tf); s != ZDNN_OK) return report(s, where);
  if (!dims_consistent(pre, tf)) return report(ZDNN_INVALID_SHAPE, where, "descriptors disagree");
  if (zdnn_status s = check_buffer(t); s != ZDNN_OK) return report(s, where);
  // INT8 data is copied as is (to QUANTIZED_INT8 and QUANTIZED_WEIGHTS_INT8): neither the clip
  // range nor the scale/offset apply to it.
  const bool int8_source = pre.type == INT8;
  if (tf.type == ZDNN_BINARY_INT8 && !int8_source && clip_min >= clip_max)
    return report(ZDNN_INVALID_CLIPPING_VALUE, where);
  if (!int8_source && (!std::isfinite(t->rec_scale) || t->rec_scale == 0.0f || !std::isfinite(t->offset)))
    return report(ZDNN_FUNC_RC_F001, where, "scale or offset non-numeric or scale zero");
  if (!data) return report(ZDNN_INVALID_BUFFER, where, "NULL data");
  if (tf.type == ZDNN_DLFLOAT16) {
    return (saturation_control && pre.type == FP32) ? zdnn_transform_ztensor_with_saturation(t, data)
                                                    : zdnn_transform_ztensor(t, data);
  }
  auto* base = static_cast<unsigned char*>(t->buffer);
  std::memset(base, 0, transformed_size_bytes(tf));
  const FeatureGeometry g = feature_geometry(tf);
  uint64_t index = 0;
  for (uint32_t n = 0; n < tf.dim4; ++n)
    for (uint32_t h = 0; h < tf.dim3; ++h)
      for (uint32_t w = 0; w < tf.dim2; ++w)
        for (uint32_t c = 0; c < tf.dim1; ++c, ++index) {
          int8_t q;
          if (pre.type == INT8) {
            q = static_cast<const int8_t*>(data)[index];
          } else {
            const float scaled = std::nearbyint(load_element(data, index, pre.type) * t->rec_scale + t->offset);
            q = static_cast<int8_t>(std::clamp(std::isnan(scaled) ? 0.0f : scaled, static_cast<float>(clip_min),
                                               static_cast<float>(clip_max)));
          }
          base[weights ? weights_offset(tf, n, h, w, c) : g.offset(n, h, w, c)] = static_cast<unsigned char>(q);
        }
  t->is_transformed = true;
  return ZDNN_OK;
}

extern "C" zdnn_status zdnn_transform_quantized_ztensor(zdnn_ztensor* t, bool saturation_control, int8_t clip_min,
                                                        int8_t clip_max, const void* data) {
  return guarded("zdnn_transform_quantized_ztensor", [&] {
    return zdnn_transform_quantized_ztensor_impl(t, saturation_control, clip_min, clip_max, data);
  });
}
