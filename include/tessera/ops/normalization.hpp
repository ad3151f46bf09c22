// tessera/ops/normalization.hpp: batchnorm (inference; statistics or zDNN's a*x+b form), lrn
// (OpenVX/ACL local response normalisation), layer_norm (axis form and zDNN's statistics form)
// and norm (zDNN: Euclidean norm of a difference).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

inline const std::initializer_list<dtype>& floating_types() {
    static const std::initializer_list<dtype> types = {dtype::f32, dtype::f16, dtype::bf16,
                                                       dtype::dlfloat16};
    return types;
}

/// Inference batch normalisation over the channel dim (logical dim 1). Inputs, in order:
///   STATISTICS: 0 src [N, C, ...], 1 mean [C], 2 variance [C], then optionally 3 scale [C] and
///               4 shift [C] (both or neither); y = (x - mean)/sqrt(variance + epsilon)*scale +
///               shift
///   AFFINE (zDNN batchnorm): 0 src [N, C, ...], 1 a [C], 2 b [C]; y = a*x + b
///   - slope [C] or [1] last, when the fused activation is PReLU.
/// Output like src. Floating only.
struct batchnorm : pod_op<batchnorm, tsr_batchnorm_params, TSR_OP_BATCHNORM> {
    static constexpr std::string_view name = "batchnorm";

    batchnorm() {
        mode = TSR_BATCHNORM_STATISTICS;
        raw().epsilon = 1e-5f;
        activation = {TSR_ACT_NONE, 0.0f, 0.0f};
    }

    batchnorm& affine(bool a = true) {
        mode = a ? TSR_BATCHNORM_AFFINE : TSR_BATCHNORM_STATISTICS;
        return *this;
    }
    batchnorm& eps(float e) {
        raw().epsilon = e;
        return *this;
    }
    batchnorm& fuse(tsr_activation_kind k, float a = 0.0f, float b = 0.0f) {
        activation = {k, a, b};
        return *this;
    }
    batchnorm& fuse(activation_kind k, float a = 0.0f, float b = 0.0f) {
        return fuse(to_c(k), a, b);
    }

    /// Statistics or zDNN's affine form (throws for a raw mode outside the enum).
    batchnorm_kind kind() const { return tessera::from_c<batchnorm_kind>(mode); }
    /// The activation applied last (kind none: no activation).
    activation_spec fused_activation() const { return activation_spec::from_c(activation); }
    /// Variance epsilon (statistics mode).
    float epsilon() const { return raw().epsilon; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("mode", mode, TSR_BATCHNORM_STATISTICS, TSR_BATCHNORM_AFFINE);
        const bool prelu = check_activation(check, activation);
        if (!(raw().epsilon >= 0.0f)) check.fail("", "epsilon must be >= 0");
        const std::size_t extra = prelu ? 1 : 0;
        if (mode == TSR_BATCHNORM_AFFINE) {
            check.count(inputs, 3 + extra, 3 + extra);
        } else {
            check.count(inputs, 3 + extra, 5 + extra);
            if (inputs.size() == 4 + extra)
                check.fail("", "scale and shift come together: expects 3 or 5 inputs (plus slope)");
        }
        const tensor_desc& src = inputs[0];
        check.type_in("src", src, floating_types());
        check.rank_between("src", src, 2, max_dims);
        check.positive_dims("src", src);
        const std::int64_t c = src.dim(1);
        static const char* stat_names[] = {"src", "mean", "variance", "scale", "shift"};
        static const char* affine_names[] = {"src", "a", "b"};
        const std::size_t params = inputs.size() - extra;
        for (std::size_t i = 1; i < params; ++i) {
            const char* t = mode == TSR_BATCHNORM_AFFINE ? affine_names[i] : stat_names[i];
            check.rank(t, inputs[i], 1);
            check.dim(t, inputs[i], 0, c, "C");
            check_float_like(check, t, inputs[i], src);
        }
        if (prelu) {
            check_slope(check, inputs.back(), c);
            check_float_like(check, "slope", inputs.back(), src);
        }
        return {output_like(src.dims(), src)};
    }
};

