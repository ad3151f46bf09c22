// tessera/reference/activation_function.hpp: f(x) of every activation kind, in double, as
// tessera/c/ops.h defines them. The one definition used by the activation op and by every fused
// activation (conv2d, fully_connected, batchnorm).
#pragma once

#include <cmath>

#include "tessera/c/ops.h"

namespace tessera::reference {

/// f(x) of an activation spec (tessera/c/ops.h formulas); `slope` is PReLU's.
inline double activate(const tsr_activation_spec& s, double x, double slope = 0.0) {
    const double a = s.a, b = s.b;
    switch (s.kind) {
        case TSR_ACT_NONE:
            return x;
        case TSR_ACT_RELU:
            return x > 0 ? x : 0.0;
        case TSR_ACT_RELU6:
            return x > 0 ? (x < 6 ? x : 6.0) : 0.0;
        case TSR_ACT_BOUNDED_RELU:
            return x > 0 ? (x < a ? x : a) : 0.0;
        case TSR_ACT_LEAKY_RELU:
            return x > 0 ? x : a * x;
        case TSR_ACT_PRELU:
            return x > 0 ? x : slope * x;
        case TSR_ACT_ELU:
            return x > 0 ? x : a * std::expm1(x);
        case TSR_ACT_TANH:
            return a * std::tanh(b * x);
        case TSR_ACT_SIGMOID:
            return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x));
        case TSR_ACT_SOFT_RELU:
            return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
        case TSR_ACT_ABS:
            return std::fabs(x);
        case TSR_ACT_SQUARE:
            return x * x;
        case TSR_ACT_SQRT:
            return std::sqrt(x);
        case TSR_ACT_LINEAR:
            return a * x + b;
        case TSR_ACT_GELU:
            if (a != 0) {
                const double k = std::sqrt(2.0 / 3.14159265358979323846);
                return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
            }
            return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        case TSR_ACT_CLIP:
            return x < a ? a : (x > b ? b : x);
        default:
            return x;
    }
}

}  // namespace tessera::reference
