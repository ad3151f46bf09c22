// test_support.hpp: helpers of the cpu plugin tests: deterministic data, running one op on a
// backend through a one-node graph, comparing with the reference backend.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

namespace cpu_test {

using namespace tessera;

inline void load_cpu_plugin() {
    const auto r = plugin_registry::instance().load(CPU_PLUGIN);
    REQUIRE_MESSAGE((r.result == load_result::loaded || r.result == load_result::duplicate),
                    r.detail);
}

inline tensor data(const shape& s, int seed, float scale = 1.0f, float shift = 0.0f) {
    tensor t(tensor_desc(s, dtype::f32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] =
            scale * std::sin(0.37f * static_cast<float>(i) + 1.3f * static_cast<float>(seed)) +
            shift;
    return t;
}

/// Runs `op` on `inputs` as a one-node graph compiled for `config`; returns outputs and placement.
inline std::vector<tensor> run_op(const op_desc& op, const std::vector<tensor>& inputs,
                                  const std::string& config, std::string* placed_on = nullptr) {
    graph g;
    std::vector<graph::tensor_id> ids;
    std::map<std::string, tensor> feed;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string name = "in" + std::to_string(i);
        ids.push_back(g.input(name, inputs[i].desc()));
        feed[name] = inputs[i];
    }
    const auto outs = g.add("op", op, ids);
    for (auto o : outs) g.output(o);
    auto cg = g.compile(config);
    if (placed_on) *placed_on = cg.placements().at(0).backend;
    const auto result = cg.run(feed);
    std::vector<tensor> v;
    for (auto o : outs) v.push_back(result.at(g.tensors()[static_cast<std::size_t>(o)].name));
    return v;
}

/// |a - b| <= atol + rtol * |b| element-wise.
inline void check_close(const tensor& got, const tensor& want, float rtol = 1e-5f,
                        float atol = 1e-5f) {
    REQUIRE(got.dims() == want.dims());
    const tensor g = got.clone(), w = want.clone();
    int bad = 0;
    for (std::int64_t i = 0; i < g.num_elements(); ++i) {
        const float a = g.data_as<float>()[i], b = w.data_as<float>()[i];
        if (!(std::abs(a - b) <= atol + rtol * std::abs(b))) {
            if (++bad <= 5) FAIL_CHECK("element " << i << ": " << a << " vs reference " << b);
        }
    }
    CHECK(bad == 0);
}

}  // namespace cpu_test
