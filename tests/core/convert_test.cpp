// convert_test.cpp: load/store of every dtype (numeric/convert.hpp): raw values, quantised i8/u8,
// Q7.8 i16, policies passed through, and doubles rounded once (no double rounding via float).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "tessera/numeric/convert.hpp"

using tessera::dtype;
using tessera::overflow_policy;
using tessera::quantization;
using tessera::rounding_policy;
using namespace tessera::numeric;

namespace {
/// Stores v as `t` and returns the stored 16-bit pattern.
std::uint16_t stored16(dtype t, double v) {
    std::uint16_t out = 0;
    store_raw(t, &out, v);
    return out;
}
}  // namespace

TEST_CASE("convert: raw round trip of every dtype") {
    alignas(8) unsigned char buf[8] = {};
    const struct {
        dtype type;
        double value;
    } cases[] = {{dtype::f32, -1.25}, {dtype::f16, 65504.0}, {dtype::bf16, -3.0}, {dtype::dlfloat16, 3.140625},
                 {dtype::i8, -128.0}, {dtype::u8, 255.0},     {dtype::i16, -32768.0}, {dtype::i32, -2147483648.0},
                 {dtype::boolean, 1.0}};
    for (const auto& c : cases) {
        INFO(tessera::to_string(c.type));
        store_raw(c.type, buf, c.value);
        CHECK(load_raw(c.type, buf) == c.value);
    }
    store_raw(dtype::boolean, buf, -0.5);
    CHECK(buf[0] == 1);
    store_raw(dtype::boolean, buf, 0.0);
    CHECK(buf[0] == 0);
}

TEST_CASE("convert: 16-bit floats store the right patterns") {
    CHECK(stored16(dtype::f16, 1.0) == 0x3C00);
    CHECK(stored16(dtype::bf16, 1.0) == 0x3F80);
    CHECK(stored16(dtype::dlfloat16, 1.0) == 0x3E00);
    CHECK(stored16(dtype::dlfloat16, 65504.0) == 0x5E00);
    CHECK(stored16(dtype::f16, 1e6) == 0x7C00);
    CHECK(stored16(dtype::dlfloat16, 1e20) == 0x7FFF);
}

TEST_CASE("convert: doubles are rounded once, straight to the 16-bit format") {
    // Each value lies a hair (2^-40) beside a 16-bit tie; rounding through float first would
    // land exactly on the tie and pick the wrong neighbour.
    const double tiny = std::ldexp(1.0, -40);
    CHECK(stored16(dtype::f16, 1.0 + std::ldexp(1.0, -11) + tiny) == 0x3C01);
    CHECK(stored16(dtype::f16, -(1.0 + std::ldexp(1.0, -11) + tiny)) == 0xBC01);
    CHECK(stored16(dtype::f16, 1.0 + 3 * std::ldexp(1.0, -11) - tiny) == 0x3C01);
    CHECK(stored16(dtype::f16, std::ldexp(1.0, -25) + std::ldexp(1.0, -60)) == 0x0001);
    CHECK(stored16(dtype::f16, 65520.0 - std::ldexp(1.0, -20)) == 0x7BFF);
    CHECK(stored16(dtype::bf16, 1.0 + std::ldexp(1.0, -8) + tiny) == 0x3F81);
    CHECK(stored16(dtype::bf16, 1.0 + 3 * std::ldexp(1.0, -8) - tiny) == 0x3F81);
    CHECK(stored16(dtype::dlfloat16, 1.0 + std::ldexp(1.0, -10) - tiny) == 0x3E00);
    CHECK(stored16(dtype::dlfloat16, -(1.0 + std::ldexp(1.0, -10) - tiny)) == 0xBE00);
    // Exact ties and exact values are unaffected.
    CHECK(stored16(dtype::f16, 1.0 + std::ldexp(1.0, -11)) == 0x3C00);
    CHECK(stored16(dtype::dlfloat16, 1.0 + std::ldexp(1.0, -10)) == 0x3E01);
    CHECK(stored16(dtype::bf16, 1e300) == 0x7F80);
    CHECK(stored16(dtype::f16, 1e-300) == 0x0000);
    CHECK(stored16(dtype::f16, -1e-300) == 0x8000);
    const std::uint16_t nan16 = stored16(dtype::f16, std::nan(""));
    CHECK(std::isnan(load_raw(dtype::f16, &nan16)));
    // f32 itself rounds to nearest.
    float f = 0;
    store_raw(dtype::f32, &f, 1.0 + std::ldexp(1.0, -24) + tiny);
    CHECK(f == 1.0f + std::ldexp(1.0f, -23));
}

TEST_CASE("convert: i8/u8 quantisation real = scale * (q - zero_point)") {
    const quantization q{0.5f, 10, 0};
    std::int8_t s = 0;
    store_real(dtype::i8, q, &s, 1.0);
    CHECK(s == 12);
    CHECK(load_real(dtype::i8, q, &s) == 1.0);
    store_real(dtype::i8, q, &s, 0.25);  // 10.5 -> 10 (even)
    CHECK(s == 10);
    store_real(dtype::i8, q, &s, 0.75);  // 11.5 -> 12 (even)
    CHECK(s == 12);
    store_real(dtype::i8, q, &s, 0.75, rounding_policy::to_zero);
    CHECK(s == 11);
    store_real(dtype::i8, q, &s, 100.0);  // 210 saturates
    CHECK(s == 127);
    store_real(dtype::i8, q, &s, 100.0, rounding_policy::to_nearest_even, overflow_policy::wrap);
    CHECK(s == 210 - 256);
    store_real(dtype::i8, q, &s, -100.0);  // -190 saturates
    CHECK(s == -128);
    CHECK(load_real(dtype::i8, q, &s) == 0.5 * (-128 - 10));

    const quantization uq{0.25f, 128, 0};
    std::uint8_t u = 0;
    store_real(dtype::u8, uq, &u, -32.0);
    CHECK(u == 0);
    store_real(dtype::u8, uq, &u, -32.25);
    CHECK(u == 0);
    store_real(dtype::u8, uq, &u, 31.75);
    CHECK(u == 255);
    CHECK(load_real(dtype::u8, uq, &u) == 31.75);
}

TEST_CASE("convert: i16 with fixed_point_pos 8 is Q7.8") {
    const quantization q{1.0f, 0, 8};
    std::int16_t v = 0;
    store_real(dtype::i16, q, &v, -1.5);
    CHECK(v == -384);
    CHECK(load_real(dtype::i16, q, &v) == -1.5);
    store_real(dtype::i16, q, &v, 500.0);
    CHECK(v == 32767);
    CHECK(load_raw(dtype::i16, &v) == 32767.0);
    // i32 and floats ignore quantisation.
    std::int32_t w = 0;
    store_real(dtype::i32, {0.5f, 3, 8}, &w, 7.0);
    CHECK(w == 7);
    CHECK(load_real(dtype::i32, {0.5f, 3, 8}, &w) == 7.0);
}
