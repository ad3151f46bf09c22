// op_test_values.hpp: what the op test suites share: tensors built from value lists (real or raw
// stored values), values read back in logical row-major order, and running one op on its
// reference kernel the way reference::execute does (every reference kernel is included first, so
// that run_ref sees every overload of reference::run).
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "tessera/detail/index.hpp"
#include "tessera/reference/execute.hpp"
#include "tessera/tensor.hpp"

namespace op_test {

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
inline values_t raw_values(const tensor& t) {
    values_t v;
    tessera::detail::for_each_index(t.dims(), [&](const tessera::detail::index_t& idx) {
        v.push_back(numeric::load_raw(t.type(), t.address_of(idx)));
    });
    return v;
}

/// Descriptors of tensors.
inline std::vector<tensor_desc> descs(const std::vector<tensor>& ts) {
    std::vector<tensor_desc> d;
    for (const auto& t : ts) d.push_back(t.desc());
    return d;
}

/// Runs one op's reference kernel: infer, allocate row-major outputs, compute.
template <typename Op>
std::vector<tensor> run_ref(const Op& op, const std::vector<tensor>& inputs) {
    std::vector<tensor> outputs;
    for (const auto& d : op.infer(descs(inputs))) outputs.emplace_back(d);
    reference::run(op, inputs, outputs);
    return outputs;
}

/// The single output of run_ref.
template <typename Op>
tensor run1(const Op& op, const std::vector<tensor>& inputs) {
    auto out = run_ref(op, inputs);
    REQUIRE(out.size() == 1);
    return out[0];
}

}  // namespace op_test
