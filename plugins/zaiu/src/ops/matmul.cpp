// ops/matmul.cpp: matmul, gemm and fully_connected on zdnn_matmul_op / matmul_bcast_op /
// matmul_transpose_op, with the bias (C) fused; gemm's [M, N] C is added with zdnn_add and
// fully_connected's activation applied after the product.
#include <cmath>

#include "../activation_map.hpp"
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_matmul(const op::matmul& m, const std::vector<tensor_desc>& in,
                      const std::vector<tensor_desc>& out) {
    const auto g = m.geometry(in);
    std::vector<tensor_desc> ins{matrix_operand(in[0]), matrix_operand(in[1])};
    if (in.size() > 2) {
        const bool needs_stacked_c =
            g.b_stacked;  // stacked and bcast1 take (s, p); unstacked and bcast23 take (p)
        if (needs_stacked_c != g.c_stacked) {
            return decline(TSR_REASON_SHAPE, needs_stacked_c
                                                 ? "zDNN needs a stacked C [s, p] when B is stacked"
                                                 : "zDNN needs C [p] when B is not stacked");
        }
        ins.push_back(g.c_stacked ? choose(in[2], stick_format::d2s(1))
                                  : choose(in[2], stick_format::d1()));
    }
    return with_layouts(ins, {out[0].rank() == 2 ? in_format(out[0], stick_format::d2(1))
                                                 : in_format(out[0], stick_format::d3s())});
}

support decide_gemm(const op::gemm& m, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    if (m.alpha() != 1.0f) return decline(TSR_REASON_ATTRIBUTE, "zDNN matmul has no alpha scaling");
    std::vector<tensor_desc> ins{choose(in[0], stick_format::d2(1)),
                                 choose(in[1], stick_format::d2(1))};
    if (in.size() > 2) {
        if (m.beta() != 1.0f)
            return decline(TSR_REASON_ATTRIBUTE, "zDNN matmul adds C unscaled (beta != 1)");
        ins.push_back(in[2].rank() == 1 ? choose(in[2], stick_format::d1())
                                        : choose(in[2], stick_format::d2(1)));
    }
    return with_layouts(ins, {in_format(out[0], stick_format::d2(1))});
}

support decide_fc(const op::fully_connected& fc, const std::vector<tensor_desc>& in,
                  const std::vector<tensor_desc>& out) {
    std::string why;
    if (fc.fused_activation().kind != activation_kind::none &&
        !map_activation(fc.fused_activation(), why))
        return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
    const int axis = fc.first_flatten_axis() < 0 ? fc.first_flatten_axis() + in[0].rank()
                                                 : fc.first_flatten_axis();
    const auto g = fc.geometry(in[0], in[1]);
    std::vector<tensor_desc> ins{choose(in[0], stick_format::d2(axis),
                                        [&](const zdnn_tensor_desc& t) {
                                            return row_major_format(in[0]) &&
                                                   tfrmd_is(t, 1, 1,
                                                            static_cast<std::uint32_t>(g.rows),
                                                            static_cast<std::uint32_t>(g.inner));
                                        }),
                                 choose(in[1], stick_format::d2(1))};
    if (fc.has_bias()) ins.push_back(choose(in[2], stick_format::d1()));
    return with_layouts(ins, {in_format(out[0], stick_format::d2(out[0].rank() - 1))});
}

struct matmul_setup {
    int a = -1, b = -1, c = -1, y = -1, addend = -1;
    zdnn_data_layouts a_layout = ZDNN_2D, b_layout = ZDNN_2D, y_layout = ZDNN_2D;
    bool a_stacked = false, b_stacked = false, ta = false, tb = false;
    zdnn_matmul_ops op = MATMUL_OP_ADDITION;
    std::optional<zdnn_activation> act;
};

