// convert_test.cpp: load/store of every dtype (numeric/convert.hpp): raw values, quantised i8/u8,
// Q7.8 i16, policies passed through, and doubles rounded once (no double rounding via float).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "tessera/numeric/convert.hpp"

using tessera::dtype;
using tessera::overflow_policy;
using tessera::quantization;
using tessera::rounding_policy;
using namespace tessera::numeric;

namespace {
std::string fmt_double(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%a", v);
    return buf;
}

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
    } cases[] = {{dtype::f32, -1.25},          {dtype::f16, 65504.0},       {dtype::bf16, -3.0},
                 {dtype::dlfloat16, 3.140625}, {dtype::i8, -128.0},         {dtype::u8, 255.0},
                 {dtype::i16, -32768.0},       {dtype::i32, -2147483648.0}, {dtype::boolean, 1.0}};
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

namespace {

/// Reference rounding of a >= 0 to p significand bits with normal exponents from emin up,
/// computed in exact double arithmetic. Formats with subnormals keep the quantum of emin below
/// it; DLFLOAT16 (no subnormals) flushes to zero below 2^emin, and 2^emin itself, whose
/// encoding is the zero pattern, is zero too.
double reference_round(double a, int p, int emin, bool subnormals, bool ties_away) {
    if (a == 0.0) return 0.0;
    int e = 0;
    std::frexp(a, &e);
    int lead = e - 1;
    if (lead < emin) {
        if (!subnormals && lead < emin - 1) return 0.0;
        lead = emin;
        if (!subnormals) lead = emin - 1;  // round at the precision of the binade below
    }
    const int quantum = lead - (p - 1);
    const double scaled = std::ldexp(a, -quantum);
    double whole = std::floor(scaled);
    const double rest = scaled - whole;
    if (rest > 0.5 || (rest == 0.5 && (ties_away || std::fmod(whole, 2.0) != 0.0))) whole += 1.0;
    const double r = std::ldexp(whole, quantum);
    if (!subnormals && r <= std::ldexp(1.0, emin)) return 0.0;
    return r;
}

struct format_case {
    dtype type;
    int p;
    int emin;
    bool subnormals;
    bool ties_away;
    double max;
};

}  // namespace

TEST_CASE("convert: random doubles near 16-bit rounding boundaries are rounded once, correctly") {
    const format_case formats[] = {
        {dtype::f16, 11, -14, true, false, 65504.0},
        {dtype::bf16, 8, -126, true, false, 0x1.FEp127},
        {dtype::dlfloat16, 10, -31, false, true, 8573157376.0},
    };
    std::mt19937_64 rng(7u);
    for (const auto& f : formats) {
        INFO(tessera::to_string(f.type));
        std::uniform_int_distribution<int> exponent(f.emin - 12, f.type == dtype::bf16 ? 127 : 34);
        std::uniform_int_distribution<std::uint64_t> significand(0, (std::uint64_t{1} << f.p) - 1);
        std::uniform_int_distribution<int> nudge_bits(1, 60);
        std::uniform_int_distribution<int> coin(0, 3);
        long mismatches = 0;
        std::string first;
        for (int i = 0; i < 300'000; ++i) {
            // A tie between two neighbours (odd multiple of half a quantum), nudged by a tiny
            // relative amount up, down or not at all; or a fully random double.
            const int e = exponent(rng);
            double v = std::ldexp(static_cast<double>(2 * significand(rng) + 1), e - f.p);
            switch (coin(rng)) {
                case 0:
                    break;
                case 1:
                    v += std::ldexp(v, -nudge_bits(rng));
                    break;
                case 2:
                    v -= std::ldexp(v, -nudge_bits(rng));
                    break;
                default:
                    v = std::ldexp(1.0 + std::ldexp(static_cast<double>(rng() >> 12), -52), e);
                    break;
            }
            const double want_magnitude =
                reference_round(v, f.p, f.emin, f.subnormals, f.ties_away);
            std::uint64_t stored = 0;  // room for any dtype; 16-bit formats use the first two bytes
            store_raw(f.type, &stored, -v);  // negative: magnitudes mirror
            const double got = load_raw(f.type, &stored);
            const bool overflow = want_magnitude > f.max;
            const bool ok = overflow
                                ? (f.type == dtype::dlfloat16 ? std::isnan(got) : got == -INFINITY)
                                : got == -want_magnitude && std::signbit(got);
            if (!ok && mismatches++ == 0) {
                first = fmt_double(v) + " stored as " + std::to_string(got) + ", want " +
                        fmt_double(-want_magnitude);
            }
        }
        INFO(first);
        CHECK(mismatches == 0);
    }
}
