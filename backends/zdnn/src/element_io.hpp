// Reading and writing single elements of the caller's pre-transformed data types.
#pragma once

#include <cstdint>
#include <cstring>

#include "common.hpp"
#include "dlfloat16.hpp"

namespace tessera::zdnn {

inline float load_element(const void* base, uint64_t index, zdnn_data_types type) {
  switch (type) {
  case FP32: {
    float v;
    std::memcpy(&v, static_cast<const char*>(base) + index * 4, 4);
    return v;
  }
  case FP16: {
    uint16_t v;
    std::memcpy(&v, static_cast<const char*>(base) + index * 2, 2);
    return fp16_to_fp32(v);
  }
  case BFLOAT: {
    uint16_t v;
    std::memcpy(&v, static_cast<const char*>(base) + index * 2, 2);
    return bf16_to_fp32(v);
  }
  case INT8: return static_cast<float>(static_cast<const int8_t*>(base)[index]);
  case INT32: {
    int32_t v;
    std::memcpy(&v, static_cast<const char*>(base) + index * 4, 4);
    return static_cast<float>(v);
  }
  default: return 0.0f;
  }
}

// Returns false when the value does not fit the target type (binary16 overflow).
inline bool store_element(void* base, uint64_t index, zdnn_data_types type, float value) {
  switch (type) {
  case FP32: std::memcpy(static_cast<char*>(base) + index * 4, &value, 4); return true;
  case FP16: {
    const uint16_t v = fp32_to_fp16(value);
    std::memcpy(static_cast<char*>(base) + index * 2, &v, 2);
    return (v & 0x7C00u) != 0x7C00u || value != value;
  }
  case BFLOAT: {
    const uint16_t v = fp32_to_bf16_truncated(value);
    std::memcpy(static_cast<char*>(base) + index * 2, &v, 2);
    return true;
  }
  case INT8: static_cast<int8_t*>(base)[index] = static_cast<int8_t>(value); return true;
  case INT32: {
    const int32_t v = static_cast<int32_t>(value);
    std::memcpy(static_cast<char*>(base) + index * 4, &v, 4);
    return true;
  }
  default: return false;
  }
}

}  // namespace tessera::zdnn
