// test_support.hpp: helpers of the qcom-ml plugin tests: loading the plugin under test,
// deterministic inputs, running one op or a graph on "qcom-ml" and comparing with the reference.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

namespace qcom_test {

using namespace tessera;

/// Loads the plugin built next to this test (QCOM_ML_PLUGIN) once.
inline void load_plugin() {
    static const bool loaded = [] {
        const auto r = plugin_registry::instance().load(QCOM_ML_PLUGIN);
        return r.result == load_result::loaded || r.result == load_result::duplicate ||
               plugin_registry::instance().find("qcom-ml");
    }();
    REQUIRE(loaded);
    REQUIRE(plugin_registry::instance().find("qcom-ml") != nullptr);
}

/// Deterministic values in [lo, hi].
inline tensor values(const shape& dims, int seed, float lo = -1.0f, float hi = 1.0f) {
    tensor t(tensor_desc(dims, dtype::f32));
    auto* p = t.data_as<float>();
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        const float u = 0.5f + 0.5f * std::sin(0.917f * static_cast<float>(i) +
                                               2.3f * static_cast<float>(seed) + 0.1f);
        p[i] = lo + (hi - lo) * u;
    }
    return t;
}

/// Largest |got - want| / (1 + |want|); REQUIREs equal shapes.
inline double max_rel_diff(const tensor& got, const tensor& want) {
    REQUIRE(got.dims() == want.dims());
    auto as_f32 = [](const tensor& t) {
        if (t.type() == dtype::f32 && t.desc().is_row_major()) return t;
        tensor out(t.desc().with_layout(layout::row_major()).with_type(dtype::f32));
        tensor::copy_elements(t, out);
        return out;
    };
    const tensor g = as_f32(got), w = as_f32(want);
    double worst = 0.0;
    for (std::int64_t i = 0; i < w.num_elements(); ++i) {
        const double a = g.data_as<float>()[i], b = w.data_as<float>()[i];
        const double d = std::isnan(a) != std::isnan(b)
                             ? 1e30
                             : (std::isnan(a) ? 0.0 : std::abs(a - b) / (1.0 + std::abs(b)));
        worst = std::max(worst, d);
    }
    return worst;
}

/// One op as a graph (every input a graph input) compiled for `config`; returns the output
/// and, through `report`, the placement report.
inline tensor run_op(const std::string& config, const op_desc& op,
                     const std::vector<tensor>& inputs, std::string* report = nullptr) {
    graph g;
    std::vector<graph::tensor_id> ids;
    std::map<std::string, tensor> feeds;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string name = "in" + std::to_string(i);
        ids.push_back(g.input(name, inputs[i].desc()));
        feeds.emplace(name, inputs[i]);
    }
    g.output(g.apply("op", op, ids));
    compiled_graph cg = g.compile(config);
    if (report) *report = cg.placement_report();
    return cg.run(feeds).at("op");
}

/// Runs `op` strictly on qcom-ml and checks it against tessera::reference::execute.
inline void check_op(const op_desc& op, const std::vector<tensor>& inputs,
                     double tolerance = 1e-5) {
    load_plugin();
    std::string report;
    const tensor got = run_op("qcom-ml!", op, inputs, &report);
    const tensor want = reference::execute(op, inputs).at(0);
    INFO(report);
    CHECK(report.find("-> qcom-ml") != std::string::npos);
    CHECK(max_rel_diff(got, want) <= tolerance);
}

/// The support answer of qcom-ml for one op.
inline op_support query_op(const op_desc& op, const std::vector<tensor_desc>& inputs) {
    load_plugin();
    backend b = backend::create("qcom-ml");
    std::vector<tensor_desc> outputs;
    for (const auto& d : op.infer(inputs)) outputs.push_back(d.with_layout(layout::any()));
    return b.query(op, inputs, outputs, "probe");
}

}  // namespace qcom_test
