// helpers.hpp: helpers of the element-wise, data-movement, recurrent and custom op tests on top
// of common/op_test_values.hpp: value sequences, closeness (absolute, NaN-aware) and error checks.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/op_test_values.hpp"
#include "tessera/error.hpp"

namespace ops_test {

using namespace op_test;

/// 0, 1, 2, ... n-1 (plus `start`).
inline std::vector<double> iota(std::int64_t n, double start = 0) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < n; ++i) v.push_back(start + static_cast<double>(i));
    return v;
}

/// n deterministic pseudo-random values in [lo, hi) (a small LCG; no global state).
inline std::vector<double> pseudo_random(std::int64_t n, std::uint32_t seed, double lo = -1,
                                         double hi = 1) {
    std::vector<double> v;
    std::uint32_t s = seed * 2654435761u + 12345u;
    for (std::int64_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        v.push_back(lo + (hi - lo) * static_cast<double>(s >> 8) / 16777216.0);
    }
    return v;
}

/// Checks two value lists agree within an absolute tolerance (NaN matches NaN).
inline void check_close(const std::vector<double>& got, const std::vector<double>& want,
                        double tol = 1e-6) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            CHECK_MESSAGE(std::isnan(got[i]), "element " << i);
        } else if (std::isinf(want[i])) {
            CHECK_MESSAGE(got[i] == want[i],
                          "element " << i << ": got " << got[i] << ", want " << want[i]);
        } else {
            CHECK_MESSAGE(std::fabs(got[i] - want[i]) <= tol,
                          "element " << i << ": got " << got[i] << ", want " << want[i]);
        }
    }
}

/// Runs `fn`, which must throw tessera::error with `code`; every fragment must occur in what().
template <typename Fn>
void check_error(Fn&& fn, std::initializer_list<const char*> fragments,
                 status code = status::invalid_argument) {
    try {
        fn();
        FAIL("expected an error containing '" << std::string(*fragments.begin()) << "'");
    } catch (const error& e) {
        CHECK(e.code() == code);
        const std::string what = e.what();
        for (const char* f : fragments)
            CHECK_MESSAGE(what.find(f) != std::string::npos,
                          "'" << std::string(f) << "' not in: " << what);
    }
}

}  // namespace ops_test
