// ops/softmax.cpp: softmax and log-softmax (optionally masked) over the innermost dims on
// zdnn_softmax / zdnn_softmax_mask, in 3DS sticks.
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_softmax(const op::softmax& s, const std::vector<tensor_desc>& in,
                       const std::vector<tensor_desc>& out) {
    const int rank = in[0].rank();
    const int axis = s.axis() < 0 ? s.axis() + rank : s.axis();
    if (axis + s.axis_count() != rank) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN softmax runs over the innermost dims; axis " + std::to_string(axis) +
                           " count " + std::to_string(s.axis_count()) + " leaves dims after them");
    }
    if (s.beta() != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE,
                       "beta " + std::to_string(s.beta()) +
                           ": zDNN softmax has no input scale (softmax(beta x))");
    if (s.log() && s.mask())
        return decline(TSR_REASON_ATTRIBUTE,
                       "masked log-softmax: zDNN writes 0, not -infinity, past the mask");
    const auto g = s.geometry(in[0]);
    auto ok = vectors_of(g.length);
    const tensor_desc chosen = row_major_format(in[0]) ? choose(in[0], stick_format::d2(axis), ok)
                                                       : choose(in[0], stick_format::d2(axis));
    return with_layouts({chosen}, {in_format(out[0], *format_of(chosen))});
}

class softmax_step final : public step {
  public:
    softmax_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                 const op::softmax& s)
        : act_(s.log() ? SOFTMAX_ACT_LOG : SOFTMAX_ACT_NONE),
          mask_(s.mask()),
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

}  // namespace

void state_softmax(router& r) {
    r.state<op::softmax>(framed_rule(&decide_softmax),
                         [](const op::softmax& o, const sdk::node& n, const descs& t) {
                             return std::make_unique<softmax_step>(n, t, o);
                         });
}

}  // namespace tessera::plugins::zaiu
