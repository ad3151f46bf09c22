// tessera/ops/compute_common.hpp: helpers shared by the compute op descriptors: spatial output
// sizes and padding (conv2d, pooling), axis normalisation, checks of fused activations and of
// integer policies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops.h"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Padding and output extent of one spatial dimension.
struct spatial_extent {
    std::int64_t pad_before = 0;
    std::int64_t pad_after = 0;
    std::int64_t out = 0;
};

/// Effective kernel extent with dilation: dilation * (k - 1) + 1 (checked, naming weights).
inline std::int64_t dilated_extent(const checker& check, std::int64_t k, std::int64_t dilation) {
    return check.add("weights", check.mul("weights", dilation, k - 1), 1);
}

/// ceil(a / b) for a >= 0, b > 0, without overflowing a + b - 1.
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return a / b + (a % b != 0 ? 1 : 0);
}
inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// Output extent of a window sliding over `in` (direct convolution and pooling). `dim` names the
/// dimension in errors ("H" or "W").
inline spatial_extent window_extent(const checker& check, std::string_view dim, std::int64_t in,
                                    std::int64_t k_eff, std::int64_t stride,
                                    std::int32_t padding_mode, std::int64_t pad_before,
                                    std::int64_t pad_after, std::int32_t output_rounding) {
    spatial_extent e;
    const std::string d(dim);
    switch (padding_mode) {
        case TSR_PADDING_SAME: {
            e.out = ceil_div(in, stride);
            const std::int64_t total = std::max<std::int64_t>(
                check.add("src", check.mul("src", e.out - 1, stride), k_eff - in), 0);
            e.pad_before = total / 2;
            e.pad_after = total - e.pad_before;
            return e;
        }
        case TSR_PADDING_VALID:
            if (in < k_eff) {
                check.fail("src", "dim " + d + " is " + std::to_string(in) +
                                      ", smaller than the (dilated) kernel " +
                                      std::to_string(k_eff) + " with VALID padding");
            }
            e.out = (in - k_eff) / stride + 1;
            return e;
        default:
            break;
    }
    e.pad_before = pad_before;
    e.pad_after = pad_after;
    const std::int64_t padded = check.add("src", check.add("src", in, pad_before), pad_after);
    const std::int64_t span = padded - k_eff;
    if (span < 0) {
        check.fail("src", "dim " + d + " is " + std::to_string(in) + ", padded " +
                              std::to_string(padded) + ", smaller than the (dilated) kernel " +
                              std::to_string(k_eff));
    }
    if (output_rounding == TSR_OUTPUT_CEIL) {
        e.out = ceil_div(span, stride) + 1;
        // Drop a last window that starts past the input and its leading padding.
        if (check.mul("src", e.out - 1, stride) >= in + pad_before) --e.out;
    } else {
        e.out = span / stride + 1;
    }
    return e;
}

/// A possibly negative axis made absolute; fails naming `what` when out of [0, rank).
inline int normalize_axis(const checker& check, std::string_view tensor, std::string_view what,
                          int axis, int rank) {
    const int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
        check.fail(tensor, std::string(what) + " " + std::to_string(axis) +
                               " is out of range for rank " + std::to_string(rank));
    }
    return a;
}

inline void check_bool(const checker& check, std::string_view what, std::int32_t v) {
    if (v != 0 && v != 1)
        check.fail("", std::string(what) + " must be 0 or 1, got " + std::to_string(v));
}

inline void check_policies(const checker& check, std::int32_t rounding, std::int32_t overflow) {
    check.enum_in_range("rounding", rounding, TSR_ROUND_TO_ZERO, TSR_ROUND_TO_NEAREST_EVEN);
    check.enum_in_range("overflow", overflow, TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE);
}

/// Validates a fused activation; returns whether it takes a PReLU slope input.
inline bool check_activation(const checker& check, const tsr_activation_spec& act) {
    check.enum_in_range("activation", act.kind, TSR_ACT_NONE, TSR_ACT_SOFTSIGN);
    if (act.kind == TSR_ACT_BOUNDED_RELU && !(act.a >= 0.0f)) {
        check.fail("", "bounded_relu bound a must be >= 0");
    }
    if (act.kind == TSR_ACT_CLIP && !(act.a <= act.b)) {
        check.fail("", "clip needs a <= b");
    }
    return act.kind == TSR_ACT_PRELU;
}

/// Checks a PReLU slope input: shape [channels] or [1], floating.
inline void check_slope(const checker& check, const tensor_desc& slope, std::int64_t channels) {
    check.rank("slope", slope, 1);
    if (slope.dim(0) != channels && slope.dim(0) != 1) {
        check.fail("slope", "dim 0 is " + std::to_string(slope.dim(0)) + ", expected " +
                                std::to_string(channels) + " or 1");
    }
}

/// Checks that every input of a floating op is a floating type agreeing with src.
inline void check_float_like(const checker& check, std::string_view tensor, const tensor_desc& d,
                             const tensor_desc& src) {
    if (is_floating(src.type())) {
        if (!is_floating(d.type())) {
            check.fail(tensor, "dtype is " + std::string(to_string(d.type())) +
                                   ", expected a floating type like src (" +
                                   std::string(to_string(src.type())) + ")");
        }
    } else {
        check.same_type(tensor, d, src);
    }
}

/// Image dims labelled N, C, H, W.
inline shape image_shape(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    return shape::nchw(n, c, h, w);
}

}  // namespace tessera::op
