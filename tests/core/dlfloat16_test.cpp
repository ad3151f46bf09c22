// dlfloat16_test.cpp: IBM DLFLOAT16 conversions (numeric/dlfloat16.hpp) against the check values
// in shared/notes/zdnn-facts.md, an exhaustive decode against the defining formula, every
// rounding boundary (ties away from zero) and a reference rounding written with frexp/ldexp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "tessera/numeric/dlfloat16.hpp"
#include "test_util.hpp"

using tessera::numeric::dlfloat16_max;
using tessera::numeric::dlfloat16_range;
using tessera::numeric::dlfloat16_to_f32;
using tessera::numeric::f32_to_dlfloat16;
using namespace tessera_test;

namespace {

bool is_ninf(std::uint16_t d) {
    return (d & 0x7FFFu) == 0x7FFFu;
}

/// (-1)^s * 2^(e-31) * (1 + m/512); e = m = 0 is zero; 0x7FFF/0xFFFF (NINF) is NaN.
double dlfloat16_formula(std::uint16_t d) {
    const int s = d >> 15;
    const int e = (d >> 9) & 0x3F;
    const int m = d & 0x1FF;
    if (is_ninf(d)) return std::numeric_limits<double>::quiet_NaN();
    const double sign = s ? -1.0 : 1.0;
    if (e == 0 && m == 0) return sign * 0.0;
    return sign * std::ldexp(1.0 + m / 512.0, e - 31);
}

/// Reference fp32 -> DLFLOAT16 built from frexp: nearest, ties away, out of range as the notes say.
std::uint16_t reference_encode(float f, dlfloat16_range& range) {
    const std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
    if (!std::isfinite(f)) {
        range = dlfloat16_range::not_finite;
        return sign | 0x7FFF;
    }
    range = dlfloat16_range::ok;
    if (f == 0.0f) return sign;
    int e2 = 0;
    const double frac = std::frexp(std::fabs(static_cast<double>(f)), &e2);  // [0.5, 1)
    int exponent = e2 - 1 + 31;
    double steps = std::floor((frac * 2.0 - 1.0) * 512.0 + 0.5);  // exact in double; ties up
    if (steps == 512.0) {
        steps = 0.0;
        ++exponent;
    }
    if (exponent < 0) {
        range = dlfloat16_range::underflow;
        return sign;
    }
    if (exponent > 63 || (exponent == 63 && steps == 511.0)) {
        range = dlfloat16_range::overflow;
        return sign | 0x7FFF;
    }
    return static_cast<std::uint16_t>(sign | exponent << 9 | static_cast<int>(steps));
}

}  // namespace

TEST_CASE("dlfloat16: check values from the zDNN notes") {
    dlfloat16_range r{};
    CHECK(f32_to_dlfloat16(65504.0f, &r) == 0x5E00);
    CHECK(r == dlfloat16_range::ok);
    CHECK(dlfloat16_to_f32(0x5E00) == 65536.0f);
    CHECK(f32_to_dlfloat16(3.14159f) == 0x4124);
    CHECK(dlfloat16_to_f32(0x4124) == 3.140625f);
    CHECK(f32_to_dlfloat16(1.0f) == 0x3E00);
    CHECK(f32_to_dlfloat16(1.0f + std::ldexp(1.0f, -10)) == 0x3E01);      // tie, away from zero
    CHECK(f32_to_dlfloat16(-(1.0f + std::ldexp(1.0f, -10))) == 0xBE01);   // tie, away from zero
    CHECK(f32_to_dlfloat16(1.0f + 5 * std::ldexp(1.0f, -10)) == 0x3E03);  // 2.5 ulp -> 3 (RNE: 2)
    CHECK(f32_to_dlfloat16(std::nextafter(1.0f + std::ldexp(1.0f, -10), 0.0f)) == 0x3E00);

    // Largest finite and smallest positive.
    CHECK(dlfloat16_to_f32(0x7FFE) == 8573157376.0f);
    CHECK(dlfloat16_max == 8573157376.0f);
    CHECK(f32_to_dlfloat16(8573157376.0f, &r) == 0x7FFE);
    CHECK(r == dlfloat16_range::ok);
    CHECK(f32_to_dlfloat16(-8573157376.0f) == 0xFFFE);
    const float smallest = std::ldexp(1.0f + 1.0f / 512, -31);
    CHECK(dlfloat16_to_f32(0x0001) == smallest);
    CHECK(f32_to_dlfloat16(smallest, &r) == 0x0001);
    CHECK(r == dlfloat16_range::ok);
    CHECK(dlfloat16_to_f32(0x8001) == -smallest);
}

TEST_CASE("dlfloat16: underflow gives a signed zero and reports it") {
    dlfloat16_range r{};
    CHECK(f32_to_dlfloat16(std::ldexp(1.0f, -33), &r) == 0x0000);
    CHECK(r == dlfloat16_range::underflow);
    CHECK(f32_to_dlfloat16(-std::ldexp(1.0f, -33), &r) == 0x8000);
    CHECK(r == dlfloat16_range::underflow);
    CHECK(f32_to_dlfloat16(std::numeric_limits<float>::denorm_min(), &r) == 0x0000);
    CHECK(r == dlfloat16_range::underflow);
    CHECK(f32_to_dlfloat16(std::ldexp(1.5f, -32), &r) == 0x0000);
    CHECK(r == dlfloat16_range::underflow);
    // Exact zeros are not underflows.
    CHECK(f32_to_dlfloat16(0.0f, &r) == 0x0000);
    CHECK(r == dlfloat16_range::ok);
    CHECK(f32_to_dlfloat16(-0.0f, &r) == 0x8000);
    CHECK(r == dlfloat16_range::ok);
    CHECK(std::signbit(dlfloat16_to_f32(0x8000)));
    CHECK(dlfloat16_to_f32(0x8000) == 0.0f);
    // Values rounding to exactly 2^-31 carry into biased exponent 0 with fraction 0, which is the
    // zero encoding: IBM's reference converter (onnx-mlir NNP1) gives +0 without a flag; so do we.
    CHECK(f32_to_dlfloat16(std::ldexp(1.0f, -31), &r) == 0x0000);
}

