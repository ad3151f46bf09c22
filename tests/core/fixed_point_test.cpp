// fixed_point_test.cpp: Q7.8 and integer conversions (numeric/fixed_point.hpp): both rounding
// policies on positive and negative ties, wrap versus saturate at the int8/uint8/int16 limits,
// and fixed_multiply cases worked out by hand.
#include <doctest/doctest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "tessera/numeric/fixed_point.hpp"

using tessera::overflow_policy;
using tessera::rounding_policy;
using tessera::numeric::fixed_multiply;
using tessera::numeric::from_fixed;
using tessera::numeric::to_fixed;
using tessera::numeric::to_integer;

namespace {
constexpr auto rne = rounding_policy::to_nearest_even;
constexpr auto rtz = rounding_policy::to_zero;
constexpr auto sat = overflow_policy::saturate;
constexpr auto wrap = overflow_policy::wrap;

std::int16_t q78(double v, rounding_policy r = rne, overflow_policy o = sat) {
    return to_fixed<std::int16_t>(v, 8, r, o);
}
}  // namespace

TEST_CASE("Q7.8: exact values both ways") {
    CHECK(q78(1.0) == 256);
    CHECK(q78(1.5) == 384);
    CHECK(q78(-1.5) == -384);
    CHECK(q78(0.00390625) == 1);  // 2^-8, one step
    CHECK(q78(-128.0) == -32768);
    CHECK(q78(127.99609375) == 32767);
    CHECK(from_fixed<std::int16_t>(384, 8) == 1.5);
    CHECK(from_fixed<std::int16_t>(-384, 8) == -1.5);
    CHECK(from_fixed<std::int16_t>(1, 8) == 0.00390625);
    CHECK(from_fixed<std::int16_t>(32767, 8) == 127.99609375);
    CHECK(from_fixed<std::int16_t>(-32768, 8) == -128.0);
    for (int q = -32768; q <= 32767; q += 7) {
        const auto v = static_cast<std::int16_t>(q);
        REQUIRE(q78(from_fixed(v, 8)) == v);
        REQUIRE(q78(from_fixed(v, 8), rtz) == v);
    }
}

TEST_CASE("Q7.8: rounding policies on ties and non-ties, positive and negative") {
    const double step = 1.0 / 256;
    // 0.5 step: even is 0 either way.
    CHECK(q78(0.5 * step) == 0);
    CHECK(q78(0.5 * step, rtz) == 0);
    CHECK(q78(-0.5 * step) == 0);
    // 1.5 steps: nearest even 2, toward zero 1.
    CHECK(q78(1.5 * step) == 2);
    CHECK(q78(1.5 * step, rtz) == 1);
    CHECK(q78(-1.5 * step) == -2);
    CHECK(q78(-1.5 * step, rtz) == -1);
    // 2.5 steps: nearest even 2 (not 3), toward zero 2.
    CHECK(q78(2.5 * step) == 2);
    CHECK(q78(-2.5 * step) == -2);
    CHECK(q78(2.5 * step, rtz) == 2);
    // Non-ties.
    CHECK(q78(0.7 * step) == 1);
    CHECK(q78(0.7 * step, rtz) == 0);
    CHECK(q78(-0.7 * step) == -1);
    CHECK(q78(-0.7 * step, rtz) == 0);
    CHECK(q78(2.3 * step) == 2);
    CHECK(q78(-2.99 * step, rtz) == -2);
}

TEST_CASE("Q7.8: wrap versus saturate at the int16 limits") {
    CHECK(q78(128.0) == 32767);
    CHECK(q78(128.0, rne, wrap) == -32768);
    CHECK(q78(200.0) == 32767);
    CHECK(q78(200.0, rne, wrap) == -14336);  // 51200 - 65536
    CHECK(q78(-200.0) == -32768);
    CHECK(q78(-200.0, rne, wrap) == 14336);  // -51200 + 65536
    CHECK(q78(-128.00390625) == -32768);
    CHECK(q78(-128.00390625, rne, wrap) == 32767);
    CHECK(q78(1e30) == 32767);
    CHECK(q78(-1e30) == -32768);
    CHECK(q78(INFINITY) == 32767);
    CHECK(q78(std::nan("")) == 0);
}

