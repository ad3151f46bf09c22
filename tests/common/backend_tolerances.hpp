// backend_tolerances.hpp: how far each backend's results may be from the reference backend's,
// one row per backend, used by the conformance suite and the plugin tests alike. The figures
// are each backend's documented precision (README.md, "Precision per backend").
#pragma once

#include <cmath>
#include <string_view>

namespace tessera_test {

/// |got - ref| <= k * (rel * |ref| + rel_to_max * max|ref|) + abs per element, k the number of
/// rounded steps of the computation (one for most ops).
struct tolerance {
    double rel = 0.0;
    double rel_to_max = 0.0;
    double abs = 0.0;
};

struct backend_tolerance {
    std::string_view backend;
    tolerance tol;
    std::string_view why;
};

inline const backend_tolerance backend_tolerances[] = {
    {"reference", {0.0, 0.0, 0.0}, "the oracle, run through the graph compiler: exact"},
    {"cpu", {1e-5, 1e-5, 1e-6}, "fp32 with reassociated sums (packed GEMM, blocked convolution)"},
    {"zaiu",
     {1.0 / 256.0, 1.0 / 512.0, 0.0},
     "DLFLOAT16 storage, fp32 compute: 2^-8 |ref| + 2^-9 max|ref| per rounded step "
     "(plugins/zaiu/README.md)"},
    {"qcom-ml", {1e-5, 1e-5, 1e-6}, "fp32 OpenCL kernels"},
    {"myriad",
     {1.0 / 512.0, 1.0 / 256.0, 1e-6},
     "half storage (Myriad kernels are written for half; f32 tensors are rounded to half at the "
     "layer's boundary), fp32 arithmetic inside the shipped kernels"},
    {"openvx",
     {0.0, 0.0, 0.0},
     "i16 fixed point, i8 and u8 in the OpenVX provisional contract the reference implements: "
     "exact (plugins/openvx/README.md); f32 is declined unless precision=q7.8"},
};

/// The row of `backend`; an unknown backend gets an exact tolerance.
inline tolerance tolerance_of(std::string_view backend) {
    for (const auto& row : backend_tolerances)
        if (row.backend == backend) return row.tol;
    return {};
}

}  // namespace tessera_test
