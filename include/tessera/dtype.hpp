// tessera/dtype.hpp: element types and their properties.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/c/tensor_desc.h"

namespace tessera {

enum class dtype : std::int32_t {
    undef = TSR_DTYPE_UNDEF,
    f32 = TSR_F32,
    f16 = TSR_F16,
    bf16 = TSR_BF16,
    dlfloat16 = TSR_DLFLOAT16,
    i8 = TSR_I8,
    u8 = TSR_U8,
    i16 = TSR_I16,
    i32 = TSR_I32,
    boolean = TSR_BOOL,
    i64 = TSR_I64,
    f64 = TSR_F64,
    u16 = TSR_U16,
    u32 = TSR_U32,
    u64 = TSR_U64,
};

/// Bytes per element.
constexpr std::size_t size_of(dtype t) {
    switch (t) {
        case dtype::i64:
        case dtype::f64:
        case dtype::u64:
            return 8;
        case dtype::f32:
        case dtype::i32:
        case dtype::u32:
            return 4;
        case dtype::f16:
        case dtype::bf16:
        case dtype::dlfloat16:
        case dtype::i16:
        case dtype::u16:
            return 2;
        case dtype::i8:
        case dtype::u8:
        case dtype::boolean:
            return 1;
        case dtype::undef:
            return 0;
    }
    return 0;
}

constexpr std::string_view to_string(dtype t) {
    switch (t) {
        case dtype::f32:
            return "f32";
        case dtype::f16:
            return "f16";
        case dtype::bf16:
            return "bf16";
        case dtype::dlfloat16:
            return "dlfloat16";
        case dtype::i8:
            return "i8";
        case dtype::u8:
            return "u8";
        case dtype::i16:
            return "i16";
        case dtype::i32:
            return "i32";
        case dtype::boolean:
            return "bool";
        case dtype::i64:
            return "i64";
        case dtype::f64:
            return "f64";
        case dtype::u16:
            return "u16";
        case dtype::u32:
            return "u32";
        case dtype::u64:
            return "u64";
        case dtype::undef:
            return "undef";
    }
    return "invalid";
}

constexpr bool is_floating(dtype t) {
    return t == dtype::f32 || t == dtype::f16 || t == dtype::bf16 || t == dtype::dlfloat16 ||
           t == dtype::f64;
}
constexpr bool is_integer(dtype t) {
    return t == dtype::i8 || t == dtype::u8 || t == dtype::i16 || t == dtype::i32 ||
           t == dtype::i64 || t == dtype::u16 || t == dtype::u32 || t == dtype::u64;
}
/// The unsigned integer dtypes (u8, u16, u32, u64).
constexpr bool is_unsigned(dtype t) {
    return t == dtype::u8 || t == dtype::u16 || t == dtype::u32 || t == dtype::u64;
}
/// The 64-bit integer dtypes (i64, u64): their values beyond 2^53 need the long double paths.
constexpr bool is_int64_class(dtype t) {
    return t == dtype::i64 || t == dtype::u64;
}
constexpr bool is_valid(dtype t) {
    return static_cast<std::int32_t>(t) >= TSR_F32 && static_cast<std::int32_t>(t) <= TSR_U64;
}
/// The dtypes no device runtime has (i64, f64 and the unsigned u16, u32, u64): only the reference
/// backend and data movement by element size handle them; plugins decline them unless they say
/// otherwise.
constexpr bool is_wide(dtype t) {
    return t == dtype::i64 || t == dtype::f64 || t == dtype::u16 || t == dtype::u32 ||
           t == dtype::u64;
}

/// Quantisation parameters: i8/u8 use scale and zero point, i16 uses fixed_point_pos.
struct quantization {
    float scale = 1.0f;
    std::int32_t zero_point = 0;
    std::int32_t fixed_point_pos = 0;
};

/// C++ type stored for each dtype (16-bit floats are stored as their bit patterns).
template <dtype T>
struct storage_of;
template <>
struct storage_of<dtype::f32> {
    using type = float;
};
template <>
struct storage_of<dtype::f16> {
    using type = std::uint16_t;
};
template <>
struct storage_of<dtype::bf16> {
    using type = std::uint16_t;
};
template <>
struct storage_of<dtype::dlfloat16> {
    using type = std::uint16_t;
};
template <>
struct storage_of<dtype::i8> {
    using type = std::int8_t;
};
template <>
struct storage_of<dtype::u8> {
    using type = std::uint8_t;
};
template <>
struct storage_of<dtype::i16> {
    using type = std::int16_t;
};
template <>
struct storage_of<dtype::i32> {
    using type = std::int32_t;
};
template <>
struct storage_of<dtype::boolean> {
    using type = std::uint8_t;
};
template <>
struct storage_of<dtype::i64> {
    using type = std::int64_t;
};
template <>
struct storage_of<dtype::f64> {
    using type = double;
};
template <>
struct storage_of<dtype::u16> {
    using type = std::uint16_t;
};
template <>
struct storage_of<dtype::u32> {
    using type = std::uint32_t;
};
template <>
struct storage_of<dtype::u64> {
    using type = std::uint64_t;
};

/// The dtype whose storage is the C++ type T (float -> f32, int8_t -> i8, ...; std::uint16_t
/// has none: it is the storage of f16, bf16, dlfloat16 and u16 alike).
template <typename T>
constexpr dtype dtype_of();
template <>
constexpr dtype dtype_of<float>() {
    return dtype::f32;
}
template <>
constexpr dtype dtype_of<std::int8_t>() {
    return dtype::i8;
}
template <>
constexpr dtype dtype_of<std::uint8_t>() {
    return dtype::u8;
}
template <>
constexpr dtype dtype_of<std::int16_t>() {
    return dtype::i16;
}
template <>
constexpr dtype dtype_of<std::int32_t>() {
    return dtype::i32;
}
template <>
constexpr dtype dtype_of<bool>() {
    return dtype::boolean;
}
template <>
constexpr dtype dtype_of<std::int64_t>() {
    return dtype::i64;
}
template <>
constexpr dtype dtype_of<double>() {
    return dtype::f64;
}
template <>
constexpr dtype dtype_of<std::uint32_t>() {
    return dtype::u32;
}
template <>
constexpr dtype dtype_of<std::uint64_t>() {
    return dtype::u64;
}

}  // namespace tessera
