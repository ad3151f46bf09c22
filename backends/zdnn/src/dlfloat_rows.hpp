// Vectorised conversions between binary32 rows and DLFLOAT16 sticks (AVX2 and baseline clones).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::zdnn {

// Converts `count` floats; returns true when any became NINF (NaN, infinity or overflow). With
// `saturate`, finite values beyond the DLFLOAT16 range are clamped to +-8573157376 first.
bool fp32_row_to_dlf16(const float* src, uint16_t* dst, size_t count, bool saturate);

// Fills `sticks` consecutive 64-cell sticks from rows of `count` (<= 64) floats spaced
// `src_stride` floats apart; cells past `count` are left untouched. Returns true on any NINF.
bool fp32_rows_to_sticks(const float* src, size_t src_stride, uint16_t* dst, size_t sticks, uint32_t count,
                         bool saturate);
// Like fp32_rows_to_sticks but writes `padded_sticks` whole sticks (cells past `count` and sticks
// past `sticks` zeroed) with non-temporal stores, for outputs much larger than the caches. Call
// store_fence() after the last one.
bool fp32_rows_to_sticks_streaming(const float* src, size_t src_stride, uint16_t* dst, size_t sticks,
                                   size_t padded_sticks, uint32_t count, bool saturate);
void store_fence();
// The reverse: the first `count` cells of `sticks` consecutive sticks into rows `dst_stride` apart.
// NINF cells become NaN; returns true when there was any.
bool sticks_to_fp32_rows(const uint16_t* src, float* dst, size_t dst_stride, size_t sticks, uint32_t count);

}  // namespace tessera::zdnn
