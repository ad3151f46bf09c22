// ops/common.cpp: what the op files share (see ops.hpp): policies and activation mapping.
#include <cmath>

#include "ops.hpp"

namespace tessera::plugins::openvx {

vx_policies policies_of(rounding_policy rounding, overflow_policy overflow,
                        const tensor_desc& src) {
    if (is_f32(src)) return {};
    return {vx_rounding(to_c(rounding)), vx_overflow(to_c(overflow))};
}

namespace {

bool integral(float v) {
    return std::isfinite(v) && v == std::trunc(v) && std::fabs(v) <= 2147483647.0f;
}

}  // namespace

std::optional<vx_activation> map_activation(const activation_spec& act, std::string* why) {
    auto no = [&](std::string text) -> std::optional<vx_activation> {
        if (why) *why = std::move(text);
        return std::nullopt;
    };
    auto with_integers = [&](vx_enum f, float a, float b,
                             const char* what) -> std::optional<vx_activation> {
        if (!integral(a) || !integral(b))
            return no(std::string(what) + " with a = " + std::to_string(a) +
                      ", b = " + std::to_string(b) + ": OpenVX activation parameters are integers");
        return vx_activation{f, static_cast<vx_int32>(a), static_cast<vx_int32>(b)};
    };
    switch (act.kind) {
        case activation_kind::relu:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, 0, 0};
        case activation_kind::relu6:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU, 6, 0};
        case activation_kind::bounded_relu:
            return with_integers(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU, act.a, 0.0f,
                                 "bounded relu");
        case activation_kind::tanh:
            return with_integers(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_HYPERBOLIC_TAN, act.a, act.b,
                                 "tanh");
        case activation_kind::sigmoid:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC, 0, 0};
        case activation_kind::soft_relu:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SOFTRELU, 0, 0};
        case activation_kind::abs:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS, 0, 0};
        case activation_kind::square:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQUARE, 0, 0};
        case activation_kind::sqrt:
            return vx_activation{VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQRT, 0, 0};
        case activation_kind::linear:
            return with_integers(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR, act.a, act.b,
                                 "linear");
        default:
            return no(std::string(to_string(act.kind)) +
                      " is none of OpenVX's nine activation functions");
    }
}

void add_activation(graph_builder& g, vx_tensor in, vx_tensor out, const vx_activation& a) {
    g.own_node(vxActivationLayer(g.graph(), in, a.function, a.a, a.b, out), "vxActivationLayer");
}

bool fused_activation_agrees(const activation_spec& act, const vx_policies& p) {
    if (p.rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN && p.overflow == VX_CONVERT_POLICY_SATURATE)
        return true;
    return act.kind == activation_kind::relu || act.kind == activation_kind::relu6 ||
           act.kind == activation_kind::bounded_relu;
}

std::optional<std::string> window_mismatch(const char* dim, std::int64_t in,
                                           std::int64_t pad_before, std::int64_t pad_after,
                                           std::int64_t kernel, std::int64_t stride,
                                           std::int64_t out, bool ceil) {
    if (pad_before != pad_after)
        return std::string("padding ") + std::to_string(pad_before) + "/" +
               std::to_string(pad_after) + " in " + dim +
               ": OpenVX pads both sides of a dimension alike";
    // OpenVX derives the stride from the sizes: the smallest skip whose output size matches.
    const std::int64_t span = in + 2 * pad_before - kernel;
    std::int64_t skip = 0;
    for (std::int64_t s = 1; span >= 0 && s <= span + 1 && skip == 0; ++s) {
        const std::int64_t o = (ceil ? (span + s - 1) / s : span / s) + 1;
        if (o == out) skip = s;
    }
    if (skip == stride || (out == 1 && skip == 1)) return std::nullopt;
    return std::string("stride ") + std::to_string(stride) + " in " + dim +
           ": OpenVX derives the stride from the sizes and gets " +
           (skip ? std::to_string(skip) : std::string("none")) +
           (ceil ? " (Tessera's ceil rounding drops a last window that starts in the padding; "
                   "OpenVX keeps it)"
                 : "");
}

}  // namespace tessera::plugins::openvx
