// Vectorised row conversions between binary32 and DLFLOAT16 sticks (AVX2 and baseline clones).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::zdnn {

// Converts `count` floats; returns true when any became NINF (NaN, infinity or overflow). With
// `saturate`, finite values beyond the DLFLOAT16 range are clamped to +-8573157376 first.
bool fp32_row_to_dlf16(const float* src, uint16_t* dst, size_t count, bool saturate);
// Converts `count` DLFLOAT16 cells to binary32 (NINF becomes NaN).
void dlf16_row_to_fp32(const uint16_t* src, float* dst, size_t count);

}  // namespace tessera::zdnn