class matmul_step final : public step {
  public:
    matmul_step(const matmul_setup& s, const std::vector<tensor_desc>& t)
        : s_(s),
          a_(s.a, t[s.a], s.a_layout),
          b_(s.b, t[s.b], s.b_layout),
          y_(s.y, t[s.y], s.y_layout) {
        const zdnn_tensor_desc& yt = y_.transformed();
        const bool stacked_c = s.b_stacked;  // (s, p) when B is stacked, (p) otherwise
        if (s.c >= 0) {
            c_ = operand(s.c, t[s.c], stacked_c ? ZDNN_2DS : ZDNN_1D);
        } else {
            pre_shape p;
            p.layout = stacked_c ? ZDNN_2DS : ZDNN_1D;
            p.rank = stacked_c ? 2 : 1;
            p.dims = stacked_c ? std::array<std::uint32_t, 4>{yt.dim4, yt.dim1, 0, 0}
                               : std::array<std::uint32_t, 4>{yt.dim1, 0, 0, 0};
            zero_c_ = scratch::zeros(p);
        }
        if (s.addend >= 0 || s.act) {
            product_ = scratch(view_shape(yt, s.y_layout), FP32);
            if (s.addend >= 0) addend_ = operand(s.addend, t[s.addend], s.y_layout);
        }
    }

    void run(const buffers& b) override {
        const zdnn_ztensor* c = c_ ? c_.in(b) : zero_c_.in();
        zdnn_ztensor* target = product_ ? product_.out() : y_.out(b);
        if (s_.ta || s_.tb) {
            check(zdnn_matmul_transpose_op(a_.in(b), b_.in(b), c, s_.ta, s_.tb, s_.op, target),
                  "zdnn_matmul_transpose_op");
        } else if (s_.a_stacked == s_.b_stacked) {
            check(zdnn_matmul_op(a_.in(b), b_.in(b), c, s_.op, target), "zdnn_matmul_op");
        } else {
            check(zdnn_matmul_bcast_op(a_.in(b), b_.in(b), c,
                                       static_cast<zdnn_matmul_bcast_ops>(s_.op), target),
                  "zdnn_matmul_bcast_op");
        }
        if (!product_) return;
        if (addend_) {
            check(zdnn_add(product_.in(), addend_.in(b), y_.out(b)), "zdnn_add");
        } else {
            check(apply_activation(*s_.act, product_.in(), y_.out(b)), "zdnn activation");
        }
    }

  private:
    matmul_setup s_;
    operand a_, b_, c_, y_, addend_;
    scratch zero_c_, product_;
};

/// The setup every matmul-family step starts from: operands A, B and output Y.
matmul_setup operands_of(const sdk::node& n) {
    matmul_setup s;
    s.a = n.inputs.at(0);
    s.b = n.inputs.at(1);
    s.y = n.outputs.at(0);
    return s;
}

}  // namespace

void state_matmul(router& r) {
    r.state<op::matmul>(framed_rule(&decide_matmul),
                        [](const op::matmul& m, const sdk::node& n, const descs& t) {
                            matmul_setup s = operands_of(n);
                            s.a_layout = matrix_layout(t[s.a]);
                            s.b_layout = matrix_layout(t[s.b]);
                            s.y_layout = matrix_layout(t[s.y]);
                            s.a_stacked = t[s.a].rank() == 3;
                            s.b_stacked = t[s.b].rank() == 3;
                            s.ta = m.transpose_a();
                            s.tb = m.transpose_b();
                            s.op = static_cast<zdnn_matmul_ops>(
                                to_c(m.kind()));  // numbered as zDNN numbers them
                            if (n.inputs.size() > 2) s.c = n.inputs[2];
                            return std::make_unique<matmul_step>(s, t);
                        });
    r.state<op::gemm>(framed_rule(&decide_gemm),
                      [](const op::gemm& g, const sdk::node& n, const descs& t) {
                          matmul_setup s = operands_of(n);
                          s.ta = g.trans_a();
                          s.tb = g.trans_b();
                          if (n.inputs.size() > 2)
                              (t[n.inputs[2]].rank() == 1 ? s.c : s.addend) = n.inputs[2];
                          return std::make_unique<matmul_step>(s, t);
                      });
    r.state<op::fully_connected>(framed_rule(&decide_fc), [](const op::fully_connected& fc,
                                                             const sdk::node& n, const descs& t) {
        matmul_setup s = operands_of(n);
        s.tb = !fc.weights_transposed();  // weights [O, I]: the product takes them transposed
        if (fc.has_bias()) s.c = n.inputs[2];
        std::string why;
        s.act = map_activation(fc.fused_activation(), why);
        return std::make_unique<matmul_step>(s, t);
    });
}

}  // namespace tessera::plugins::zaiu
