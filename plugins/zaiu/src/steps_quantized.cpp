// steps_quantized.cpp: quantized_matmul on zdnn_quantized_matmul_op. The int8 operands arrive
// in QUANTIZED_INT8 / QUANTIZED_WEIGHTS_INT8 sticks (host_transfer.cpp); a floating A is read
// from its DLFLOAT16 sticks and quantised on the fly by zDNN. Every operand is seen through a
// quantised ztensor carrying its scale and zero point (zdnn_init_quantized_ztensor). zDNN is
// asked for the output unrounded (QUANTIZED_DLFLOAT16, disable_clipping), so a quantised, clipped
// output is rounded half to even and clipped to [-128, 127] afterwards (host_fixup.hpp).
#include <algorithm>
#include <cmath>

#include "host_fixup.hpp"
#include "steps.hpp"

namespace zaiu {

using tessera::dtype;
using tessera::tensor_desc;
namespace op = tessera::op;

namespace {

zdnn_data_layouts matrix_layout(const tensor_desc& d) {
    return d.rank() == 3 ? ZDNN_3DS : ZDNN_2D;
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
        a_.quantize(float_a ? q.a_scale : t[a].quant().scale,
                    float_a ? static_cast<float>(q.a_zero_point) : zero_point(t[a]));
        b_.quantize(t[b].quant().scale, zero_point(t[b]));
        if (q.pre_computed) {
            c_.quantize(1.0f, 0.0f);  // a bias in output units: zDNN ignores C's scale then
        } else {
            c_.quantize(t[c].quant().scale, zero_point(t[c]));
        }
        y_.quantize(q.out_scale, static_cast<float>(q.out_zero_point));
        requantize_ = q.op == TSR_MATMUL_ADDITION && !q.dequantize && !q.disable_clipping;
    }

    void run(const buffers& b) override {
        // zDNN's clip_min/clip_max bound the on-the-fly quantisation of A (always applied) and,
        // unless disable_clipping, also the rounded y_q; Tessera clips its output to [-128, 127]
        // itself (requantize below), so zDNN's output clipping stays off.
        check(zdnn_quantized_matmul_op(
                  a_.in(b), b_.in(b), c_.in(b), static_cast<zdnn_matmul_ops>(q_.op),
                  static_cast<std::int8_t>(q_.clip_min), static_cast<std::int8_t>(q_.clip_max),
                  true, q_.dequantize != 0, q_.pre_computed != 0, nullptr, y_.out(b)),
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

std::unique_ptr<step> make_quantized_step(const tessera::sdk::node& n,
                                          const std::vector<tensor_desc>& t) {
    if (const auto* q = n.op.get_if<op::quantized_matmul>())
        return std::make_unique<quantized_matmul_step>(n, t, *q);
    return nullptr;
}

}  // namespace zaiu
