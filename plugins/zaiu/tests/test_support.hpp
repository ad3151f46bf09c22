// test_support.hpp: helpers of the zaiu plugin tests: deterministic data already representable
// in DLFLOAT16 ("cleansed"), one-op graphs, and the documented tolerance check.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <tessera/numeric/dlfloat16.hpp>
#include <tessera/tessera.hpp>

namespace zaiu_test {

using namespace tessera;

/// Rounds through DLFLOAT16 so the reference sees exactly what the zAIU holds.
inline float cleanse(float v) {
    return numeric::dlfloat16_to_f32(numeric::f32_to_dlfloat16(v));
}

/// Deterministic values in [lo, hi], DLFLOAT16-exact.
inline tensor random_tensor(const shape& dims, float lo, float hi, std::uint32_t seed) {
    tensor t(tensor_desc(dims, dtype::f32));
    std::uint32_t state = seed * 2654435761u + 12345u;
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        state = state * 1664525u + 1013904223u;
        const float u = static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
        t.data_as<float>()[i] = cleanse(lo + (hi - lo) * u);
    }
    return t;
}

/// The documented tolerance (README): |zaiu - ref| <= ops * (2^-8 |ref| + 2^-9 max|ref|).
inline void check_close(const tensor& actual, const tensor& expected, int ops = 1,
                        const std::string& what = "") {
    REQUIRE(actual.dims() == expected.dims());
    auto as_f32 = [](const tensor& t) {
        if (t.type() == dtype::i32) return t.clone();
        tensor f(tensor_desc(t.dims(), dtype::f32));
        tensor::copy_elements(t, f);
        return f;
    };
    const tensor a = as_f32(actual), e = as_f32(expected);
    const std::int64_t n = e.num_elements();
    auto value = [](const tensor& t, std::int64_t i) {
        return t.type() == dtype::i32 ? static_cast<double>(t.data_as<std::int32_t>()[i])
                                      : static_cast<double>(t.data_as<float>()[i]);
    };
    double largest = 0.0;
    for (std::int64_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(value(e, i)));
    int bad = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double x = value(a, i), r = value(e, i);
        const double tol = ops * (std::ldexp(std::fabs(r), -8) + std::ldexp(largest, -9));
        if (!(std::fabs(x - r) <= tol)) {
            if (bad++ < 5) {
                INFO(what << " element " << i << ": zaiu " << x << " reference " << r
                          << " tolerance " << tol);
                CHECK(std::fabs(x - r) <= tol);
            }
        }
    }
    CHECK_MESSAGE(bad == 0,
                  what << ": " << bad << " of " << n << " elements outside the tolerance");
}

/// Runs one op as a graph compiled with `config`; inputs marked constant become graph constants.
inline std::vector<tensor> run_graph_op(const op_desc& op, const std::vector<tensor>& inputs,
                                        const std::string& config,
                                        const std::vector<bool>& constant = {},
                                        std::string* report = nullptr) {
    graph g;
    std::vector<graph::tensor_id> ids;
    std::map<std::string, tensor> feeds;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string name = "in" + std::to_string(i);
        if (i < constant.size() && constant[i]) {
            ids.push_back(g.constant(name, inputs[i]));
        } else {
            ids.push_back(g.input(name, inputs[i].desc()));
            feeds[name] = inputs[i];
        }
    }
    const auto outs = g.add("op", op, ids);
    for (auto o : outs) g.output(o);
    compiled_graph cg = g.compile(config);
    if (report) *report = cg.placement_report();
    auto results = cg.run(feeds);
    std::vector<tensor> out;
    for (auto o : outs) out.push_back(results.at(g.tensors()[static_cast<std::size_t>(o)].name));
    return out;
}

/// Checks one op on the zaiu backend (strict) against the reference kernels.
inline void check_op(const op_desc& op, const std::vector<tensor>& inputs,
                     const std::vector<bool>& constant = {}, int ops = 1) {
    const auto expected = reference::execute(op, inputs);
    const auto actual = run_graph_op(op, inputs, "zaiu!", constant);
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
        check_close(actual[i], expected[i], ops,
                    std::string(op.name()) + " output " + std::to_string(i));
}

}  // namespace zaiu_test
