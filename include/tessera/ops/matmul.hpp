// tessera/ops/matmul.hpp: matmul (zDNN matmul_op, matmul_bcast_op, matmul_transpose_op) and
// quantized_matmul (zDNN quantized_matmul_op): stacked or broadcast matrix products followed by
// an addition of, or a comparison with, a third input.
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Shapes of a (possibly stacked, possibly broadcast) matrix product A * B (+ C).
struct matmul_geometry {
    std::int64_t stacks = 0;  ///< 0 when unstacked (2-D result)
    std::int64_t m = 0, n = 0, p = 0;
    bool a_stacked = false, b_stacked = false, c_stacked = false;

    shape output_shape() const { return stacks ? shape{stacks, m, p} : shape{m, p}; }

    /// Validates A [m,n]/[s,m,n], B [n,p]/[s,n,p] and an optional C [p]/[s,p]; `ta`/`tb` swap the
    /// last two dims of A/B.
    static matmul_geometry of(const checker& check, const tensor_desc& a, const tensor_desc& b,
                              const tensor_desc* c, bool ta, bool tb) {
        check.rank_between("A", a, 2, 3);
        check.rank_between("B", b, 2, 3);
        check.positive_dims("A", a);
        check.positive_dims("B", b);
        matmul_geometry g;
        g.a_stacked = a.rank() == 3;
        g.b_stacked = b.rank() == 3;
        const int ar = a.rank() - 2, br = b.rank() - 2;
        g.m = a.dim(ar + (ta ? 1 : 0));
        g.n = a.dim(ar + (ta ? 0 : 1));
        check.dim("B", b, br + (tb ? 1 : 0), g.n, "n, the inner dimension");
        g.p = b.dim(br + (tb ? 0 : 1));
        if (g.a_stacked && g.b_stacked) check.dim("B", b, 0, a.dim(0), "s, stacks of A");
        g.stacks = g.a_stacked ? a.dim(0) : (g.b_stacked ? b.dim(0) : 0);
        if (c) {
            check.rank_between("C", *c, 1, 2);
            g.c_stacked = c->rank() == 2;
            check.dim("C", *c, c->rank() - 1, g.p, "p");
            if (g.c_stacked) {
                if (!g.stacks) check.fail("C", "rank is 2 ([s, p]) but A and B are not stacked");
                check.dim("C", *c, 0, g.stacks, "s");
            }
        }
        return g;
    }
};

inline void check_matmul_op(const checker& check, std::int32_t op) {
    check.enum_in_range("op", op, TSR_MATMUL_ADDITION, TSR_MATMUL_LESSER);
}

/// Matrix product with an optional fused addition or comparison. Inputs, in order:
///   0 A  [m, n] or [s, m, n]  (transpose_a: [n, m] / [s, n, m])
///   1 B  [n, p] or [s, n, p]  (transpose_b: [p, n] / [s, p, n])
///   2 C  [p] or [s, p]        (optional for ADDITION, required for comparisons)
/// A 2-D A or B is broadcast over the other's stacks. Output [m, p] or [s, m, p]: the product
/// plus C, or 1.0/0.0 for (product OP C). Floating only.
struct matmul : pod_op<matmul, tsr_matmul_params, TSR_OP_MATMUL> {
    static constexpr std::string_view name = "matmul";

    matmul() { op = TSR_MATMUL_ADDITION; }

    matmul& operation(tsr_matmul_op o) {
        op = o;
        return *this;
    }
    matmul& operation(matmul_kind o) { return operation(to_c(o)); }
    matmul& transpose(bool a, bool b) {
        raw().transpose_a = a ? 1 : 0;
        raw().transpose_b = b ? 1 : 0;
        return *this;
    }

    /// What is done with C after the product (throws for a raw value outside the enum).
    matmul_kind kind() const { return tessera::from_c<matmul_kind>(op); }
    bool transpose_a() const { return raw().transpose_a != 0; }
    bool transpose_b() const { return raw().transpose_b != 0; }

