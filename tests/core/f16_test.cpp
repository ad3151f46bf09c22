// f16_test.cpp: IEEE binary16 conversions (numeric/half.hpp): exhaustive decode and round trip,
// every rounding boundary, hand-picked ties and specials, and F16C hardware as an oracle.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "f16c_oracle.hpp"
#include "tessera/numeric/half.hpp"
#include "test_util.hpp"

using tessera::numeric::f16_to_f32;
using tessera::numeric::f32_to_f16;
using namespace tessera_test;

namespace {

bool f16_is_nan(std::uint16_t h) {
    return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0;
}

/// binary16 value computed independently: subnormal m * 2^-24, normal (1024 + m) * 2^(e-25).
double f16_formula(std::uint16_t h) {
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    const double sign = (h & 0x8000u) ? -1.0 : 1.0;
    if (e == 0x1F) return m ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
    if (e == 0) return sign * std::ldexp(m, -24);
    return sign * std::ldexp(1024 + m, e - 25);
}

}  // namespace

TEST_CASE("f16: decode of all 65536 patterns matches the formula") {
    mismatch_log log;
    for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float f = f16_to_f32(static_cast<std::uint16_t>(h));
        const double want = f16_formula(static_cast<std::uint16_t>(h));
        const bool ok = std::isnan(want) ? std::isnan(f) && std::signbit(f) == bool(h & 0x8000u)
                                         : (f == want && std::signbit(f) == std::signbit(want));
        if (!ok) log.note(hex(h) + " -> " + std::to_string(f));
    }
    INFO(log.first);
    CHECK(log.clean());
}

TEST_CASE("f16: f16 -> f32 -> f16 is the identity (NaNs stay NaN with their sign)") {
    mismatch_log log;
    for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
        const auto back = f32_to_f16(f16_to_f32(static_cast<std::uint16_t>(h)));
        const bool ok = f16_is_nan(static_cast<std::uint16_t>(h))
                            ? f16_is_nan(back) && (back & 0x8000u) == (h & 0x8000u)
                            : back == h;
        if (!ok) log.note(hex(h) + " -> " + hex(back));
    }
    INFO(log.first);
    CHECK(log.clean());
}

TEST_CASE("f16: every rounding boundary between neighbours rounds to nearest even") {
    // For each finite non-negative h, the exact midpoint to h+1 is an fp32 value; one fp32 ulp
    // below must give h, one above h+1, the midpoint itself the even one of the two.
    mismatch_log log;
    for (std::uint32_t h = 0; h < 0x7C00; ++h) {
        const double lo = f16_formula(static_cast<std::uint16_t>(h));
        const double hi =
            h + 1 == 0x7C00 ? 65536.0 : f16_formula(static_cast<std::uint16_t>(h + 1));
        const float mid = static_cast<float>((lo + hi) / 2);
        REQUIRE(static_cast<double>(mid) == (lo + hi) / 2);
        const std::uint32_t even = (h & 1u) ? h + 1 : h;
        for (const float sign : {1.0f, -1.0f}) {
            const std::uint32_t s = sign < 0 ? 0x8000u : 0u;
            const float below = std::nextafter(mid, 0.0f) * sign;
            const float above = std::nextafter(mid, INFINITY) * sign;
            if (f32_to_f16(below) != (h | s)) log.note("below mid of " + hex(h));
            if (f32_to_f16(mid * sign) != (even | s)) log.note("mid of " + hex(h));
            if (f32_to_f16(above) != ((h + 1) | s)) log.note("above mid of " + hex(h));
        }
    }
    INFO(log.first);
    CHECK(log.clean());
}

