// tessera/ops/fully_connected.hpp: fully_connected (CLML, ACL, OpenVX fully connected layer):
// a flattened input times a weight matrix, plus optional bias and fused activation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Fully connected layer. Inputs, in order:
///   0 src      [d0, ..., d(r-1)], seen as [prod(d0..d(a-1)), I = prod(da..d(r-1))], a =
///              first_flatten_axis
///   1 weights  [O, I] ([I, O] when weights_transposed; note that CLML's weight_transform NONE
///              computes A * B with B [I, O], i.e. weights_transposed = 1 here)
///   - bias     [O]                (when has_bias)
///   - slope    [O] or [1]         (when the activation is PReLU)
/// Output [d0, ..., d(a-1), O] (CLML keeps trailing 1s, e.g. [N, O, 1, 1]: a reshape away).
/// Dtypes and integer arithmetic as conv2d (OpenVX's accumulator_bits is not modelled: products
/// accumulate in 64 bits).
struct fully_connected
    : pod_op<fully_connected, tsr_fully_connected_params, TSR_OP_FULLY_CONNECTED>,
      epilogue_setters<fully_connected> {
    static constexpr std::string_view name = "fully_connected";
    friend struct epilogue_setters<fully_connected>;

    fully_connected() {
        raw().first_flatten_axis = 1;
        activation = {TSR_ACT_NONE, 0.0f, 0.0f};
        raw().rounding = TSR_ROUND_TO_NEAREST_EVEN;
        raw().overflow = TSR_OVERFLOW_SATURATE;
    }

    fully_connected& flatten_from(int axis) {
        raw().first_flatten_axis = axis;
        return *this;
    }
    fully_connected& transposed_weights(bool t = true) {
        raw().weights_transposed = t ? 1 : 0;
        return *this;
    }

    /// src dims from this one on form the inner size; negative counts from the end.
    int first_flatten_axis() const { return raw().first_flatten_axis; }
    /// Whether the weights are [I, O] rather than [O, I].
    bool weights_transposed() const { return raw().weights_transposed != 0; }
    /// Whether a bias input is added.
    bool has_bias() const { return raw().has_bias != 0; }
    /// Integer outputs: how results round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }
    /// Integer outputs: what happens on overflow (throws for a raw value outside the enum).
    overflow_policy overflow() const { return tessera::from_c<overflow_policy>(raw().overflow); }

    /// Rows (flattened batch), inner size I and outputs O after validation.
    struct geometry_t {
        int axis = 1;
        std::int64_t rows = 1, inner = 1, outputs = 0;
    };
    geometry_t geometry(const tensor_desc& src, const tensor_desc& weights) const {
        const checker check{name};
        check_bool(check, "weights_transposed", raw().weights_transposed);
        check_bool(check, "has_bias", raw().has_bias);
        check_policies(check, raw().rounding, raw().overflow);
        if (src.rank() < 1) check.fail("src", "rank is 0, expected at least 1");
        check.positive_dims("src", src);
        geometry_t g;
        g.axis = normalize_axis(check, "src", "first_flatten_axis", raw().first_flatten_axis,
                                src.rank());
        for (int i = 0; i < src.rank(); ++i) {
            auto& part = i < g.axis ? g.rows : g.inner;
            part = check.mul("src", part, src.dim(i));
        }
        check.rank("weights", weights, 2);
        check.positive_dims("weights", weights);
        const int in_dim = raw().weights_transposed ? 0 : 1;
        check.dim("weights", weights, in_dim, g.inner, "I, flattened src");
        g.outputs = weights.dim(1 - in_dim);
        return g;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        const bool prelu = check_activation(check, activation);
        const std::size_t n = 2 + (raw().has_bias ? 1 : 0) + (prelu ? 1 : 0);
        check.count(inputs, n, n);
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
        if (raw().has_bias) {
            const tensor_desc& b = inputs[2];
            check.rank("bias", b, 1);
            check.dim("bias", b, 0, g.outputs, "O");
            if (quantized) {
                check.type_in("bias", b,
                              {dtype::i32, dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
            } else if (src.type() == dtype::i16) {
                check.type_in("bias", b, {dtype::i16, dtype::i32});
            } else {
                check_float_like(check, "bias", b, src);
            }
        }
        if (prelu) {
            check_slope(check, inputs[n - 1], g.outputs);
            if (is_floating(src.type())) check_float_like(check, "slope", inputs[n - 1], src);
        }
        shape out;
        const shape in = src.dims();
        for (int i = 0; i < g.axis; ++i) out.push_back(in[i], in.label(i));
        out.push_back(g.outputs,
                      g.axis == 1 && in.label(0) == dim_label::n ? dim_label::c : dim_label::any);
        check.fits("dst", out, src.type());
        return {output_like(out, src)};
    }
};

}  // namespace tessera::op
