// bf16_test.cpp: bfloat16 conversions (numeric/half.hpp): ties to even, NaN never becoming
// infinity, exhaustive round trip and every rounding boundary.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "tessera/numeric/half.hpp"
#include "test_util.hpp"

using tessera::numeric::bf16_to_f32;
using tessera::numeric::f32_to_bf16;
using namespace tessera_test;

namespace {
bool bf16_is_nan(std::uint16_t b) {
    return (b & 0x7F80u) == 0x7F80u && (b & 0x7Fu) != 0;
}
}  // namespace

TEST_CASE("bf16: ties to even and directed neighbours by hand") {
    CHECK(f32_to_bf16(1.0f) == 0x3F80);
    CHECK(f32_to_bf16(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);      // tie, 1.0 even
    CHECK(f32_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);  // tie, up
    CHECK(f32_to_bf16(std::nextafter(1.0f + std::ldexp(1.0f, -8), 2.0f)) == 0x3F81);
    CHECK(f32_to_bf16(std::nextafter(1.0f + 3 * std::ldexp(1.0f, -8), 0.0f)) == 0x3F81);
    CHECK(f32_to_bf16(-(1.0f + std::ldexp(1.0f, -8))) == 0xBF80);
    CHECK(f32_to_bf16(-(1.0f + 3 * std::ldexp(1.0f, -8))) == 0xBF82);
    CHECK(f32_to_bf16(3.14159265f) == 0x4049);
    CHECK(f32_to_bf16(0.0f) == 0x0000);
    CHECK(f32_to_bf16(-0.0f) == 0x8000);
    CHECK(f32_to_bf16(float_of(0x00008000u)) == 0x0000);              // subnormal tie, down to even
    CHECK(f32_to_bf16(float_of(0x00018000u)) == 0x0002);              // subnormal tie, up to even
    CHECK(f32_to_bf16(std::numeric_limits<float>::max()) == 0x7F80);  // rounds past the max
    CHECK(f32_to_bf16(float_of(0x7F7F7FFFu)) == 0x7F7F);
    CHECK(f32_to_bf16(INFINITY) == 0x7F80);
    CHECK(f32_to_bf16(-INFINITY) == 0xFF80);
}

TEST_CASE("bf16: NaN stays NaN, including payloads only in the dropped bits") {
    for (const std::uint32_t nan :
         {0x7FC00000u, 0x7F800001u, 0x7F80FFFFu, 0x7FFFFFFFu, 0xFF800001u, 0xFFC00000u}) {
        const std::uint16_t b = f32_to_bf16(float_of(nan));
        INFO(hex(nan) << " -> " << hex(b));
        CHECK(bf16_is_nan(b));
        CHECK((b & 0x8000u) == ((nan >> 16) & 0x8000u));
        CHECK(std::isnan(bf16_to_f32(b)));
    }
}

TEST_CASE("bf16: decode appends 16 zero bits, round trip of all 65536 patterns") {
    mismatch_log log;
    for (std::uint32_t b = 0; b <= 0xFFFF; ++b) {
        const float f = bf16_to_f32(static_cast<std::uint16_t>(b));
        if (bits_of(f) != b << 16) log.note("decode " + hex(b));
        const std::uint16_t back = f32_to_bf16(f);
        const bool ok = bf16_is_nan(static_cast<std::uint16_t>(b))
                            ? bf16_is_nan(back) && (back & 0x8000u) == (b & 0x8000u)
                            : back == b;
        if (!ok) log.note("round trip " + hex(b) + " -> " + hex(back));
    }
    INFO(log.first);
    CHECK(log.clean());
}

TEST_CASE("bf16: every rounding boundary between neighbours rounds to nearest even") {
    // The midpoint between b and b+1 is the fp32 pattern (b << 16) | 0x8000.
    mismatch_log log;
    for (std::uint32_t b = 0; b < 0x7F80; ++b) {
        const std::uint32_t mid = b << 16 | 0x8000u;
        const std::uint32_t even = (b & 1u) ? b + 1 : b;
        for (const std::uint32_t sign : {0u, 0x80000000u}) {
            const std::uint32_t s = sign >> 16;
            if (f32_to_bf16(float_of((mid - 1) | sign)) != (b | s))
                log.note("below mid of " + hex(b));
            if (f32_to_bf16(float_of(mid | sign)) != (even | s)) log.note("mid of " + hex(b));
            if (f32_to_bf16(float_of((mid + 1) | sign)) != ((b + 1) | s))
                log.note("above mid of " + hex(b));
        }
    }
    INFO(log.first);
    CHECK(log.clean());
}
