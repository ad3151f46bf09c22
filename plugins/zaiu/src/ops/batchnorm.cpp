// ops/batchnorm.cpp: batchnorm on zdnn_batchnorm (the a*x+b form; the statistics form computes
// a and b on the zAIU first), a fused activation chained after it.
#include "../layouts.hpp"
#include "activation_tail.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_batchnorm(const op::batchnorm& b, const std::vector<tensor_desc>& in,
                         const std::vector<tensor_desc>& out) {
    std::string why;
    if (b.fused_activation().kind != activation_kind::none &&
        !map_activation(b.fused_activation(), why))
        return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
    const auto f = channels_last(in[0]);
    if (!f)
        return decline(TSR_REASON_SHAPE,
                       "zDNN batchnorm needs [N, C] or [N, C, H, W] (channels innermost)");
    std::vector<tensor_desc> ins{choose(in[0], *f)};
    for (std::size_t i = 1; i < in.size(); ++i) ins.push_back(choose(in[i], stick_format::d1()));
    return with_layouts(ins, {in_format(out[0], *f)});
}

class batchnorm_step final : public step {
  public:
    batchnorm_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                   const op::batchnorm& bn)
        : x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC),
          affine_(bn.kind() == batchnorm_kind::affine),
          epsilon_(bn.epsilon()),
          tail_(activation_of(bn.fused_activation()), y_.transformed()) {
        const std::size_t params =
            n.inputs.size() - (bn.fused_activation().kind == activation_kind::prelu ? 1 : 0);
        for (std::size_t i = 1; i < params; ++i)
            p_.emplace_back(n.inputs[i], t[n.inputs[i]], ZDNN_1D);
        if (!affine_) {
            const pre_shape v = vector_shape(x_.transformed().dim1);
            a_ = scratch(v, FP32);
            b_ = scratch(v, FP32);
            tmp_ = scratch(v, FP32);
            if (p_.size() < 4) zeros_ = scratch::zeros(v);
        }
    }

    void run(const buffers& b) override {
        const zdnn_ztensor* a = nullptr;
        const zdnn_ztensor* c = nullptr;
        if (affine_) {
            a = p_[0].in(b);
            c = p_[1].in(b);
        } else {  // a = scale / sqrt(var + eps), b = shift - mean * a
            const bool scaled = p_.size() == 4;
            check(zdnn_invsqrt(p_[1].in(b), epsilon_, scaled ? tmp_.out() : a_.out()),
                  "zdnn_invsqrt");
            if (scaled) check(zdnn_mul(tmp_.in(), p_[2].in(b), a_.out()), "zdnn_mul");
            check(zdnn_mul(p_[0].in(b), a_.in(), tmp_.out()), "zdnn_mul");
            check(zdnn_sub(scaled ? p_[3].in(b) : zeros_.in(), tmp_.in(), b_.out()), "zdnn_sub");
            a = a_.in();
            c = b_.in();
        }
        zdnn_ztensor* out = y_.out(b);
        check(zdnn_batchnorm(x_.in(b), a, c, tail_.target(out)), "zdnn_batchnorm");
        tail_.finish(out);
    }

  private:
    static std::optional<zdnn_activation> activation_of(const activation_spec& s) {
        std::string why;
        return map_activation(s, why);
    }

    operand x_, y_;
    std::vector<operand> p_;  // mean, variance[, scale, shift] or a, b
    bool affine_;
    float epsilon_;
    scratch a_, b_, tmp_, zeros_;
    activation_tail tail_;
};

}  // namespace

void state_batchnorm(router& r) {
    r.state<op::batchnorm>(framed_rule(&decide_batchnorm),
                           [](const op::batchnorm& bn, const sdk::node& n, const descs& t) {
                               return std::make_unique<batchnorm_step>(n, t, bn);
                           });
}

}  // namespace tessera::plugins::zaiu
