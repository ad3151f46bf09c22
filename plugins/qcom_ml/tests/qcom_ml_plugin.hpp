// qcom_ml_plugin.hpp: the qcom-ml plugin under test (QCOM_ML_PLUGIN, set by CMake) for the
// shared plugin test helpers (tests/common/plugin_test_support.hpp): loading it, running one op
// strictly on "qcom-ml!" against the reference, and its support answer for one op.
#pragma once

#include "common/plugin_test_support.hpp"

namespace qcom_test {

using namespace plugin_test;

inline void load_plugin() {
    plugin_test::load_plugin(QCOM_ML_PLUGIN, "qcom-ml");
}

/// Runs `op` strictly on qcom-ml and CHECKs it is placed there and within `tolerance` of
/// tessera::reference::execute (largest |got - ref| / (1 + |ref|)).
inline void check_op(const op_desc& op, const std::vector<tensor>& inputs,
                     double tolerance = 1e-5) {
    load_plugin();
    std::string report;
    const tensor got = run_op(op, inputs, "qcom-ml!", {}, &report).at(0);
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
