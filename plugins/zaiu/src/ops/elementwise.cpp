// ops/elementwise.cpp: binary (add, sub, mul, div, min, max), unary (log, exp, sqrt, invsqrt)
// and activations on zAIU: what each accepts (equal shapes, one layout for every operand) and
// the zDNN call that runs it.
#include <cmath>

#include "../activation_map.hpp"
#include "../host_fixup.hpp"
#include "../host_transfer.hpp"
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_binary(const op::binary& b, const std::vector<tensor_desc>& in,
                      const std::vector<tensor_desc>& out) {
    if (b.kind() == binary_kind::pow)
        return decline(TSR_REASON_ATTRIBUTE, "pow has no zDNN counterpart");
    if (b.alpha() != 1.0f || b.beta() != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN binary ops have no alpha/beta scaling");
    if (b.uses_c())
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN binary ops do not accumulate into C (gamma != 0)");
    if (in[0].dims() != in[1].dims()) {
        return decline(TSR_REASON_SHAPE, "zDNN element-wise ops need equal shapes; " +
                                             in[0].dims().to_string() + " and " +
                                             in[1].dims().to_string() + " broadcast");
    }
    return same_layout_everywhere({in[0], in[1]}, out);
}

support decide_unary(const op::unary& u, const std::vector<tensor_desc>& in,
                     const std::vector<tensor_desc>& out) {
    const unary_kind k = u.kind();
    if (k != unary_kind::log && k != unary_kind::exp && k != unary_kind::sqrt &&
        k != unary_kind::rsqrt) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "unary " + std::string(to_string(k)) + " has no zDNN counterpart");
    }
    return same_layout_everywhere(in, out);
}

support decide_activation(const op::activation& a, const std::vector<tensor_desc>& in,
                          const std::vector<tensor_desc>& out) {
    std::string why;
    if (!map_activation_op(a, why)) return decline(TSR_REASON_ATTRIBUTE, why);
    return same_layout_everywhere(in, out);
}

using binary_fn = zdnn_status (*)(const zdnn_ztensor*, const zdnn_ztensor*, zdnn_ztensor*);

binary_fn binary_function(binary_kind o) {
    switch (o) {
        case binary_kind::add:
            return &zdnn_add;
        case binary_kind::sub:
            return &zdnn_sub;
        case binary_kind::mul:
            return &zdnn_mul;
        case binary_kind::div:
            return &zdnn_div;
        case binary_kind::min:
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
        : op_(u.kind()),
          epsilon_(u.epsilon()),
          x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        switch (op_) {
            case unary_kind::log:
                check(zdnn_log(x_.in(b), y_.out(b)), "zdnn_log");
                break;
            case unary_kind::exp:
                check(zdnn_exp(x_.in(b), y_.out(b)), "zdnn_exp");
                break;
            case unary_kind::sqrt:
                check(zdnn_sqrt(x_.in(b), y_.out(b)), "zdnn_sqrt");
                break;
            default:
                check(zdnn_invsqrt(x_.in(b), epsilon_, y_.out(b)), "zdnn_invsqrt");
                break;
        }
    }

  private:
    unary_kind op_;
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

}  // namespace

void state_elementwise(router& r) {
    r.state<op::binary>(framed_rule(&decide_binary),
                        [](const op::binary& o, const sdk::node& n, const descs& t) {
                            return std::make_unique<binary_step>(n, t, binary_function(o.kind()));
                        });
    r.state<op::unary>(framed_rule(&decide_unary),
                       [](const op::unary& o, const sdk::node& n, const descs& t) {
                           return std::make_unique<unary_step>(n, t, o);
                       });
    r.state<op::activation>(
        framed_rule(&decide_activation),
        [](const op::activation& o, const sdk::node& n, const descs& t) -> std::unique_ptr<step> {
            std::string why;
            const auto a = map_activation_op(o, why);
            if (!a)
                throw tessera::error(tessera::status::unsupported, why, {backend_name, n.name, ""});
            return std::make_unique<activation_step>(n, t, *a, o.propagate_nan());
        });
}

}  // namespace tessera::plugins::zaiu
