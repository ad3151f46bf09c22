// helpers.hpp: shared helpers of the element-wise, data-movement, recurrent and custom op tests:
// tensors from value lists, values back out, running a reference kernel, checking errors.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/detail/index.hpp"
#include "tessera/error.hpp"
#include "tessera/tensor.hpp"

namespace ops_test {

using namespace tessera;

/// A row-major tensor holding `values` (real values, stored in `type` with `q`).
inline tensor make(const shape& dims, const std::vector<double>& values, dtype type = dtype::f32,
                   const quantization& q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    REQUIRE(static_cast<std::int64_t>(values.size()) == t.num_elements());
    std::size_t i = 0;
    tessera::detail::for_each_index(dims, [&](const tessera::detail::index_t& idx) {
        numeric::store_real(type, q, t.address_of(idx), values[i++]);
    });
    return t;
}

/// A row-major tensor whose raw stored values are `raw` (integers as they are).
inline tensor make_raw(const shape& dims, const std::vector<double>& raw, dtype type,
                       const quantization& q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    REQUIRE(static_cast<std::int64_t>(raw.size()) == t.num_elements());
    std::size_t i = 0;
    tessera::detail::for_each_index(dims, [&](const tessera::detail::index_t& idx) {
        numeric::store_raw(type, t.address_of(idx), raw[i++]);
    });
    return t;
}

/// Real values in row-major order.
inline std::vector<double> values(const tensor& t) {
    std::vector<double> v;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& idx) {
        v.push_back(numeric::load_real(t.type(), t.desc().quant(), t.address_of(idx)));
    });
    return v;
}

/// Raw stored values in row-major order.
inline std::vector<double> raw_values(const tensor& t) {
    std::vector<double> v;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& idx) {
        v.push_back(numeric::load_raw(t.type(), t.address_of(idx)));
    });
    return v;
}

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

/// Descriptors of tensors.
inline std::vector<tensor_desc> descs(const std::vector<tensor>& ts) {
    std::vector<tensor_desc> d;
    for (const auto& t : ts) d.push_back(t.desc());
    return d;
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
