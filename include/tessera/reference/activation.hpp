// tessera/reference/activation.hpp: reference kernel of op::activation.
#pragma once

#include <cmath>
#include <vector>

#include "tessera/ops/activation.hpp"
#include "tessera/reference/element_access.hpp"
#include "tessera/tensor.hpp"

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

inline void run(const op::activation& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& src = in[0];
    const tensor& dst = out[0];
    const int rank = src.desc().rank();
    // PReLU: a rank-1 slope of extent C reads slope[c] (c = dim 1); otherwise it broadcasts.
    tensor slope_view;
    if (op.has_slope()) {
        slope_view = in[1];
        const bool per_channel = rank >= 2 && in[1].desc().rank() == 1 && in[1].desc().dim(0) != 1;
        if (per_channel) {
            shape s;
            for (int i = 0; i < rank; ++i) s.push_back(i == 1 ? in[1].desc().dim(0) : 1);
            slope_view = in[1].reshape(s);
        }
    }
    const double clip = op.clipping_value;
    const detail::broadcast_reader x(src, rank);
    const detail::broadcast_reader slope(op.has_slope() ? slope_view : src, rank);
    tessera::detail::for_each_index(src.dims(), [&](const detail::index_t& idx) {
        const double v = x.load(idx);
        double y = std::isnan(v) ? (op.propagate_nan ? v : 0.0)
                                 : activate(op.act, v, op.has_slope() ? slope.load(idx) : 0.0);
        if (clip > 0 && y > clip) y = clip;
        detail::store(dst, idx, y);
    });
}

}  // namespace tessera::reference
