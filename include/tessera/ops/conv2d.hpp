// tessera/ops/conv2d.hpp: conv2d, 2-D convolution (direct or transposed) with groups, dilation,
// explicit/SAME/VALID padding, floor/ceil output rounding and a fused epilogue (bias, batchnorm,
// activation). Union of CLML convolution, OpenVX convolution layer, ACL and zDNN conv2d.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// 2-D convolution. Inputs, in order:
///   0 src      [N, C, H, W]
///   1 weights  [O, C/groups, KH, KW]; transposed mode: [C, O/groups, KH, KW]; depthwise mode
///              (CLML DEPTHWISE, groups = C): [O, 1, KH, KW] with O a multiple of C
///   - bias     [O] or per-location [O, OH, OW]            (when has_bias)
///   - mean, variance, scale, shift, each [O]              (when fuse_batchnorm)
///   - slope    [O] or [1]                                 (when the activation is PReLU)
/// Output [N, O, OH, OW]. Epilogue order: + bias, batchnorm, activation.
/// Dtypes: floating src with floating weights/bias/bn; i16 fixed point (weights i16, bias i16 or
/// i32 raw at the output's fixed_point_pos); i8/u8 quantised (weights i8/u8, bias i32 raw in units
/// of src.scale * weights.scale, or floating). See tsr_conv2d_params for the integer arithmetic.
/// Spec mapping: zDNN conv2d with strides 0 (kernel == input, VALID) is stride 1 VALID here; its
/// RELU with a clipping value is TSR_ACT_BOUNDED_RELU with a = the clipping value; OpenVX derives
/// the stride from the output size (the caller computes it); floating weights, bias and batchnorm
/// inputs may be any floating type (the reference widens everything to f32).
struct conv2d : pod_op<conv2d, tsr_conv2d_params, TSR_OP_CONV2D>,
                window_setters<conv2d>,
                epilogue_setters<conv2d> {
    static constexpr std::string_view name = "conv2d";
    friend struct window_setters<conv2d>;
    friend struct epilogue_setters<conv2d>;

    conv2d() {
        mode = TSR_CONV_DIRECT;
        padding_mode = TSR_PADDING_EXPLICIT;
        stride_h = stride_w = 1;
        dilation_h = dilation_w = 1;
        tsr_conv2d_params::groups = 1;
        output_rounding = TSR_OUTPUT_FLOOR;
        raw().bn_epsilon = 1e-5f;
        activation = {TSR_ACT_NONE, 0.0f, 0.0f};
        raw().rounding = TSR_ROUND_TO_NEAREST_EVEN;
        raw().overflow = TSR_OVERFLOW_SATURATE;
    }

    conv2d& dilation(int h, int w) {
        dilation_h = h;
        dilation_w = w;
        return *this;
    }
    conv2d& groups(int g) {
        this->tsr_conv2d_params::groups = g;
        return *this;
    }
    /// The group count (the field `groups` is hidden by the setter of the same name).
    int group_count() const { return this->tsr_conv2d_params::groups; }
    /// The group count (depthwise mode uses one group per input channel whatever this says).
    int groups() const { return raw().groups; }
    /// Direct, transposed or depthwise (throws for a raw mode outside the enum).
    conv_kind kind() const { return tessera::from_c<conv_kind>(mode); }
    /// Spacing of the kernel taps, height then width (1: dense kernel).
    hw dilation() const { return {raw().dilation_h, raw().dilation_w}; }
    /// Whether a bias input is added.
    bool has_bias() const { return raw().has_bias != 0; }
    /// Whether a batchnorm (mean, variance, scale, shift inputs) is fused after the bias.
    bool fuse_batchnorm() const { return raw().fuse_batchnorm != 0; }
    /// Variance epsilon of the fused batchnorm.
    float bn_epsilon() const { return raw().bn_epsilon; }
    /// Integer outputs: how results round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }
    /// Integer outputs: what happens on overflow (throws for a raw value outside the enum).
    overflow_policy overflow() const { return tessera::from_c<overflow_policy>(raw().overflow); }
    /// Transposed only: extra output rows at the bottom.
    int output_padding_h() const { return raw().output_padding_h; }
    /// Transposed only: extra output columns at the right.
    int output_padding_w() const { return raw().output_padding_w; }
    /// CLML DEPTHWISE: one group per input channel whatever the groups field says.
    conv2d& depthwise() {
        mode = TSR_CONV_DEPTHWISE;
        return *this;
    }
    conv2d& transposed(bool t = true) {
        mode = t ? TSR_CONV_TRANSPOSED : TSR_CONV_DIRECT;
        return *this;
    }
    conv2d& output_padding(int h, int w) {
        raw().output_padding_h = h;
        raw().output_padding_w = w;
        return *this;
    }
    conv2d& batchnorm(bool b = true, float epsilon = 1e-5f) {
        raw().fuse_batchnorm = b ? 1 : 0;
        raw().bn_epsilon = epsilon;
        return *this;
    }

    /// Position of each optional input, or -1.
    struct input_slots {
        int bias = -1, mean = -1, variance = -1, scale = -1, shift = -1, slope = -1, count = 2;
    };
    input_slots slots() const {
        input_slots s;
        if (raw().has_bias) s.bias = s.count++;
        if (raw().fuse_batchnorm) {
            s.mean = s.count++;
            s.variance = s.count++;
            s.scale = s.count++;
            s.shift = s.count++;
        }
        if (activation.kind == TSR_ACT_PRELU) s.slope = s.count++;
        return s;
    }

    /// Output size and resolved padding (SAME/VALID made explicit).
    struct geometry_t {
        std::int64_t n = 0, c = 0, h = 0, w = 0;   // src
        std::int64_t o = 0, kh = 0, kw = 0;        // output channels, kernel
        std::int64_t group_in = 0, group_out = 0;  // channels per group
        spatial_extent y, x;                       // H and W: pads and output extents
    };

    /// Validates src and weights and this descriptor's fields; resolves the geometry.
    geometry_t geometry(const tensor_desc& src, const tensor_desc& weights) const {
        const checker check{name};
        check_fields(check);
        check.rank("src", src, 4);
        check.positive_dims("src", src);
        check.rank("weights", weights, 4);
        check.positive_dims("weights", weights);

        const bool transposed_mode = mode == TSR_CONV_TRANSPOSED;
        geometry_t g;
        const std::int64_t groups_ =
            mode == TSR_CONV_DEPTHWISE ? src.dim(1) : tsr_conv2d_params::groups;
        g.n = src.dim(0);
        g.c = src.dim(1);
        g.h = src.dim(2);
        g.w = src.dim(3);
        g.kh = weights.dim(2);
        g.kw = weights.dim(3);
        if (g.c % groups_ != 0) {
            check.fail("src", "dim 1 (C) is " + std::to_string(g.c) + ", not divisible by groups " +
                                  std::to_string(groups_));
        }
        g.group_in = g.c / groups_;
        if (!transposed_mode) {
            g.o = weights.dim(0);
            if (g.o % groups_ != 0) {
                check.fail("weights", "dim 0 (O) is " + std::to_string(g.o) +
                                          ", not divisible by groups " + std::to_string(groups_));
            }
            check.dim("weights", weights, 1, g.group_in, "C/groups");
            g.group_out = g.o / groups_;
        } else {
            check.dim("weights", weights, 0, g.c, "C");
            g.group_out = weights.dim(1);
            g.o = check.mul("weights", g.group_out, groups_);
        }
        const std::int64_t keh = dilated_extent(check, g.kh, dilation_h);
        const std::int64_t kew = dilated_extent(check, g.kw, dilation_w);
        if (!transposed_mode) {
            g.y = window_extent(check, "2 (H)", g.h, keh, stride_h, padding_mode, pad_top,
                                pad_bottom, output_rounding);
            g.x = window_extent(check, "3 (W)", g.w, kew, stride_w, padding_mode, pad_left,
                                pad_right, output_rounding);
        } else {
            g.y = transposed_extent(check, "2 (H)", g.h, keh, stride_h, pad_top, pad_bottom,
                                    raw().output_padding_h);
            g.x = transposed_extent(check, "3 (W)", g.w, kew, stride_w, pad_left, pad_right,
                                    raw().output_padding_w);
        }
        return g;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_activation(check, activation);
        check_fields(check);
        const input_slots s = slots();
        check.count(inputs, static_cast<std::size_t>(s.count), static_cast<std::size_t>(s.count));
        const tensor_desc& src = inputs[0];
        const tensor_desc& weights = inputs[1];
        check.type_in("src", src,
                      {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i16, dtype::i8,
                       dtype::u8});
        const geometry_t g = geometry(src, weights);
        const bool quantized = src.type() == dtype::i8 || src.type() == dtype::u8;
        if (quantized) {
            check.type_in("weights", weights, {dtype::i8, dtype::u8});
        } else {
            check_float_like(check, "weights", weights, src);
        }
        if (s.bias >= 0) {
            const tensor_desc& b = inputs[static_cast<std::size_t>(s.bias)];
            if (b.rank() == 1) {
                check.dim("bias", b, 0, g.o, "O");
            } else if (b.rank() == 3) {
                check.dim("bias", b, 0, g.o, "O");
                check.dim("bias", b, 1, g.y.out, "OH");
                check.dim("bias", b, 2, g.x.out, "OW");
            } else {
                check.fail("bias", "rank is " + std::to_string(b.rank()) +
                                       ", expected 1 ([O]) or 3 ([O, OH, OW])");
            }
            if (quantized) {
                check.type_in("bias", b,
                              {dtype::i32, dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
            } else if (src.type() == dtype::i16) {
                check.type_in("bias", b, {dtype::i16, dtype::i32});
            } else {
                check_float_like(check, "bias", b, src);
            }
        }
        if (raw().fuse_batchnorm) {
            if (!is_floating(src.type()))
                check.fail("src", "fused batchnorm needs a floating type");
            const char* names[] = {"mean", "variance", "scale", "shift"};
            for (int i = 0; i < 4; ++i) {
                const tensor_desc& t = inputs[static_cast<std::size_t>(s.mean + i)];
                check.rank(names[i], t, 1);
                check.dim(names[i], t, 0, g.o, "O");
                check_float_like(check, names[i], t, src);
            }
        }
        if (s.slope >= 0) {
            const tensor_desc& slope = inputs[static_cast<std::size_t>(s.slope)];
            check_slope(check, slope, g.o);
            if (is_floating(src.type())) check_float_like(check, "slope", slope, src);
        }
        const shape out = image_shape(g.n, g.o, g.y.out, g.x.out);
        check.fits("dst", out, src.type());
        return {output_like(out, src)};
    }

  private:
    /// Checks the scalar fields: enums, booleans, strides, dilations, padding.
    void check_fields(const checker& check) const {
        check.enum_in_range("mode", mode, TSR_CONV_DIRECT, TSR_CONV_DEPTHWISE);
        check.enum_in_range("padding_mode", padding_mode, TSR_PADDING_EXPLICIT, TSR_PADDING_VALID);
        check.enum_in_range("output_rounding", output_rounding, TSR_OUTPUT_FLOOR, TSR_OUTPUT_CEIL);
        check_policies(check, raw().rounding, raw().overflow);
        check_bool(check, "has_bias", raw().has_bias);
        check_bool(check, "fuse_batchnorm", raw().fuse_batchnorm);
        check.positive("stride_h", stride_h);
        check.positive("stride_w", stride_w);
        check.positive("dilation_h", dilation_h);
        check.positive("dilation_w", dilation_w);
        check.positive("groups", tsr_conv2d_params::groups);
        for (auto [what, v] : {std::pair<const char*, int>{"pad_top", pad_top},
                               {"pad_bottom", pad_bottom},
                               {"pad_left", pad_left},
                               {"pad_right", pad_right},
                               {"output_padding_h", raw().output_padding_h},
                               {"output_padding_w", raw().output_padding_w}}) {
            if (v < 0)
                check.fail("", std::string(what) + " is " + std::to_string(v) + ", must be >= 0");
        }
        const bool transposed_mode = mode == TSR_CONV_TRANSPOSED;
        if (!transposed_mode && (raw().output_padding_h || raw().output_padding_w)) {
            check.fail("", "output_padding applies to transposed convolution only");
        }
        if (transposed_mode && padding_mode != TSR_PADDING_EXPLICIT &&
            (raw().output_padding_h || raw().output_padding_w)) {
            check.fail(
                "", "output_padding needs explicit padding (SAME and VALID fix the output extent)");
        }
        if (transposed_mode && output_rounding == TSR_OUTPUT_CEIL) {
            check.fail("", "output_rounding ceil is not defined for transposed convolution");
        }
        if (transposed_mode && (raw().output_padding_h >= std::max(stride_h, dilation_h) ||
                                raw().output_padding_w >= std::max(stride_w, dilation_w))) {
            check.fail("", "output_padding must be smaller than the stride or the dilation");
        }
        if (!(raw().bn_epsilon >= 0.0f)) check.fail("", "bn_epsilon must be >= 0");
    }

    /// Output extent of a transposed convolution: the input extent of the direct convolution
    /// whose adjoint it is.
    spatial_extent transposed_extent(const checker& check, std::string_view dim, std::int64_t in,
                                     std::int64_t k_eff, std::int64_t stride,
                                     std::int64_t pad_before, std::int64_t pad_after,
                                     std::int64_t output_pad) const {
        spatial_extent e;
        switch (padding_mode) {
            case TSR_PADDING_SAME: {
                const std::int64_t total = std::max<std::int64_t>(k_eff - stride, 0);
                e.pad_before = total / 2;
                e.pad_after = total - e.pad_before;
                e.out = check.mul("src", in, stride);
                return e;
            }
            case TSR_PADDING_VALID:
                e.out = check.add("src", check.mul("src", in - 1, stride), k_eff);
                return e;
            default:
                break;
        }
        e.pad_before = pad_before;
        e.pad_after = pad_after;
        // (in - 1) * stride + k_eff + output_pad - pad_before - pad_after, each step checked.
        e.out = check.add("src", check.mul("src", in - 1, stride), k_eff);
        e.out = check.add("src", e.out, output_pad);
        e.out = check.add("src", e.out, -pad_before);
        e.out = check.add("src", e.out, -pad_after);
        if (e.out <= 0) {
            check.fail("src", "dim " + std::string(dim) + ": transposed output extent " +
                                  std::to_string(e.out) + " is not positive (padding too large)");
        }
        return e;
    }
};

}  // namespace tessera::op