TEST_CASE("f16: round-to-nearest-even ties and specials by hand") {
    CHECK(f32_to_f16(1.0f) == 0x3C00);
    CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);      // tie, 1.0 is even
    CHECK(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);  // tie, up to 1 + 2^-9
    CHECK(f32_to_f16(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)) == 0x3C01);
    CHECK(f32_to_f16(-(1.0f + std::ldexp(1.0f, -11))) == 0xBC00);
    CHECK(f32_to_f16(-(1.0f + 3 * std::ldexp(1.0f, -11))) == 0xBC02);

    // Subnormals.
    CHECK(f32_to_f16(std::ldexp(1.0f, -24)) == 0x0001);
    CHECK(f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);  // tie with 0, 0 is even
    CHECK(f32_to_f16(-std::ldexp(1.0f, -25)) == 0x8000);
    CHECK(f32_to_f16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)) == 0x0001);
    CHECK(f32_to_f16(3 * std::ldexp(1.0f, -26)) == 0x0001);  // 0.75 ulp
    CHECK(f32_to_f16(3 * std::ldexp(1.0f, -25)) == 0x0002);  // 1.5 ulp tie -> 2
    CHECK(f32_to_f16(5 * std::ldexp(1.0f, -25)) == 0x0002);  // 2.5 ulp tie -> 2
    CHECK(f32_to_f16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)) ==
          0x0400);  // to smallest normal
    CHECK(f32_to_f16(std::ldexp(1.0f, -30)) == 0x0000);
    CHECK(f16_to_f32(0x0001) == std::ldexp(1.0f, -24));
    CHECK(f16_to_f32(0x03FF) == std::ldexp(1023.0f, -24));

    // Range.
    CHECK(f32_to_f16(65504.0f) == 0x7BFF);
    CHECK(f32_to_f16(65519.99f) == 0x7BFF);
    CHECK(f32_to_f16(65520.0f) == 0x7C00);  // tie between 65504 (odd) and 65536 -> inf
    CHECK(f32_to_f16(-65520.0f) == 0xFC00);
    CHECK(f32_to_f16(1e9f) == 0x7C00);
    CHECK(f32_to_f16(std::numeric_limits<float>::max()) == 0x7C00);
    CHECK(f16_to_f32(0x7BFF) == 65504.0f);

    // Infinities, NaN, zeros.
    CHECK(f32_to_f16(INFINITY) == 0x7C00);
    CHECK(f32_to_f16(-INFINITY) == 0xFC00);
    CHECK(f16_is_nan(f32_to_f16(std::numeric_limits<float>::quiet_NaN())));
    CHECK(f16_is_nan(f32_to_f16(float_of(0x7F800001u))));  // payload only in the low bits
    CHECK((f32_to_f16(float_of(0xFFC00000u)) & 0x8000u) != 0);
    CHECK(std::isnan(f16_to_f32(0x7E00)));
    CHECK(std::isinf(f16_to_f32(0x7C00)));
    CHECK(f32_to_f16(0.0f) == 0x0000);
    CHECK(f32_to_f16(-0.0f) == 0x8000);
    CHECK(std::signbit(f16_to_f32(0x8000)));
}

TEST_CASE("f16: agrees with the F16C instructions") {
    if (!f16c_available()) {
        MESSAGE("F16C not available on this CPU; oracle comparison skipped");
        return;
    }
    mismatch_log log;
    for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float ours = f16_to_f32(static_cast<std::uint16_t>(h));
        const float hw = f16c_to_float(static_cast<std::uint16_t>(h));
        const bool ok = std::isnan(hw) ? std::isnan(ours) : bits_of(ours) == bits_of(hw);
        if (!ok) log.note("decode " + hex(h));
    }
    // Random bit patterns over all of fp32, then values concentrated in binary16's range.
    std::mt19937 rng(20261122u);
    std::uniform_int_distribution<std::uint32_t> any_bits;
    std::uniform_int_distribution<std::uint32_t> exponent(100, 145);
    std::uniform_int_distribution<std::uint32_t> fraction(0, 0x7FFFFFu);
    constexpr int samples = 2'000'000;
    for (int i = 0; i < 2 * samples; ++i) {
        const std::uint32_t x =
            i < samples ? any_bits(rng)
                        : (any_bits(rng) & 0x80000000u) | exponent(rng) << 23 | fraction(rng);
        const float f = float_of(x);
        const std::uint16_t ours = f32_to_f16(f);
        const std::uint16_t hw = f16c_from_float(f);
        const bool ok =
            f16_is_nan(hw) ? f16_is_nan(ours) && (ours & 0x8000u) == (hw & 0x8000u) : ours == hw;
        if (!ok) log.note("encode " + hex(x) + ": ours " + hex(ours) + ", F16C " + hex(hw));
    }
    INFO(log.first);
    CHECK(log.clean());
}
