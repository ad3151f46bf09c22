// steps_elementwise.cpp: binary (add, sub, mul, div, min, max), unary (log, exp, sqrt,
// invsqrt), activations, softmax and the zaiu-to-zaiu reorder.
#include <cmath>

#include "activation_map.hpp"
#include "host_fixup.hpp"
#include "host_transfer.hpp"
#include "steps.hpp"

namespace zaiu {

using tessera::tensor_desc;
namespace op = tessera::op;

namespace {

using binary_fn = zdnn_status (*)(const zdnn_ztensor*, const zdnn_ztensor*, zdnn_ztensor*);

binary_fn binary_function(std::int32_t o) {
    switch (o) {
        case TSR_BINARY_ADD:
            return &zdnn_add;
        case TSR_BINARY_SUB:
            return &zdnn_sub;
        case TSR_BINARY_MUL:
            return &zdnn_mul;
        case TSR_BINARY_DIV:
            return &zdnn_div;
        case TSR_BINARY_MIN:
            return &zdnn_min;
        default:
            return &zdnn_max;
    }
}

class binary_step final : public step {
  public:
    binary_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, binary_fn fn)
        : fn_(fn),
          a_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          b_(n.inputs[1], t[n.inputs[1]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        check(fn_(a_.in(b), b_.in(b), y_.out(b)), "zdnn binary op");
    }

  private:
    binary_fn fn_;
    operand a_, b_, y_;
};

class unary_step final : public step {
  public:
    unary_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, const op::unary& u)
        : op_(u.op),
          epsilon_(u.epsilon),
          x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        switch (op_) {
            case TSR_UNARY_LOG:
                check(zdnn_log(x_.in(b), y_.out(b)), "zdnn_log");
                break;
            case TSR_UNARY_EXP:
                check(zdnn_exp(x_.in(b), y_.out(b)), "zdnn_exp");
                break;
            case TSR_UNARY_SQRT:
                check(zdnn_sqrt(x_.in(b), y_.out(b)), "zdnn_sqrt");
                break;
            default:
                check(zdnn_invsqrt(x_.in(b), epsilon_, y_.out(b)), "zdnn_invsqrt");
                break;
        }
    }

  private:
    std::int32_t op_;
    float epsilon_;
    operand x_, y_;
};

/// An activation; with propagate_nan = 0 every output whose input is NaN becomes 0 afterwards
/// (the zAIU holds NaN and infinities as one NINF value and its activations pass it on).
class activation_step final : public step {
  public:
    activation_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                    const zdnn_activation& a, bool propagate_nan)
        : act_(a),
          propagate_nan_(propagate_nan),
          x_id_(n.inputs[0]),
          y_id_(n.outputs[0]),
          x_desc_(t[x_id_]),
          y_desc_(t[y_id_]),
          x_(x_id_, x_desc_, ZDNN_NHWC),
          y_(y_id_, y_desc_, ZDNN_NHWC) {}
    void run(const buffers& b) override {
        tessera::tensor x;
        if (!propagate_nan_) x = read_sticks(*b.at(static_cast<std::size_t>(x_id_)), x_desc_);
        check(apply_activation(act_, x_.in(b), y_.out(b)), "zdnn activation");
        if (propagate_nan_) return;
        const float* xv = x.data_as<float>();
        edit_sticks(*b.at(static_cast<std::size_t>(y_id_)), y_desc_,
                    [xv](float v, std::int64_t i) { return std::isnan(xv[i]) ? 0.0f : v; });
    }

  private:
    zdnn_activation act_;
    bool propagate_nan_;
    int x_id_, y_id_;
    tensor_desc x_desc_, y_desc_;
    operand x_, y_;
};

class softmax_step final : public step {
  public:
    softmax_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                 const op::softmax& s)
        : act_(s.log ? SOFTMAX_ACT_LOG : SOFTMAX_ACT_NONE),
          mask_(s.mask),
          x_(n.inputs[0], t[n.inputs[0]], ZDNN_3DS),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_3DS) {}
    void run(const buffers& b) override {
        if (mask_) {
            check(zdnn_softmax_mask(x_.in(b), nullptr, act_, mask_, y_.out(b)),
                  "zdnn_softmax_mask");
        } else {
            check(zdnn_softmax(x_.in(b), nullptr, act_, y_.out(b)), "zdnn_softmax");
        }
    }

  private:
    zdnn_softmax_act act_;
    std::uint32_t mask_;
    operand x_, y_;
};

class reorder_step final : public step {
  public:
    reorder_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t)
        : from_(n.inputs[0]), to_(n.outputs[0]), from_desc_(t[from_]), to_desc_(t[to_]) {}
    void run(const buffers& b) override {
        restick(b[from_]->host_data(), b[from_]->size(), from_desc_, b[to_]->host_data(),
                b[to_]->size(), to_desc_);
    }

  private:
    int from_, to_;
    tensor_desc from_desc_, to_desc_;
};

}  // namespace

std::unique_ptr<step> make_elementwise_step(const tessera::sdk::node& n,
                                            const std::vector<tensor_desc>& t) {
    if (const auto* p = n.op.get_if<op::binary>())
        return std::make_unique<binary_step>(n, t, binary_function(p->op));
    if (const auto* p = n.op.get_if<op::unary>()) return std::make_unique<unary_step>(n, t, *p);
    if (const auto* p = n.op.get_if<op::activation>()) {
        std::string why;
        const auto a = map_activation_op(*p, why);
        if (!a) throw tessera::error(tessera::status::unsupported, why, {backend_name, n.name, ""});
        return std::make_unique<activation_step>(n, t, *a, p->propagate_nan != 0);
    }
    if (const auto* p = n.op.get_if<op::softmax>()) return std::make_unique<softmax_step>(n, t, *p);
    if (n.op.get_if<op::reorder>()) return std::make_unique<reorder_step>(n, t);
    return nullptr;
}

}  // namespace zaiu
