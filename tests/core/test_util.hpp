// test_util.hpp: small helpers shared by the core tests (bit casts, hex text, mismatch counting).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace tessera_test {

inline std::uint32_t bits_of(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

inline float float_of(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

inline std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%X", v);
    return buf;
}

/// Counts mismatches in a long loop and remembers the first one, so a failing exhaustive test
/// reports one readable line instead of thousands of assertions.
struct mismatch_log {
    long count = 0;
    std::string first;

    void note(const std::string& what) {
        if (count++ == 0) first = what;
    }
    bool clean() const { return count == 0; }
};

}  // namespace tessera_test
