// Shared internal vocabulary of the zDNN emulator: constants of the zAIU stick format and small
// helpers on the public descriptor enums.
#pragma once

#include <zdnn.h>

#include <cstddef>
#include <cstdint>

namespace tessera::zdnn {

inline constexpr uint64_t kPageBytes = 4096;
inline constexpr uint64_t kStickBytes = 128;
inline constexpr uint32_t kSticksPerPage = 32;
inline constexpr uint32_t kDlfCellsPerStick = 64;

constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}
constexpr uint64_t round_up(uint64_t a, uint64_t b) {
  return ceil_div(a, b) * b;
}
// PADDED(x) of the notes: x rounded up to a whole stick of 64 cells.
constexpr uint32_t padded64(uint32_t x) {
  return static_cast<uint32_t>(round_up(x, 64));
}

inline bool is_pre_transformed_float_type(zdnn_data_types t) {
  return t == FP32 || t == FP16 || t == BFLOAT;
}
inline bool is_pre_transformed_type(zdnn_data_types t) {
  return is_pre_transformed_float_type(t) || t == INT8 || t == INT32;
}
inline bool is_transformed_type(zdnn_data_types t) {
  return t == ZDNN_DLFLOAT16 || t == ZDNN_BINARY_INT8 || t == ZDNN_BINARY_INT32 || t == ZDNN_BINARY_FP32;
}
inline bool is_known_format(zdnn_data_formats f) {
  return f == ZDNN_FORMAT_4DFEATURE || f == ZDNN_FORMAT_4DKERNEL || f == ZDNN_FORMAT_4DWEIGHTS ||
         f == ZDNN_FORMAT_4DGENERIC;
}
inline bool is_known_layout(zdnn_data_layouts l) {
  return static_cast<unsigned>(l) <= static_cast<unsigned>(ZDNN_BIDIR_FICO);
}
inline bool is_concatenated_layout(zdnn_data_layouts l) {
  return l == ZDNN_FICO || l == ZDNN_ZRH || l == ZDNN_BIDIR_FICO || l == ZDNN_BIDIR_ZRH;
}
inline uint32_t gates_of_layout(zdnn_data_layouts l) {
  return (l == ZDNN_FICO || l == ZDNN_BIDIR_FICO) ? 4 : (l == ZDNN_ZRH || l == ZDNN_BIDIR_ZRH) ? 3 : 1;
}
// Layouts a transformed descriptor may carry.
inline bool is_transformed_layout(zdnn_data_layouts l) {
  return l == ZDNN_NHWC || l == ZDNN_HWCK || is_concatenated_layout(l);
}
// Layouts a pre-transformed descriptor may carry.
inline bool is_pre_transformed_layout(zdnn_data_layouts l) {
  return is_known_layout(l) && !is_concatenated_layout(l);
}
}  // namespace tessera::zdnn