TEST_CASE("integers: int8 and uint8 limits with both policies") {
    CHECK(to_integer<std::int8_t>(127.0, rne, sat) == 127);
    CHECK(to_integer<std::int8_t>(127.5, rne, sat) == 127);  // rounds to 128 (even), saturates
    CHECK(to_integer<std::int8_t>(127.5, rne, wrap) == -128);
    CHECK(to_integer<std::int8_t>(127.5, rtz, wrap) == 127);
    CHECK(to_integer<std::int8_t>(128.0, rtz, wrap) == -128);
    CHECK(to_integer<std::int8_t>(-128.5, rne, sat) == -128);  // tie to even -128
    CHECK(to_integer<std::int8_t>(-129.0, rne, sat) == -128);
    CHECK(to_integer<std::int8_t>(-129.0, rne, wrap) == 127);
    CHECK(to_integer<std::int8_t>(300.0, rne, wrap) == 44);
    CHECK(to_integer<std::int8_t>(-300.0, rne, wrap) == -44);
    CHECK(to_integer<std::int8_t>(-0.5, rne, sat) == 0);
    CHECK(to_integer<std::int8_t>(-1.5, rne, sat) == -2);
    CHECK(to_integer<std::uint8_t>(-1.0, rne, sat) == 0);
    CHECK(to_integer<std::uint8_t>(-1.0, rne, wrap) == 255);
    CHECK(to_integer<std::uint8_t>(255.5, rne, sat) == 255);
    CHECK(to_integer<std::uint8_t>(255.5, rne, wrap) == 0);
    CHECK(to_integer<std::uint8_t>(254.5, rne, sat) == 254);
    CHECK(to_integer<std::uint8_t>(256.0, rtz, wrap) == 0);
    CHECK(to_integer<std::int32_t>(3e9, rne, sat) == std::numeric_limits<std::int32_t>::max());
    CHECK(to_integer<std::int32_t>(-3e9, rne, sat) == std::numeric_limits<std::int32_t>::min());
    CHECK(to_integer<std::int32_t>(2147483648.0, rne, wrap) ==
          std::numeric_limits<std::int32_t>::min());
}

TEST_CASE("fixed_multiply: Q7.8 products by hand") {
    // 1.5 * 2.25 = 3.375: 384 * 576 = 221184, / 256 = 864 exactly.
    CHECK(fixed_multiply<std::int16_t>(384, 576, 8, rne, sat) == 864);
    CHECK(fixed_multiply<std::int16_t>(384, -576, 8, rtz, sat) == -864);
    // 1/256 * 0.5 = 0.5 step: even 0.
    CHECK(fixed_multiply<std::int16_t>(1, 128, 8, rne, sat) == 0);
    // 3/256 * 0.5 = 1.5 steps: nearest even 2, toward zero 1; negative mirrors.
    CHECK(fixed_multiply<std::int16_t>(3, 128, 8, rne, sat) == 2);
    CHECK(fixed_multiply<std::int16_t>(3, 128, 8, rtz, sat) == 1);
    CHECK(fixed_multiply<std::int16_t>(-3, 128, 8, rne, sat) == -2);
    CHECK(fixed_multiply<std::int16_t>(-3, 128, 8, rtz, sat) == -1);
    // 5 * 128 / 256 = 2.5 steps -> 2; 3 * 171 / 256 = 2.0039 -> 2 either way.
    CHECK(fixed_multiply<std::int16_t>(5, 128, 8, rne, sat) == 2);
    CHECK(fixed_multiply<std::int16_t>(3, 171, 8, rne, sat) == 2);
    CHECK(fixed_multiply<std::int16_t>(3, 171, 8, rtz, sat) == 2);
    // -0.7 steps: 7 * -26 = -182, / 256 = -0.71 -> -1 nearest, 0 toward zero.
    CHECK(fixed_multiply<std::int16_t>(7, -26, 8, rne, sat) == -1);
    CHECK(fixed_multiply<std::int16_t>(7, -26, 8, rtz, sat) == 0);
    // 100 * 2 = 200 does not fit: 25600 * 512 / 256 = 51200.
    CHECK(fixed_multiply<std::int16_t>(25600, 512, 8, rne, sat) == 32767);
    CHECK(fixed_multiply<std::int16_t>(25600, 512, 8, rne, wrap) == -14336);
    CHECK(fixed_multiply<std::int16_t>(-25600, 512, 8, rne, sat) == -32768);
    CHECK(fixed_multiply<std::int16_t>(-25600, 512, 8, rne, wrap) == 14336);
    // -128 * -128 = 16384: 2^30 / 2^8 = 2^22, saturates to max or wraps to 0.
    CHECK(fixed_multiply<std::int16_t>(-32768, -32768, 8, rne, sat) == 32767);
    CHECK(fixed_multiply<std::int16_t>(-32768, -32768, 8, rne, wrap) == 0);
    // int8 with 0 fraction bits: plain products.
    CHECK(fixed_multiply<std::int8_t>(12, 11, 0, rne, sat) == 127);
    CHECK(fixed_multiply<std::int8_t>(12, 11, 0, rne, wrap) == -124);  // 132 - 256
}

