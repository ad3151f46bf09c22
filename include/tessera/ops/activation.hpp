// tessera/ops/activation.hpp: activation, y = f(x) element-wise for every tsr_activation_kind
// (formulas in tessera/c/ops.h). Inputs: src, and for PReLU also slope. Output: like src.
#pragma once

#include <cmath>
#include <string_view>
#include <vector>

#include "tessera/c/ops_elementwise.h"
#include "tessera/ops/activation_spec.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Name of an activation kind ("relu", ...), or "unknown".
constexpr std::string_view activation_name(std::int32_t kind) {
    switch (kind) {
        case TSR_ACT_NONE:
            return "none";
        case TSR_ACT_RELU:
            return "relu";
        case TSR_ACT_RELU6:
            return "relu6";
        case TSR_ACT_BOUNDED_RELU:
            return "bounded_relu";
        case TSR_ACT_LEAKY_RELU:
            return "leaky_relu";
        case TSR_ACT_PRELU:
            return "prelu";
        case TSR_ACT_ELU:
            return "elu";
        case TSR_ACT_TANH:
            return "tanh";
        case TSR_ACT_SIGMOID:
            return "sigmoid";
        case TSR_ACT_SOFT_RELU:
            return "soft_relu";
        case TSR_ACT_ABS:
            return "abs";
        case TSR_ACT_SQUARE:
            return "square";
        case TSR_ACT_SQRT:
            return "sqrt";
        case TSR_ACT_LINEAR:
            return "linear";
        case TSR_ACT_GELU:
            return "gelu";
        case TSR_ACT_CLIP:
            return "clip";
        case TSR_ACT_HARD_SIGMOID:
            return "hard_sigmoid";
        case TSR_ACT_HARD_SWISH:
            return "hard_swish";
        case TSR_ACT_MISH:
            return "mish";
        case TSR_ACT_SELU:
            return "selu";
        case TSR_ACT_THRESHOLDED_RELU:
            return "thresholded_relu";
        case TSR_ACT_SOFTSIGN:
            return "softsign";
        default:
            return "unknown";
    }
}

/// Validates an activation spec (kind known, parameters finite and sensible); shared with ops
/// that fuse an activation.
inline void check_activation_spec(const checker& check, const tsr_activation_spec& s) {
    check.enum_in_range("activation kind", s.kind, TSR_ACT_NONE, TSR_ACT_SOFTSIGN);
    if (!std::isfinite(s.a) || !std::isfinite(s.b)) {
        check.fail("", std::string(activation_name(s.kind)) + " parameters a and b must be finite");
    }
    if (s.kind == TSR_ACT_BOUNDED_RELU && s.a < 0) {
        check.fail("", "bounded_relu bound a is " + std::to_string(s.a) + ", must be >= 0");
    }
    if (s.kind == TSR_ACT_CLIP && s.a > s.b) {
        check.fail("", "clip lower bound a " + std::to_string(s.a) + " exceeds upper bound b " +
                           std::to_string(s.b));
    }
}

/// Activation. Input order: src [any shape], slope (PReLU only: rank 1 of extent src dim 1 for a
/// src of rank >= 2 (per channel), otherwise any shape broadcastable to src). Floating types
/// compute in f32; integer types (i8/u8 quantised, i16 fixed point as OpenVX Q7.8, i32) on their
/// real values, stored rounding to nearest even and saturating.
struct activation : pod_op<activation, tsr_activation_params, TSR_OP_ACTIVATION> {
    static constexpr std::string_view name = "activation";