    matmul_geometry geometry(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        return matmul_geometry::of(check, inputs[0], inputs[1],
                                   inputs.size() > 2 ? &inputs[2] : nullptr, raw().transpose_a != 0,
                                   raw().transpose_b != 0);
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_matmul_op(check, op);
        check_bool(check, "transpose_a", raw().transpose_a);
        check_bool(check, "transpose_b", raw().transpose_b);
        check.count(inputs, op == TSR_MATMUL_ADDITION ? 2 : 3, 3);
        const tensor_desc& a = inputs[0];
        check.type_in("A", a, {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::f64});
        check_float_like(check, "B", inputs[1], a);
        if (inputs.size() > 2) check_float_like(check, "C", inputs[2], a);
        const shape out = geometry(inputs).output_shape();
        check.fits("dst", out, a.type());
        return {output_like(out, a)};
    }
};

/// zDNN quantized matmul. Inputs, in order:
///   0 A  i8 quantised (scale Sa, zero point Za), or floating for on-the-fly quantisation with
///        a_scale/a_zero_point: qa = clamp(round_half_even(a / a_scale) + a_zero_point, clip_min,
///        clip_max); [m, n] or [s, m, n]
///   1 B  i8 weights (Sb, Zb), [n, p] or [s, n, p]
///   2 C  i8 (Sc, Zc), [p] or [s, p]; when pre_computed, floating (see below)
/// With D = sum_k (qa - Za) * (qb - Zb) (integer dot products):
///   ADDITION: Y = Sa*Sb*D + Sc*(qc - Zc); comparisons: 1.0/0.0 for (Sa*Sb*D OP Sc*(qc - Zc)).
///   pre_computed ADDITION: C holds the bias term in output units (zDNN's formula with the sign of
///     the input_c term corrected): q = (Sa*Sb/Sy)*D - (Sa*Sb/Sy)*n*Za*Zb + C, where
///     C = Zy + (Sc/Sy)*(qc - Zc) + (Sa*Sb/Sy)*n*Za*Zb reproduces the plain form.
///   pre_computed comparisons: sum_k qa*(qb - Zb) OP C, with C = Sc/(Sa*Sb)*(qc - Zc) + Za*sum_k
///   qb.
/// Output f32 [m, p] / [s, m, p]. dequantize: Y (real). Otherwise the quantised value
/// q = Y/Sy + Zy (Sy = out_scale, Zy = out_zero_point; the zero point is added before rounding, as
/// tessera's own quantisation does), rounded to nearest even and clipped to [-128, 127] unless
/// disable_clipping (zDNN: "disables clipping and rounding"), stored as an f32 value (zDNN's
/// QUANTIZED_DLFLOAT16 result). Comparison results are 1.0/0.0 either way.
struct quantized_matmul
    : pod_op<quantized_matmul, tsr_quantized_matmul_params, TSR_OP_QUANTIZED_MATMUL> {
    static constexpr std::string_view name = "quantized_matmul";

    quantized_matmul() {
        op = TSR_MATMUL_ADDITION;
        raw().clip_min = -128;
        raw().clip_max = 127;
        raw().dequantize = 1;
        raw().a_scale = 1.0f;
        raw().out_scale = 1.0f;
    }

    quantized_matmul& operation(tsr_matmul_op o) {
        op = o;
        return *this;
    }
    quantized_matmul& operation(matmul_kind o) { return operation(to_c(o)); }
    quantized_matmul& transpose(bool a, bool b) {
        raw().transpose_a = a ? 1 : 0;
        raw().transpose_b = b ? 1 : 0;
        return *this;
    }
    quantized_matmul& clip(int lo, int hi) {
        raw().clip_min = lo;
        raw().clip_max = hi;
        return *this;
    }
    quantized_matmul& no_clipping(bool d = true) {
        raw().disable_clipping = d ? 1 : 0;
        return *this;
    }
    quantized_matmul& dequantized(bool d = true) {
        raw().dequantize = d ? 1 : 0;
        return *this;
    }
    quantized_matmul& precomputed(bool p = true) {
        raw().pre_computed = p ? 1 : 0;
        return *this;
    }
    quantized_matmul& input_quantization(float scale, int zero_point) {
        raw().a_scale = scale;
        raw().a_zero_point = zero_point;
        return *this;
    }
    quantized_matmul& output_quantization(float scale, int zero_point) {
        raw().out_scale = scale;
        raw().out_zero_point = zero_point;
        return *this;
    }

    /// What is done with C after the product (throws for a raw value outside the enum).
    matmul_kind kind() const { return tessera::from_c<matmul_kind>(op); }
    bool transpose_a() const { return raw().transpose_a != 0; }
    bool transpose_b() const { return raw().transpose_b != 0; }
    /// Clipping range of the on-the-fly quantisation of a floating A.
    int clip_min() const { return raw().clip_min; }
    int clip_max() const { return raw().clip_max; }
    /// The quantised output is neither rounded nor clipped.
    bool disable_clipping() const { return raw().disable_clipping != 0; }
    /// The output holds real values (else quantised ones).
    bool dequantize() const { return raw().dequantize != 0; }
    /// C holds the precomputed bias term.
    bool pre_computed() const { return raw().pre_computed != 0; }
    /// Quantisation of a floating A.
    float a_scale() const { return raw().a_scale; }
    int a_zero_point() const { return raw().a_zero_point; }
    /// Quantisation of the output (when not dequantised).
    float out_scale() const { return raw().out_scale; }
    int out_zero_point() const { return raw().out_zero_point; }

    matmul_geometry geometry(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        return matmul_geometry::of(check, inputs[0], inputs[1], &inputs[2], raw().transpose_a != 0,
                                   raw().transpose_b != 0);
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_matmul_op(check, op);
        for (auto [what, v] :
             {std::pair<const char*, std::int32_t>{"transpose_a", raw().transpose_a},
              {"transpose_b", raw().transpose_b},
              {"disable_clipping", raw().disable_clipping},
              {"dequantize", raw().dequantize},
              {"pre_computed", raw().pre_computed}}) {
            check_bool(check, what, v);
        }
        if (raw().clip_min < -128 || raw().clip_max > 127 || raw().clip_min >= raw().clip_max) {
            check.fail("", "clip range [" + std::to_string(raw().clip_min) + ", " +
                               std::to_string(raw().clip_max) +
                               "] must lie in [-128, 127] with clip_min < clip_max");
        }
        if (!(raw().out_scale != 0.0f) || !std::isfinite(raw().out_scale))
            check.fail("", "out_scale must be finite and non-zero");
        check.count(inputs, 3, 3);
        const tensor_desc& a = inputs[0];
        check.type_in("A", a, {dtype::i8, dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
        if (is_floating(a.type()) && (!(raw().a_scale != 0.0f) || !std::isfinite(raw().a_scale))) {
            check.fail("A", "on-the-fly quantisation needs a finite non-zero a_scale");
        }
        check.type_in("B", inputs[1], {dtype::i8});
        if (raw().pre_computed) {
            check.type_in("C", inputs[2], {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
        } else {
            check.type_in("C", inputs[2], {dtype::i8});
        }
        const auto nonzero_scale = [&](std::string_view t, const tensor_desc& d) {
            if (d.type() == dtype::i8 &&
                (!(d.quant().scale != 0.0f) || !std::isfinite(d.quant().scale))) {
                check.fail(t, "quantisation scale must be finite and non-zero");
            }
        };
        nonzero_scale("A", a);
        nonzero_scale("B", inputs[1]);
        nonzero_scale("C", inputs[2]);
        return {tensor_desc(geometry(inputs).output_shape(), dtype::f32)};
    }
};

}  // namespace tessera::op
