// ops/quantized_matmul.cpp: quantized_matmul on zdnn_quantized_matmul_op. The int8 operands arrive
// in QUANTIZED_INT8 / QUANTIZED_WEIGHTS_INT8 sticks (host_transfer.cpp); a floating A is read
// from its DLFLOAT16 sticks and quantised on the fly by zDNN. Every operand is seen through a
// quantised ztensor carrying its scale and zero point (zdnn_init_quantized_ztensor). zDNN is
// asked for the output unrounded (QUANTIZED_DLFLOAT16, disable_clipping), so a quantised, clipped
// output is rounded half to even and clipped to [-128, 127] afterwards (host_fixup.hpp).
#include <algorithm>
#include <cmath>

#include "../host_fixup.hpp"
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

using tessera::dtype;

/// A quantisation scale zDNN accepts: |scale| and |1 / scale| finite, non-zero and within the
/// DLFLOAT16 range (zdnn_init_quantized_ztensor stores 1 / scale).
bool zdnn_scale_ok(float scale) {
    const float dlfloat_max = 8573157376.0f;
    const float rec = 1.0f / scale;
    return scale != 0.0f && std::fabs(scale) <= dlfloat_max && std::isfinite(rec) && rec != 0.0f;
}

support decide_quantized_matmul(const op::quantized_matmul& q, const std::vector<tensor_desc>& in,
                                const std::vector<tensor_desc>& out) {
    const auto g = q.geometry(in);
    const bool float_a = in[0].type() != dtype::i8;
    if (float_a && q.transpose_a()) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "zdnn_quantized_matmul_op has no transpose; a floating (on-the-fly) A "
                       "cannot be transposed while stickified");
    }
    if (g.b_stacked != g.c_stacked) {
        return decline(TSR_REASON_SHAPE, g.b_stacked
                                             ? "zDNN needs a stacked C [s, p] when B is stacked"
                                             : "zDNN needs C [p] when B is not stacked");
    }
    const float za = float_a ? static_cast<float>(q.a_zero_point())
                             : static_cast<float>(in[0].quant().zero_point);
    const float zb = static_cast<float>(in[1].quant().zero_point);
    if (q.pre_computed() && (zb != 0.0f || (q.kind() == matmul_kind::addition && za != 0.0f))) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "pre-computed bias with non-zero zero points: zDNN folds Za and Zb into the "
                       "bias differently from Tessera's definition "
                       "(mapped only for Zb = 0, and Za = 0 for addition)");
    }
    std::vector<float> scales{float_a ? q.a_scale() : in[0].quant().scale, in[1].quant().scale,
                              q.out_scale()};
    if (!q.pre_computed()) scales.push_back(in[2].quant().scale);
    for (float s : scales)
        if (!zdnn_scale_ok(s))
            return decline(TSR_REASON_ATTRIBUTE,
                           "quantisation scale " + std::to_string(s) + " outside zDNN's range");
    const stick_format a_plain = g.a_stacked ? stick_format::d3s() : stick_format::d2(1);
    const stick_format b_plain = g.b_stacked ? stick_format::d3s() : stick_format::d2(1);
    const stick_format c_plain = g.c_stacked ? stick_format::d2s(1) : stick_format::d1();
    const tensor_desc a_logical = in[0].with_layout(tessera::layout::row_major());
    std::vector<tensor_desc> ins{
        float_a ? matrix_operand(in[0])
                : in_format(a_logical, a_plain.quantized(stick_quant::int8, q.transpose_a())),
        in_format(in[1].with_layout(tessera::layout::row_major()),
                  b_plain.quantized(stick_quant::weights, q.transpose_b())),
        q.pre_computed() ? choose(in[2], c_plain)
                         : in_format(in[2].with_layout(tessera::layout::row_major()),
                                     c_plain.quantized(stick_quant::int8))};
    return with_layouts(ins,
                        {in_format(out[0], g.stacks ? stick_format::d3s() : stick_format::d2(1))});
}

zdnn_data_layouts vector_layout(const tensor_desc& d) {
    return d.rank() == 2 ? ZDNN_2DS : ZDNN_1D;
}

/// Round half to even (the current rounding mode is round-to-nearest-even) and clip to int8.
float requantize(float q) {
    return std::isnan(q) ? q : std::clamp(std::nearbyint(q), -128.0f, 127.0f);
}

class quantized_matmul_step final : public step {
  public:
    quantized_matmul_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                          const op::quantized_matmul& q)
        : q_(q), y_id_(n.outputs.at(0)), y_desc_(t[y_id_]) {
        const int a = n.inputs.at(0), b = n.inputs.at(1), c = n.inputs.at(2);
        a_ = operand(a, t[a], matrix_layout(t[a]));
        b_ = operand(b, t[b], matrix_layout(t[b]));
        c_ = operand(c, t[c], vector_layout(t[c]));
        y_ = operand(y_id_, y_desc_, matrix_layout(y_desc_));
        const bool float_a = t[a].type() != dtype::i8;
        const auto zero_point = [](const tensor_desc& d) {
            return static_cast<float>(d.quant().zero_point);
        };
        a_.quantize(float_a ? q.a_scale() : t[a].quant().scale,
                    float_a ? static_cast<float>(q.a_zero_point()) : zero_point(t[a]));
        b_.quantize(t[b].quant().scale, zero_point(t[b]));
        if (q.pre_computed()) {
            c_.quantize(1.0f, 0.0f);  // a bias in output units: zDNN ignores C's scale then
        } else {
            c_.quantize(t[c].quant().scale, zero_point(t[c]));
        }
        y_.quantize(q.out_scale(), static_cast<float>(q.out_zero_point()));
        requantize_ = q.kind() == matmul_kind::addition && !q.dequantize() && !q.disable_clipping();
    }

    void run(const buffers& b) override {
        // zDNN's clip_min/clip_max bound the on-the-fly quantisation of A (always applied) and,
        // unless disable_clipping, also the rounded y_q; Tessera clips its output to [-128, 127]
        // itself (requantize below), so zDNN's output clipping stays off.
        check(zdnn_quantized_matmul_op(
                  a_.in(b), b_.in(b), c_.in(b), static_cast<zdnn_matmul_ops>(to_c(q_.kind())),
                  static_cast<std::int8_t>(q_.clip_min()), static_cast<std::int8_t>(q_.clip_max()),
                  true, q_.dequantize(), q_.pre_computed(), nullptr, y_.out(b)),
              "zdnn_quantized_matmul_op");
        if (requantize_)
            edit_sticks(*b.at(static_cast<std::size_t>(y_id_)), y_desc_,
                        [](float v, std::int64_t) { return requantize(v); });
    }

  private:
    op::quantized_matmul q_;
    int y_id_;
    tensor_desc y_desc_;
    operand a_, b_, c_, y_;
    bool requantize_ = false;
};

}  // namespace

void state_quantized_matmul(router& r) {
    r.state<op::quantized_matmul>(
        framed_rule(&decide_quantized_matmul, tensor_rules{false, true}),
        [](const op::quantized_matmul& q, const sdk::node& n, const descs& t) {
            return std::make_unique<quantized_matmul_step>(n, t, q);
        });
}

}  // namespace tessera::plugins::zaiu
