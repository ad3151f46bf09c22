// tessera/reference/activation_function.hpp: f(x) of every activation kind, in double, as
// tessera/c/ops.h defines them. The one definition used by the activation op and by every fused
// activation (conv2d, fully_connected, batchnorm).
#pragma once

#include <cmath>

#include "tessera/ops/activation_spec.hpp"

namespace tessera::reference {

/// f(x) of an activation spec (tessera/c/ops.h formulas); `slope` is PReLU's.
inline double activate(const activation_spec& s, double x, double slope = 0.0) {
    const double a = s.a, b = s.b;
    switch (s.kind) {
        case activation_kind::none:
            return x;
        case activation_kind::relu:
            return x > 0 ? x : 0.0;
        case activation_kind::relu6:
            return x > 0 ? (x < 6 ? x : 6.0) : 0.0;
        case activation_kind::bounded_relu:
            return x > 0 ? (x < a ? x : a) : 0.0;
        case activation_kind::leaky_relu:
            return x > 0 ? x : a * x;
        case activation_kind::prelu:
            return x > 0 ? x : slope * x;
        case activation_kind::elu:
            return x > 0 ? x : a * std::expm1(x);
        case activation_kind::tanh:
            return a * std::tanh(b * x);
        case activation_kind::sigmoid:
            return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x));
        case activation_kind::soft_relu:
            return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
        case activation_kind::abs:
            return std::fabs(x);
        case activation_kind::square:
            return x * x;
        case activation_kind::sqrt:
            return std::sqrt(x);
        case activation_kind::linear:
            return a * x + b;
        case activation_kind::gelu:
            if (a != 0) {
                const double k = std::sqrt(2.0 / 3.14159265358979323846);
                return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
            }
            return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        case activation_kind::clip:
            return x < a ? a : (x > b ? b : x);
        case activation_kind::hard_sigmoid: {
            const double y = a * x + b;
            return std::isnan(y) ? y : (y < 0 ? 0.0 : (y > 1 ? 1.0 : y));
        }
        case activation_kind::hard_swish: {
            const double y = a * x + b;
            return std::isnan(y) ? y : x * (y < 0 ? 0.0 : (y > 1 ? 1.0 : y));
        }
        case activation_kind::mish: {
            const double sp = x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
            return x * std::tanh(sp);
        }
        case activation_kind::selu:
            return x > 0 ? b * x : b * a * std::expm1(x);
        case activation_kind::thresholded_relu:
            return x > a ? x : (std::isnan(x) ? x : 0.0);
        case activation_kind::softsign:
            return x / (1.0 + std::fabs(x));
        default:
            return x;
    }
}

}  // namespace tessera::reference
