// tessera/ops/elementwise.hpp: binary (add, sub, mul, min, max, div, pow in CLML's
// C = (alpha*A) op (beta*B) + gamma*C form, numpy broadcasting, OpenVX integer policies) and
// unary (log, exp, sqrt, rsqrt, neg, abs, erf, floor, ceil, round, sign, reciprocal and the
// trigonometric and hyperbolic functions).
#pragma once

#include <cmath>
#include <string_view>
#include <vector>

#include "tessera/c/ops_elementwise.h"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

constexpr std::string_view binary_op_name(std::int32_t op) {
    switch (op) {
        case TSR_BINARY_ADD:
            return "add";
        case TSR_BINARY_SUB:
            return "sub";
        case TSR_BINARY_MUL:
            return "mul";
        case TSR_BINARY_MIN:
            return "min";
        case TSR_BINARY_MAX:
            return "max";
        case TSR_BINARY_DIV:
            return "div";
        case TSR_BINARY_POW:
            return "pow";
        default:
            return "unknown";
    }
}

/// Binary element-wise op: out = (alpha*A) op (beta*B) + gamma*C.
/// Input order: A, B, [C]. A and B share a dtype (quantisation may differ) and broadcast numpy
/// style; the output has the broadcast shape and A's dtype and quantisation. C, the output's
/// previous content, is required when gamma != 0 and ignored otherwise; it has A's dtype and
/// broadcasts to the output shape. OpenVX vxTensorMultiplyNode's scale is alpha. Integer
/// tensors: exact arithmetic on real (dequantised) values, then `rounding` and `overflow`.
struct binary : pod_op<binary, tsr_binary_params, TSR_OP_BINARY> {
    static constexpr std::string_view name = "binary";

    binary() {
        op = TSR_BINARY_ADD;
        raw().alpha = 1.0f;
        raw().beta = 1.0f;
        raw().gamma = 0.0f;
        raw().rounding = TSR_ROUND_TO_NEAREST_EVEN;
        raw().overflow = TSR_OVERFLOW_SATURATE;
    }
    explicit binary(tsr_binary_op o) : binary() { op = o; }

    binary& set_op(tsr_binary_op o) {
        op = o;
        return *this;
    }
    explicit binary(binary_kind o) : binary(to_c(o)) {}
    binary& set_op(binary_kind o) { return set_op(to_c(o)); }
    /// The operation as a typed value (throws for a raw value outside the enum).
    binary_kind kind() const { return tessera::from_c<binary_kind>(op); }
    binary& set_alpha(float v) {
        raw().alpha = v;
        return *this;
    }
    binary& set_beta(float v) {
        raw().beta = v;
        return *this;
    }
    binary& set_gamma(float v) {
        raw().gamma = v;
        return *this;
    }
    /// OpenVX multiply's scale factor (stored as alpha).
    binary& set_scale(float v) {
        raw().alpha = v;
        return *this;
    }
    binary& set_rounding(tsr_rounding r) {
        raw().rounding = r;
        return *this;
    }
    binary& set_overflow(tsr_overflow o) {
        raw().overflow = o;
        return *this;
    }
    binary& set_rounding(rounding_policy r) { return set_rounding(to_c(r)); }
    binary& set_overflow(overflow_policy o) { return set_overflow(to_c(o)); }

    /// Scale of A (OpenVX multiply's scale).
    float alpha() const { return raw().alpha; }
    /// Scale of B.
    float beta() const { return raw().beta; }
    /// Scale of C, the output's previous content (0: C is not read).
    float gamma() const { return raw().gamma; }
    /// Integer outputs: how results round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }
    /// Integer outputs: what happens on overflow (throws for a raw value outside the enum).
    overflow_policy overflow() const { return tessera::from_c<overflow_policy>(raw().overflow); }

