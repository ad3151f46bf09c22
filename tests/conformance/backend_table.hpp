// backend_table.hpp: the backends the conformance suite drives, each selected with a strict
// config (a decline is reported, never hidden by a fallback), and the per-backend tolerance
// against the reference backend. Plugins come from the build tree (paths set by CMake).
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace conformance {

/// |got - ref| <= k * (rel * |ref| + rel_to_max * max|ref|) + abs per element, where k is the
/// case's number of rounded steps (one for most ops; see conformance_case::roundings).
struct tolerance {
    double rel = 0.0;
    double rel_to_max = 0.0;
    double abs = 0.0;
};

struct backend_entry {
    std::string name;    ///< the backend's registered name
    std::string config;  ///< strict config string, e.g. "cpu!"
    std::string plugin;  ///< plugin file to load; empty for the built-in reference backend
    tolerance tol;
};

/// Every backend this build has, the reference backend first.
inline const std::vector<backend_entry>& backend_table() {
    static const std::vector<backend_entry> table = {
        // The built-in reference backend run through the graph compiler: must be exact.
        {"reference", "reference!", "", {0.0, 0.0, 0.0}},
#ifdef CONFORMANCE_CPU_PLUGIN
        // fp32 with reassociated sums (packed GEMM, blocked convolution).
        {"cpu", "cpu!", CONFORMANCE_CPU_PLUGIN, {1e-5, 1e-5, 1e-6}},
#endif
#ifdef CONFORMANCE_ZAIU_PLUGIN
        // plugins/zaiu/README.md "Precision": DLFLOAT16 storage, fp32 compute.
        {"zaiu", "zaiu!", CONFORMANCE_ZAIU_PLUGIN, {std::ldexp(1.0, -8), std::ldexp(1.0, -9), 0.0}},
#endif
#ifdef CONFORMANCE_QCOM_ML_PLUGIN
        // fp32 OpenCL kernels (qcom-ml plugin tests: 1e-5 relative).
        {"qcom-ml", "qcom-ml!", CONFORMANCE_QCOM_ML_PLUGIN, {1e-5, 1e-5, 1e-6}},
#endif
    };
    return table;
}

}  // namespace conformance
