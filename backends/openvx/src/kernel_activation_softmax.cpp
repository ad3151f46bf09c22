// kernel_activation_softmax.cpp: the nine activation functions and softmax (over dimension 0,
// the higher dimensions being the batch), computed on real values in double and stored rounded to
// nearest (ties to even) with saturation.
#include <algorithm>
#include <cmath>
#include <limits>

#include "fixed_point.hpp"
#include "kernels.hpp"

namespace openvx {

namespace {

double activate(vx_enum function, double x, double a, double b) {
    switch (function) {
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC:
            return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x));
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_HYPERBOLIC_TAN:
            return a * std::tanh(b * x);
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU:
            return x > 0 ? x : 0.0;
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU:
            return x > 0 ? (x < a ? x : a) : 0.0;
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SOFTRELU:
            return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS:
            return std::fabs(x);
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQUARE:
            return x * x;
        case VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQRT:
            return std::sqrt(x);
        default:  // linear
            return a * x + b;
    }
}

std::int64_t to_raw(double real, const tensor_span& out) {
    const std::int64_t raw =
        fixed::round_real(std::ldexp(real, out.fixed_point_pos), VX_ROUND_POLICY_TO_NEAREST_EVEN);
    return fixed::narrow_to(raw, out.type, VX_CONVERT_POLICY_SATURATE);
}

}  // namespace

std::int64_t activation_raw(const _vx_node& node, std::int64_t raw) {
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 1));
    const node_config& c = node.config;
    const double x = static_cast<double>(raw) * std::ldexp(1.0, -in.fixed_point_pos);
    return to_raw(activate(c.function, x, c.a, c.b), out);
}

void run_activation(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 1));
    const node_config& c = node.config;
    const double unit = std::ldexp(1.0, -in.fixed_point_pos);
    for (vx_size i = 0; i < in.num_elements(); ++i) {
        const double x = static_cast<double>(in.load(in.offset_of(i))) * unit;
        out.store(out.offset_of(i), to_raw(activate(c.function, x, c.a, c.b), out));
    }
}

void run_softmax(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 1));
    const double unit = std::ldexp(1.0, -in.fixed_point_pos);
    const vx_size length = in.dim(0);
    const vx_size rows = in.num_elements() / length;
    std::vector<double> x(length);
    for (vx_size r = 0; r < rows; ++r) {
        const vx_size in_base = in.offset_of(r * length), out_base = out.offset_of(r * length);
        double max = -std::numeric_limits<double>::infinity();
        for (vx_size k = 0; k < length; ++k) {
            x[k] = static_cast<double>(in.load(in_base + k * in.stride(0))) * unit;
            max = std::max(max, x[k]);
        }
        double sum = 0.0;
        for (vx_size k = 0; k < length; ++k) sum += std::exp(x[k] - max);
        for (vx_size k = 0; k < length; ++k) {
            out.store(out_base + k * out.stride(0), to_raw(std::exp(x[k] - max) / sum, out));
        }
    }
}

}  // namespace openvx