/// Local response normalisation. Inputs: 0 src [N, C, H, W] (or [N, C, ...] across channels).
/// y = x / (bias + alpha' * sum of x^2 over a centred window)^beta, zero padded, with
/// alpha' = alpha/n when alpha_scaled_by_size (n = size across channels, size*size within a
/// channel), else alpha. OpenVX: bias 1, scaled. Output like src. Floating types, and i16 fixed
/// point as OpenVX's normalization layer: computed on real values in double, stored rounded to
/// nearest even with saturation.
struct lrn : pod_op<lrn, tsr_lrn_params, TSR_OP_LRN> {
    static constexpr std::string_view name = "lrn";

    lrn() {
        mode = TSR_LRN_ACROSS_CHANNELS;
        raw().size = 5;
        raw().alpha = 1e-4f;
        raw().beta = 0.75f;
        raw().bias = 1.0f;
        raw().alpha_scaled_by_size = 1;
    }

    lrn& kind(tsr_lrn_mode m) {
        mode = m;
        return *this;
    }
    lrn& kind(lrn_kind m) { return kind(to_c(m)); }
    lrn& window(int s) {
        raw().size = s;
        return *this;
    }
    lrn& coefficients(float a, float b, float k = 1.0f) {
        raw().alpha = a;
        raw().beta = b;
        raw().bias = k;
        return *this;
    }
    lrn& scaled(bool s = true) {
        raw().alpha_scaled_by_size = s ? 1 : 0;
        return *this;
    }

    /// Across channels or within a channel (throws for a raw mode outside the enum).
    lrn_kind kind() const { return tessera::from_c<lrn_kind>(mode); }
    /// Window size n (odd): channels across channels, n x n within a channel.
    int size() const { return raw().size; }
    /// Scale of the sum of squares (divided by the window's element count when
    /// alpha_scaled_by_size()).
    float alpha() const { return raw().alpha; }
    /// Exponent of the denominator.
    float beta() const { return raw().beta; }
    /// Additive constant k of the denominator.
    float bias() const { return raw().bias; }
    /// Whether alpha is divided by the window's element count.
    bool alpha_scaled_by_size() const { return raw().alpha_scaled_by_size != 0; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("mode", mode, TSR_LRN_ACROSS_CHANNELS, TSR_LRN_WITHIN_CHANNEL);
        check_bool(check, "alpha_scaled_by_size", raw().alpha_scaled_by_size);
        check.positive("size", raw().size);
        if (raw().size % 2 == 0)
            check.fail("", "size is " + std::to_string(raw().size) + ", must be odd");
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check.type_in("src", src,
                      {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i16});
        if (mode == TSR_LRN_WITHIN_CHANNEL) {
            check.rank("src", src, 4);
        } else {
            check.rank_between("src", src, 2, max_dims);
        }
        check.positive_dims("src", src);
        return {output_like(src.dims(), src)};
    }
};

/// Layer normalisation. Inputs, in order:
///   AXES: 0 src, then gamma (has_gamma) and beta (has_beta), each shaped dims[axis..]; mean and
///         variance over dims [axis, rank); the scalar gamma/beta fields apply when a tensor is
///         absent.
///   STATISTICS (zDNN layernorm): 0 src, 1 mean, 2 variance, each of src's rank with every dim 1
///         or equal to src's (e.g. moments' outputs); scalar gamma and beta.
/// y = (x - mean) / sqrt(variance + epsilon) * gamma + beta. Output like src. Floating only.
struct layer_norm : pod_op<layer_norm, tsr_layer_norm_params, TSR_OP_LAYER_NORM> {
    static constexpr std::string_view name = "layer_norm";

    layer_norm() {
        mode = TSR_LAYER_NORM_AXES;
        raw().axis = -1;
        raw().epsilon = 1e-5f;
        raw().gamma = 1.0f;
        raw().beta = 0.0f;
    }

    layer_norm& from_axis(int a) {
        mode = TSR_LAYER_NORM_AXES;
        raw().axis = a;
        return *this;
    }
    layer_norm& statistics(bool s = true) {
        mode = s ? TSR_LAYER_NORM_STATISTICS : TSR_LAYER_NORM_AXES;
        return *this;
    }
    layer_norm& eps(float e) {
        raw().epsilon = e;
        return *this;
    }
    layer_norm& affine(float g, float b) {
        raw().gamma = g;
        raw().beta = b;
        return *this;
    }
    layer_norm& tensors(bool g, bool b) {
        raw().has_gamma = g ? 1 : 0;
        raw().has_beta = b ? 1 : 0;
        return *this;
    }

