// ops/rnn.cpp: lstm and gru on zdnn_lstm / zdnn_gru (FICO / ZRH gate tensors transformed once,
// hn_output and cf_output in 4DS sticks).
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

/// LSTM (gates 4) and GRU (gates 3): zdnn_lstm / zdnn_gru with FICO / ZRH gate tensors.
support decide_rnn(int gates, const std::vector<tensor_desc>& in,
                   const std::vector<tensor_desc>& out) {
    const tensor_desc& x = in[0];
    const std::int64_t hidden = in[1].dim(2);
    const std::int64_t limit = gates == 4 ? 8192 : 10880;
    if (hidden > limit)
        return decline(TSR_REASON_SHAPE, "hidden size " + std::to_string(hidden) +
                                             " exceeds zDNN's " + std::to_string(limit));
    const bool prev_bidir = x.rank() == 4 && x.dim(1) == 2;
    std::vector<tensor_desc> ins{x.rank() == 3 ? choose(x, stick_format::d3s())
                                               : choose(x, stick_format::d4s())};
    ins.push_back(choose(in[1], stick_format::d3s()));  // h0
    std::size_t k = 2;
    if (gates == 4) ins.push_back(choose(in[k++], stick_format::d3s()));  // c0
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::weights, prev_bidir)));
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::biases)));
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::hidden_weights)));
    ins.push_back(choose(in[k++], stick_format::rnn(gates, rnn_usage::hidden_biases)));
    std::vector<tensor_desc> outs;
    for (const auto& d : out) outs.push_back(in_format(d, stick_format::d4s()));
    return with_layouts(ins, outs);
}

class rnn_step final : public step {
  public:
    rnn_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, bool lstm,
             rnn_direction direction)
        : lstm_(lstm), direction_(static_cast<lstm_gru_direction>(to_c(direction))) {
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

void state_rnn(router& r) {
    r.state<op::lstm>(
        [](const op::lstm&, const sdk::op_query& q) {
            return framed(q, {},
                          [](const descs& in, const descs& out) { return decide_rnn(4, in, out); });
        },
        [](const op::lstm& l, const sdk::node& n, const descs& t) {
            return std::make_unique<rnn_step>(n, t, true, l.direction());
        });
    r.state<op::gru>(
        [](const op::gru&, const sdk::op_query& q) {
            return framed(q, {},
                          [](const descs& in, const descs& out) { return decide_rnn(3, in, out); });
        },
        [](const op::gru& g, const sdk::node& n, const descs& t) {
            return std::make_unique<rnn_step>(n, t, false, g.direction());
        });
}

}  // namespace tessera::plugins::zaiu
