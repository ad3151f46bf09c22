// steps_rnn.cpp: lstm and gru on zdnn_lstm / zdnn_gru (FICO / ZRH gate tensors transformed once,
// hn_output and cf_output in 4DS sticks).
#include "steps.hpp"

namespace zaiu {

using tessera::tensor_desc;
namespace op = tessera::op;

namespace {

class rnn_step final : public step {
  public:
    rnn_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, bool lstm,
             std::int32_t direction)
        : lstm_(lstm), direction_(static_cast<lstm_gru_direction>(direction)) {
        std::size_t k = 0;
        x_ = operand(n.inputs[k], t[n.inputs[k]], ZDNN_3DS);
        ++k;
        h0_ = operand(n.inputs[k], t[n.inputs[k]], ZDNN_3DS);
        ++k;
        if (lstm_) {
            c0_ = operand(n.inputs[k], t[n.inputs[k]], ZDNN_3DS);
            ++k;
        }
        for (operand* o : {&w_, &b_, &hw_, &hb_}) {
            *o = operand(n.inputs[k], t[n.inputs[k]], ZDNN_3DS);
            ++k;
        }
        hn_ = operand(n.outputs[0], t[n.outputs[0]], ZDNN_4DS);
        if (lstm_) cf_ = operand(n.outputs[1], t[n.outputs[1]], ZDNN_4DS);
    }

    void run(const buffers& b) override {
        if (lstm_) {
            check(zdnn_lstm(x_.in(b), h0_.in(b), c0_.in(b), w_.in(b), b_.in(b), hw_.in(b),
                            hb_.in(b), direction_, nullptr, hn_.out(b), cf_.out(b)),
                  "zdnn_lstm");
        } else {
            check(zdnn_gru(x_.in(b), h0_.in(b), w_.in(b), b_.in(b), hw_.in(b), hb_.in(b),
                           direction_, nullptr, hn_.out(b)),
                  "zdnn_gru");
        }
    }

  private:
    bool lstm_;
    lstm_gru_direction direction_;
    operand x_, h0_, c0_, w_, b_, hw_, hb_, hn_, cf_;
};

}  // namespace

std::unique_ptr<step> make_rnn_step(const tessera::sdk::node& n,
                                    const std::vector<tensor_desc>& t) {
    if (const auto* l = n.op.get_if<op::lstm>())
        return std::make_unique<rnn_step>(n, t, true, l->direction);
    if (const auto* g = n.op.get_if<op::gru>())
        return std::make_unique<rnn_step>(n, t, false, g->direction);
    return nullptr;
}

}  // namespace zaiu
