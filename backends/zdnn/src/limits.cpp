// zdnn_get_max_limit / zdnn_get_min_limit (largest/smallest value representable in both a
// transformed and a pre-transformed type) and zdnn_getrange_ztensor.
#include <algorithm>
#include <cstring>
#include <limits>

#include "common.hpp"
#include "dense_io.hpp"
#include "dlfloat16.hpp"
#include "status.hpp"
#include "tensor_checks.hpp"

using namespace tessera::zdnn;

namespace {

// Writes `value` (already within range) in the pre-transformed type.
zdnn_status store_limit(zdnn_data_types pre_type, double value, void* limit) {
  switch (pre_type) {
  case FP32: {
    const float v = static_cast<float>(value);
    std::memcpy(limit, &v, 4);
    return ZDNN_OK;
  }
  case FP16: {
    const uint16_t v = fp32_to_fp16(static_cast<float>(value));
    std::memcpy(limit, &v, 2);
    return ZDNN_OK;
  }
  case BFLOAT: {
    const uint16_t v = fp32_to_bf16_truncated(static_cast<float>(value));  // 8573157376 -> 0x4FFF
    std::memcpy(limit, &v, 2);
    return ZDNN_OK;
  }
  case INT8: {
    const int8_t v = static_cast<int8_t>(value);
    std::memcpy(limit, &v, 1);
    return ZDNN_OK;
  }
  case INT32: {
    const int32_t v = static_cast<int32_t>(value);
    std::memcpy(limit, &v, 4);
    return ZDNN_OK;
  }
  default: return ZDNN_INVALID_TYPE;
  }
}

zdnn_status limit(zdnn_data_types transformed, zdnn_data_types pre, bool maximum, void* out, const char* where) {
  if (!out) return report(ZDNN_INVALID_BUFFER, where, "NULL limit");
  double value;
  switch (transformed) {
  case ZDNN_DLFLOAT16:
    if (pre == FP32 || pre == BFLOAT)
      value = kDlfMax;  // 0x7FFE is exact in binary32 and bfloat16
    else if (pre == FP16)
      value = 65504.0;  // binary16 is the narrower one
    else
      return report(ZDNN_INVALID_TYPE, where);
    break;
  case ZDNN_BINARY_INT8:
    if (!is_pre_transformed_type(pre) || pre == INT32) return report(ZDNN_INVALID_TYPE, where);
    value = maximum ? 127.0 : -128.0;
    return report(store_limit(pre, value, out), where);
  case ZDNN_BINARY_INT32:  // only INT32 data is transformed to BINARY_INT32 cells
    if (pre != INT32) return report(ZDNN_INVALID_TYPE, where);
    return report(store_limit(pre, maximum ? 2147483647.0 : -2147483648.0, out), where);
  default: return report(ZDNN_INVALID_TYPE, where);
  }
  return report(store_limit(pre, maximum ? value : -value, out), where);
}

}  // namespace

extern "C" {

zdnn_status zdnn_get_max_limit(zdnn_data_types transformed_type, zdnn_data_types pre_transformed_type,
                               void* limit_out) {
  return limit(transformed_type, pre_transformed_type, true, limit_out, "zdnn_get_max_limit");
}

zdnn_status zdnn_get_min_limit(zdnn_data_types transformed_type, zdnn_data_types pre_transformed_type,
                               void* limit_out) {
  return limit(transformed_type, pre_transformed_type, false, limit_out, "zdnn_get_min_limit");
}

zdnn_status zdnn_getrange_ztensor(const zdnn_ztensor* ztensor, float* min, float* max) {
  static constexpr const char* where = "zdnn_getrange_ztensor";
  if (!min || !max) return report(ZDNN_INVALID_BUFFER, where, "NULL min or max");
  if (zdnn_status s = check_dlfloat_operand(ztensor); s != ZDNN_OK) return report(s, where);
  if (!ztensor->is_transformed) return report(ZDNN_INVALID_STATE, where, "not transformed");
  return guarded(where, [&] {
    const DenseTensor values = load_dense(*ztensor);
    float lo = -0.0f, hi = 0.0f;
    for (float v : values.data) {
      if (v != v) return report(ZDNN_CONVERT_FAILURE, where, "tensor holds NINF");
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    *min = lo;
    *max = hi;
    return ZDNN_OK;
  });
}

}  // extern "C"