    /// Whether C is read (gamma != 0).
    bool uses_c() const { return raw().gamma != 0.0f; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("binary op", op, TSR_BINARY_ADD, TSR_BINARY_POW);
        check.enum_in_range("rounding", raw().rounding, TSR_ROUND_TO_ZERO,
                            TSR_ROUND_TO_NEAREST_EVEN);
        check.enum_in_range("overflow", raw().overflow, TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE);
        if (!std::isfinite(raw().alpha) || !std::isfinite(raw().beta) ||
            !std::isfinite(raw().gamma)) {
            check.fail("", "alpha, beta and gamma must be finite");
        }
        check.count(inputs, uses_c() ? 3 : 2, 3);
        const tensor_desc& a = inputs[0];
        const tensor_desc& b = inputs[1];
        check_valid_type(check, "A", a);
        if (a.type() == dtype::boolean) check.fail("A", "dtype bool is not numeric");
        check.same_type("B", b, a);
        check_valid_type(check, "B", b);
        check_non_negative_dims(check, "A", a);
        check_non_negative_dims(check, "B", b);
        const shape out = broadcast_shapes(check, a.dims(), b.dims(), "B");
        if (inputs.size() == 3) {
            check.same_type("C", inputs[2], a);
            check_valid_type(check, "C", inputs[2]);
            check_broadcasts_to(check, "C", inputs[2].dims(), out);
        }
        return {output_like(out, a)};
    }
};

constexpr std::string_view unary_op_name(std::int32_t op) {
    switch (op) {
        case TSR_UNARY_LOG:
            return "log";
        case TSR_UNARY_EXP:
            return "exp";
        case TSR_UNARY_SQRT:
            return "sqrt";
        case TSR_UNARY_RSQRT:
            return "rsqrt";
        case TSR_UNARY_NEG:
            return "neg";
        case TSR_UNARY_ABS:
            return "abs";
        case TSR_UNARY_ERF:
            return "erf";
        case TSR_UNARY_FLOOR:
            return "floor";
        case TSR_UNARY_CEIL:
            return "ceil";
        case TSR_UNARY_ROUND:
            return "round";
        case TSR_UNARY_SIGN:
            return "sign";
        case TSR_UNARY_RECIPROCAL:
            return "reciprocal";
        default:
            if (op > TSR_UNARY_RECIPROCAL && op <= TSR_UNARY_ATANH)
                return enum_info<unary_kind>::names[static_cast<std::size_t>(op)];
            return "unknown";
    }
}

/// Unary element-wise op. Input order: src. Output: like src. rsqrt is 1/sqrt(x + epsilon)
/// (zDNN invsqrt). Integer tensors: real values, rounded to nearest even and saturated.
struct unary : pod_op<unary, tsr_unary_params, TSR_OP_UNARY> {
    static constexpr std::string_view name = "unary";

    unary() {
        op = TSR_UNARY_EXP;
        raw().epsilon = 0.0f;
    }
    explicit unary(tsr_unary_op o, float eps = 0.0f) : unary() {
        op = o;
        raw().epsilon = eps;
    }

    unary& set_op(tsr_unary_op o) {
        op = o;
        return *this;
    }
    explicit unary(unary_kind o, float eps = 0.0f) : unary(to_c(o), eps) {}
    unary& set_op(unary_kind o) { return set_op(to_c(o)); }
    /// The operation as a typed value (throws for a raw value outside the enum).
    unary_kind kind() const { return tessera::from_c<unary_kind>(op); }
    unary& set_epsilon(float e) {
        raw().epsilon = e;
        return *this;
    }

    /// RSQRT only: 1/sqrt(x + epsilon).
    float epsilon() const { return raw().epsilon; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("unary op", op, TSR_UNARY_LOG, TSR_UNARY_ATANH);
        if (!std::isfinite(raw().epsilon) || raw().epsilon < 0) {
            check.fail("",
                       "epsilon is " + std::to_string(raw().epsilon) + ", must be finite and >= 0");
        }
        check.count(inputs, 1, 1);
        check_valid_type(check, "src", inputs[0]);
        if (inputs[0].type() == dtype::boolean) check.fail("src", "dtype bool is not numeric");
        check_non_negative_dims(check, "src", inputs[0]);
        return {output_like(inputs[0].dims(), inputs[0])};
    }
};

}  // namespace tessera::op