TEST_CASE("dlfloat16: overflow, infinities and NaN become NINF with their flags") {
    dlfloat16_range r{};
    CHECK(f32_to_dlfloat16(1e10f, &r) == 0x7FFF);
    CHECK(r == dlfloat16_range::overflow);
    CHECK(f32_to_dlfloat16(-1e10f, &r) == 0xFFFF);
    CHECK(r == dlfloat16_range::overflow);
    // Half an ulp above the largest finite value ties away into NINF; just below stays finite.
    const float half_ulp_above = 8573157376.0f + 4194304.0f;
    CHECK(f32_to_dlfloat16(half_ulp_above, &r) == 0x7FFF);
    CHECK(r == dlfloat16_range::overflow);
    CHECK(f32_to_dlfloat16(std::nextafter(half_ulp_above, 0.0f), &r) == 0x7FFE);
    CHECK(r == dlfloat16_range::ok);
    CHECK(f32_to_dlfloat16(INFINITY, &r) == 0x7FFF);
    CHECK(r == dlfloat16_range::not_finite);
    CHECK(f32_to_dlfloat16(-INFINITY, &r) == 0xFFFF);
    CHECK(r == dlfloat16_range::not_finite);
    CHECK(f32_to_dlfloat16(std::numeric_limits<float>::quiet_NaN(), &r) == 0x7FFF);
    CHECK(r == dlfloat16_range::not_finite);
    CHECK(f32_to_dlfloat16(float_of(0x7F800001u), &r) == 0x7FFF);
    CHECK(r == dlfloat16_range::not_finite);
    CHECK(std::isnan(dlfloat16_to_f32(0x7FFF)));
    CHECK(std::isnan(dlfloat16_to_f32(0xFFFF)));
}

TEST_CASE("dlfloat16: decode of all 65536 patterns matches the formula, finite ones round-trip") {
    mismatch_log log;
    for (std::uint32_t d = 0; d <= 0xFFFF; ++d) {
        const auto bits = static_cast<std::uint16_t>(d);
        const float f = dlfloat16_to_f32(bits);
        const double want = dlfloat16_formula(bits);
        if (std::isnan(want)) {
            if (!std::isnan(f)) log.note("decode " + hex(d) + " is not NaN");
            continue;
        }
        if (static_cast<double>(f) != want || std::signbit(f) != std::signbit(want)) {
            log.note("decode " + hex(d) + " -> " + std::to_string(f));
        }
        dlfloat16_range r{};
        const std::uint16_t back = f32_to_dlfloat16(f, &r);
        if (back != bits || r != dlfloat16_range::ok)
            log.note("round trip " + hex(d) + " -> " + hex(back));
    }
    INFO(log.first);
    CHECK(log.clean());
}

TEST_CASE("dlfloat16: every boundary between neighbours rounds ties away from zero") {
    mismatch_log log;
    for (std::uint32_t d = 1; d < 0x7FFF; ++d) {
        const double lo = dlfloat16_formula(static_cast<std::uint16_t>(d));
        // Past 0x7FFE the next step (0x7FFF's would-be value) is NINF.
        const double hi = d + 1 == 0x7FFF ? std::ldexp(1.0 + 511.0 / 512, 32)
                                          : dlfloat16_formula(static_cast<std::uint16_t>(d + 1));
        const float mid = static_cast<float>((lo + hi) / 2);
        for (const float sign : {1.0f, -1.0f}) {
            const std::uint32_t s = sign < 0 ? 0x8000u : 0u;
            if (f32_to_dlfloat16(std::nextafter(mid, 0.0f) * sign) != (d | s))
                log.note("below mid of " + hex(d));
            if (f32_to_dlfloat16(mid * sign) != ((d + 1) | s)) log.note("mid of " + hex(d));
        }
    }
    INFO(log.first);
    CHECK(log.clean());
}

TEST_CASE("dlfloat16: random fp32 values agree with a frexp-based reference rounding") {
    std::mt19937 rng(31u);
    std::uniform_int_distribution<std::uint32_t> any_bits;
    std::uniform_int_distribution<std::uint32_t> exponent(127 - 34, 127 + 34);
    std::uniform_int_distribution<std::uint32_t> fraction(0, 0x7FFFFFu);
    mismatch_log log;
    for (int i = 0; i < 2'000'000; ++i) {
        const std::uint32_t x =
            (i & 1) ? any_bits(rng)
                    : (any_bits(rng) & 0x80000000u) | exponent(rng) << 23 | fraction(rng);
        dlfloat16_range ours_range{}, ref_range{};
        const std::uint16_t ours = f32_to_dlfloat16(float_of(x), &ours_range);
        const std::uint16_t ref = reference_encode(float_of(x), ref_range);
        if (ours != ref || ours_range != ref_range)
            log.note(hex(x) + ": ours " + hex(ours) + ", reference " + hex(ref));
    }
    INFO(log.first);
    CHECK(log.clean());
}