TEST_CASE("fixed_multiply: Q1.30 products keep all 60 bits of the exact product") {
    // (2^30 + 1) * (3*2^29 + 1) = 3*2^59 + 2^31 + 2^29 + 1; / 2^30 = 3*2^29 + 2 + 0.5 + 2^-30.
    // Just above a tie: nearest gives 3*2^29 + 3; a double product (53 bits) would see an exact
    // tie and give the even 3*2^29 + 2.
    CHECK(fixed_multiply<std::int32_t>(1073741825, 1610612737, 30, rne, sat) == 1610612739);
    CHECK(fixed_multiply<std::int32_t>(1073741825, 1610612737, 30, rtz, sat) == 1610612738);
    CHECK(fixed_multiply<std::int32_t>(-1073741825, 1610612737, 30, rne, sat) == -1610612739);
    CHECK(fixed_multiply<std::int32_t>(-1073741825, 1610612737, 30, rtz, sat) == -1610612738);
    // 1.0 * 1.0 in Q1.30 and a saturating Q1.30 square of -2.
    CHECK(fixed_multiply<std::int32_t>(1 << 30, 1 << 30, 30, rne, sat) == (1 << 30));
    CHECK(fixed_multiply<std::int32_t>(std::numeric_limits<std::int32_t>::min(),
                                       std::numeric_limits<std::int32_t>::min(), 30, rne,
                                       sat) == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("rounding policies do not depend on the floating-point rounding mode") {
    volatile double ties[] = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.7, -0.7};  // volatile: no folding
    const double nearest_even[] = {0, 2, 2, 0, -2, -2, 1, -1};
    const double toward_zero[] = {0, 1, 2, 0, -1, -2, 0, 0};
    const int saved = std::fegetround();
    for (const int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO, FE_TONEAREST}) {
        std::fesetround(mode);
        for (int i = 0; i < 8; ++i) {
            CHECK(tessera::numeric::round_with(ties[i], rne) == nearest_even[i]);
            CHECK(tessera::numeric::round_with(ties[i], rtz) == toward_zero[i]);
        }
        CHECK(to_integer<std::int8_t>(ties[2], rne, sat) == 2);
    }
    std::fesetround(saved);
    CHECK(tessera::numeric::round_with(1e300, rne) == 1e300);
    CHECK(tessera::numeric::round_with(-INFINITY, rne) == -INFINITY);
    CHECK(tessera::numeric::round_with(4503599627370497.0, rne) == 4503599627370497.0);  // 2^52 + 1
    CHECK(tessera::numeric::round_with(4503599627370495.5, rne) ==
          4503599627370496.0);  // 2^52 - 0.5
}
