// Validation of descriptors and ztensors shared by the API functions; each check returns the
// status the spec prescribes (ZDNN_OK when the check passes).
#pragma once

#include "common.hpp"

namespace tessera::zdnn {

inline constexpr uint32_t kMaxDimIndexSize = 32768;
inline constexpr uint64_t kMaxTensorBytes = 4ull << 30;

// Format, type, layout, dims (non-zero, <= MDIS) and total size (<= MTS) of a transformed desc.
zdnn_status check_transformed_desc(const zdnn_tensor_desc* tfrmd);
// Buffer is non-NULL, 4K aligned and large enough for the transformed desc.
zdnn_status check_buffer(const zdnn_ztensor* t);
// Non-NULL ztensor with descriptors.
bool has_descriptors(const zdnn_ztensor* t);

// True when all four transformed dims agree.
bool same_dims(const zdnn_tensor_desc& a, const zdnn_tensor_desc& b);

// Common checks for a DLFLOAT16 4DFEATURE operand of an operation: descriptors present, buffer
// usable, type DLFLOAT16 (INVALID_TYPE), format 4DFEATURE (INVALID_FORMAT), dims sane
// (INVALID_SHAPE).
zdnn_status check_dlfloat_operand(const zdnn_ztensor* t);

}  // namespace tessera::zdnn
