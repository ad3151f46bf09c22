// helpers.hpp: shared helpers of the compute op tests: tensors from value lists, deterministic
// random values, values back out, running a reference kernel (all compute kernels are included
// here so that run_ref sees every overload), closeness and error checks.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/detail/index.hpp"
#include "tessera/error.hpp"
#include "tessera/reference/conv2d.hpp"
#include "tessera/reference/fully_connected.hpp"
#include "tessera/reference/gemm.hpp"
#include "tessera/reference/matmul.hpp"
#include "tessera/reference/normalization.hpp"
#include "tessera/reference/pooling.hpp"
#include "tessera/reference/reduction.hpp"
#include "tessera/reference/softmax.hpp"
#include "tessera/tensor.hpp"

namespace compute_test {

using namespace tessera;
using values_t = std::vector<double>;

/// A row-major tensor holding `values` (real values, stored in `type` with `q`).
inline tensor make(const shape& dims, const values_t& values, dtype type = dtype::f32,
                   const quantization& q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    REQUIRE(static_cast<std::int64_t>(values.size()) == t.num_elements());
    std::size_t i = 0;
    tessera::detail::for_each_index(dims, [&](const tessera::detail::index_t& idx) {
        numeric::store_real(type, q, t.address_of(idx), values[i++]);
    });
    return t;
}

/// A row-major tensor whose stored values are `raw` (integers as they are).
inline tensor make_raw(const shape& dims, const values_t& raw, dtype type,
                       const quantization& q = {}) {
    tensor t(tensor_desc(dims, type, layout::row_major(), q));
    REQUIRE(static_cast<std::int64_t>(raw.size()) == t.num_elements());
    std::size_t i = 0;
    tessera::detail::for_each_index(dims, [&](const tessera::detail::index_t& idx) {
        numeric::store_raw(type, t.address_of(idx), raw[i++]);
    });
    return t;
}

/// Real values of any tensor in logical row-major order.
inline values_t values(const tensor& t) {
    values_t v;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& idx) {
        v.push_back(numeric::load_real(t.type(), t.desc().quant(), t.address_of(idx)));
    });
    return v;
}

/// Stored values of any tensor in logical row-major order.
inline values_t raw(const tensor& t) {
    values_t v;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& idx) {
        v.push_back(numeric::load_raw(t.type(), t.address_of(idx)));
    });
    return v;
}

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

inline std::vector<tensor_desc> descs(const std::vector<tensor>& ts) {
    std::vector<tensor_desc> d;
    for (const auto& t : ts) d.push_back(t.desc());
    return d;
}

/// Runs a reference kernel the way reference::execute does for row-major inputs.
template <typename Op>
std::vector<tensor> run_ref(const Op& op, const std::vector<tensor>& inputs) {
    std::vector<tensor> outputs;
    for (const auto& d : op.infer(descs(inputs))) outputs.emplace_back(d);
    reference::run(op, inputs, outputs);
    return outputs;
}

template <typename Op>
tensor run1(const Op& op, const std::vector<tensor>& inputs) {
    auto out = run_ref(op, inputs);
    REQUIRE(out.size() == 1);
    return out[0];
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