    /// Axes form or zDNN's statistics form (throws for a raw mode outside the enum).
    layer_norm_kind kind() const { return tessera::from_c<layer_norm_kind>(mode); }
    /// AXES: first normalised dim; negative counts from the end.
    int axis() const { return raw().axis; }
    float epsilon() const { return raw().epsilon; }
    /// Scalar multiplier when there is no gamma tensor.
    float gamma() const { return raw().gamma; }
    /// Scalar addend when there is no beta tensor.
    float beta() const { return raw().beta; }
    /// AXES: a gamma tensor is an input.
    bool has_gamma() const { return raw().has_gamma != 0; }
    /// AXES: a beta tensor is an input.
    bool has_beta() const { return raw().has_beta != 0; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.enum_in_range("mode", mode, TSR_LAYER_NORM_AXES, TSR_LAYER_NORM_STATISTICS);
        check_bool(check, "has_gamma", raw().has_gamma);
        check_bool(check, "has_beta", raw().has_beta);
        if (!(raw().epsilon >= 0.0f)) check.fail("", "epsilon must be >= 0");
        const std::size_t n =
            mode == TSR_LAYER_NORM_STATISTICS ? 3 : 1 + raw().has_gamma + raw().has_beta;
        check.count(inputs, n, n);
        const tensor_desc& src = inputs[0];
        check.type_in("src", src, floating_types());
        if (src.rank() < 1) check.fail("src", "rank is 0, expected at least 1");
        check.positive_dims("src", src);
        if (mode == TSR_LAYER_NORM_STATISTICS) {
            if (raw().has_gamma || raw().has_beta)
                check.fail("", "gamma/beta tensors belong to the AXES mode");
            const char* names[] = {"mean", "variance"};
            for (int i = 0; i < 2; ++i) {
                const tensor_desc& t = inputs[static_cast<std::size_t>(i + 1)];
                check.rank(names[i], t, src.rank());
                for (int d = 0; d < src.rank(); ++d) {
                    if (t.dim(d) != 1 && t.dim(d) != src.dim(d)) {
                        check.fail(names[i], "dim " + std::to_string(d) + " is " +
                                                 std::to_string(t.dim(d)) + ", expected 1 or " +
                                                 std::to_string(src.dim(d)));
                    }
                }
                check_float_like(check, names[i], t, src);
            }
        } else {
            const int a = normalize_axis(check, "src", "axis", raw().axis, src.rank());
            const char* names[] = {"gamma", "beta"};
            for (std::size_t i = 1; i < n; ++i) {
                const char* t = names[(i == 1 && raw().has_gamma) ? 0 : 1];
                const tensor_desc& d = inputs[i];
                check.rank(t, d, src.rank() - a);
                for (int k = 0; k < d.rank(); ++k) check.dim(t, d, k, src.dim(a + k));
                check_float_like(check, t, d, src);
            }
        }
        return {output_like(src.dims(), src)};
    }
};

/// zDNN norm. Inputs: 0 a, 1 b of one shape. y = sqrt(sum over `axis` of (b - a)^2); output as
/// the inputs with dim `axis` (default -1, zDNN's innermost dimension 1) equal to 1. Floating only.
struct norm : pod_op<norm, tsr_norm_params, TSR_OP_NORM>, axis_setters<norm> {
    friend struct axis_setters<norm>;
    static constexpr std::string_view name = "norm";

    norm() { raw().axis = -1; }

    /// The summed dim; negative counts from the end.
    int axis() const { return raw().axis; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 2, 2);
        const tensor_desc& a = inputs[0];
        check.type_in("a", a, floating_types());
        check_float_like(check, "b", inputs[1], a);
        if (a.rank() < 1) check.fail("a", "rank is 0, expected at least 1");
        check.positive_dims("a", a);
        check.rank("b", inputs[1], a.rank());
        for (int d = 0; d < a.rank(); ++d) check.dim("b", inputs[1], d, a.dim(d));
        const int ax = normalize_axis(check, "a", "axis", raw().axis, a.rank());
        shape out = a.dims();
        out[ax] = 1;
        return {output_like(out, a)};
    }
};

}  // namespace tessera::op
