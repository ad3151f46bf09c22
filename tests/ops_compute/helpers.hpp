// helpers.hpp: helpers of the compute op tests on top of common/op_test_values.hpp: deterministic
// random values, closeness (relative) and error checks.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/op_test_values.hpp"
#include "tessera/error.hpp"

namespace compute_test {

using namespace op_test;

/// Deterministic pseudo-random values in [lo, hi) (64-bit LCG; no global state).
inline values_t random_values(std::int64_t n, std::uint64_t seed, double lo = -1.0,
                              double hi = 1.0) {
    values_t v(static_cast<std::size_t>(n));
    std::uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (auto& x : v) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x = lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0;
    }
    return v;
}

/// Random values that are exact in f32 multiples of 1/16 in [-2, 2): sums stay exact.
inline values_t random_grid(std::int64_t n, std::uint64_t seed) {
    values_t v = random_values(n, seed, -32.0, 32.0);
    for (auto& x : v) x = std::floor(x) / 16.0;
    return v;
}

inline tensor random_tensor(const shape& dims, std::uint64_t seed, double lo = -1.0,
                            double hi = 1.0) {
    return make(dims, random_values(dims.num_elements(), seed, lo, hi));
}

/// Element-wise |a - b| <= tol * (1 + |b|); reports the first mismatch.
inline void check_close(const values_t& a, const values_t& b, double tol = 1e-5) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool ok = (std::isinf(b[i]) && a[i] == b[i]) ||
                        std::fabs(a[i] - b[i]) <= tol * (1.0 + std::fabs(b[i]));
        if (!ok) {
            FAIL_CHECK("element " << i << ": " << a[i] << " vs expected " << b[i]);
            return;
        }
    }
}

/// Expects fn to throw tessera::error whose text contains every one of `parts`.
inline void expect_error(const std::function<void()>& fn, const std::vector<std::string>& parts) {
    try {
        fn();
        FAIL_CHECK("no error thrown; expected one mentioning " << (parts.empty() ? "" : parts[0]));
    } catch (const tessera::error& e) {
        const std::string text = e.what();
        CHECK(e.code() == status::invalid_argument);
        for (const auto& p : parts) {
            if (text.find(p) == std::string::npos)
                FAIL_CHECK("error '" << text << "' lacks '" << p << "'");
        }
    }
}

inline double dot(const values_t& a, const values_t& b) {
    REQUIRE(a.size() == b.size());
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

}  // namespace compute_test