    activation() {
        act = tsr_activation_spec{TSR_ACT_RELU, 0.0f, 0.0f};
        raw().propagate_nan = 1;
    }
    /// The kind with its usual parameters: tanh a = b = 1 (plain tanh), linear a = 1 (identity),
    /// elu a = 1, hard_sigmoid a = 0.2 b = 0.5, hard_swish a = 1/6 b = 0.5, selu ONNX's alpha and
    /// gamma, thresholded_relu a = 1; every other parameter 0 (gelu: the erf form).
    explicit activation(tsr_activation_kind kind)
        : activation(kind, default_a(kind), default_b(kind)) {}
    activation(tsr_activation_kind kind, float a, float b = 0.0f) : activation() {
        act = tsr_activation_spec{kind, a, b};
    }
    explicit activation(activation_kind kind) : activation(to_c(kind)) {}
    activation(activation_kind kind, float a, float b = 0.0f) : activation(to_c(kind), a, b) {}
    static constexpr float default_a(tsr_activation_kind k) {
        switch (k) {
            case TSR_ACT_TANH:
            case TSR_ACT_LINEAR:
            case TSR_ACT_ELU:
            case TSR_ACT_THRESHOLDED_RELU:
                return 1.0f;
            case TSR_ACT_HARD_SIGMOID:
                return 0.2f;
            case TSR_ACT_HARD_SWISH:
                return 1.0f / 6.0f;
            case TSR_ACT_SELU:
                return 1.67326319217681884765625f;
            default:
                return 0.0f;
        }
    }
    static constexpr float default_b(tsr_activation_kind k) {
        switch (k) {
            case TSR_ACT_TANH:
                return 1.0f;
            case TSR_ACT_HARD_SIGMOID:
            case TSR_ACT_HARD_SWISH:
                return 0.5f;
            case TSR_ACT_SELU:
                return 1.05070102214813232421875f;
            default:
                return 0.0f;
        }
    }

    activation& set_kind(tsr_activation_kind kind) {
        act.kind = kind;
        return *this;
    }
    activation& set_kind(activation_kind kind) { return set_kind(to_c(kind)); }
    /// The kind as a typed value (throws for a raw value outside the enum).
    activation_kind kind() const { return tessera::from_c<activation_kind>(act.kind); }
    activation& set_a(float value) {
        act.a = value;
        return *this;
    }
    activation& set_b(float value) {
        act.b = value;
        return *this;
    }
    activation& set_spec(const tsr_activation_spec& spec) {
        act = spec;
        return *this;
    }
    activation& set_spec(const activation_spec& spec) { return set_spec(spec.to_c()); }
    /// The kind with its parameters (throws for a raw kind outside the enum).
    activation_spec spec() const { return activation_spec::from_c(act); }
    /// Parameter a of the kind's formula (tessera/c/ops.h).
    float a() const { return act.a; }
    /// Parameter b of the kind's formula.
    float b() const { return act.b; }
    /// zDNN's clipping_value: y = min(f(x), value) when value > 0; 0 disables it.
    activation& set_clipping_value(float value) {
        raw().clipping_value = value;
        return *this;
    }
    activation& set_propagate_nan(bool on) {
        raw().propagate_nan = on ? 1 : 0;
        return *this;
    }

    /// Whether a NaN input gives NaN (default) rather than 0 (CLML).
    bool propagate_nan() const { return raw().propagate_nan != 0; }
    /// zDNN's clipping_value: y = min(f(x), value) when value > 0; 0: no clipping.
    float clipping_value() const { return raw().clipping_value; }

    bool has_slope() const { return act.kind == TSR_ACT_PRELU; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_activation_spec(check, act);
        check_flag(check, "propagate_nan", raw().propagate_nan);
        if (!std::isfinite(raw().clipping_value) || raw().clipping_value < 0) {
            check.fail("", "clipping_value is " + std::to_string(raw().clipping_value) +
                               ", must be finite and >= 0");
        }
        const std::size_t n = has_slope() ? 2 : 1;
        check.count(inputs, n, n);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        if (src.type() == dtype::boolean) check.fail("src", "dtype bool is not numeric");
        check_non_negative_dims(check, "src", src);
        if (has_slope()) {
            const tensor_desc& slope = inputs[1];
            check_valid_type(check, "slope", slope);
            if (slope.type() == dtype::boolean) check.fail("slope", "dtype bool is not numeric");
            if (src.rank() >= 2 && slope.rank() == 1 && slope.dim(0) != 1) {
                check.dim("slope", slope, 0, src.dim(1), "C");
            } else {
                check_broadcasts_to(check, "slope", slope.dims(), src.dims());
            }
        }
        return {output_like(src.dims(), src)};
    }
};

}  // namespace tessera::op
