// ops/statistics.cpp: moments, layer_norm (statistics form, and the axes form as moments +
// layernorm), norm and reduce (min, max and their indices) on their zDNN calls.
#include <cmath>

#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_moments(const op::moments& m, const std::vector<tensor_desc>& in,
                       const std::vector<tensor_desc>& out) {
    const int axis = m.first_axis() < 0 ? m.first_axis() + in[0].rank() : m.first_axis();
    return with_layouts({per_row(in[0], axis)}, {in_format(out[0], stick_format::d2s(axis)),
                                                 in_format(out[1], stick_format::d2s(axis))});
}

support decide_layer_norm(const op::layer_norm& l, const std::vector<tensor_desc>& in,
                          const std::vector<tensor_desc>& out) {
    if (!std::isfinite(l.gamma()) || !std::isfinite(l.beta()))
        return decline(TSR_REASON_ATTRIBUTE, "gamma and beta must be finite");
    if (l.kind() == layer_norm_kind::statistics) {
        for (std::size_t i = 1; i < 3; ++i) {
            for (int d = 1; d < in[i].rank(); ++d)
                if (in[i].dim(d) != 1)
                    return decline(TSR_REASON_SHAPE,
                                   "zDNN layernorm takes one mean and variance per dim-0 index");
            if (in[i].dim(0) != in[0].dim(0))
                return decline(TSR_REASON_SHAPE,
                               "zDNN layernorm takes one mean and variance per dim-0 index");
        }
        const tensor_desc src = per_row(in[0], 1);
        return with_layouts(
            {src, choose(in[1], stick_format::d2s(1)), choose(in[2], stick_format::d2s(1))},
            {in_format(out[0], *format_of(src))});
    }
    if (l.has_gamma() || l.has_beta())
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN layernorm scales by scalars only (gamma/beta tensors given)");
    const int axis = l.axis() < 0 ? l.axis() + in[0].rank() : l.axis();
    const tensor_desc src = per_row(in[0], axis);
    return with_layouts({src}, {in_format(out[0], *format_of(src))});
}

support decide_norm(const op::norm& n, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    const int rank = in[0].rank();
    const int axis = n.axis() < 0 ? n.axis() + rank : n.axis();
    if (axis != rank - 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN norm reduces the innermost dim only");
    const stick_format f = stick_format::d2(rank - 1);
    return with_layouts({choose(in[0], f), choose(in[1], f)}, {in_format(out[0], f)});
}

support decide_reduce(const op::reduce& r, const std::vector<tensor_desc>& in,
                      const std::vector<tensor_desc>& out) {
    if (r.kind() > reduce_kind::max_idx)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN reduce has min, max and their indices only");
    if (r.is_index() && r.select_last_index())
        return decline(TSR_REASON_ATTRIBUTE,
                       "zDNN reduce returns the first index of equal extremes");
    const int rank = in[0].rank();
    const int axis = r.axis() < 0 ? r.axis() + rank : r.axis();
    if (axis != rank - 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN reduce works along the innermost dim only");
    const stick_format f = stick_format::d2(rank - 1);
    return with_layouts({choose(in[0], f)}, {in_format(out[0], f)});
}

pre_shape per_row_shape(std::uint32_t rows) {
    pre_shape p;
    p.layout = ZDNN_NHWC;
    p.rank = 4;
    p.dims = {rows, 1, 1, 1};
    return p;
}

class moments_step final : public step {
  public:
    moments_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                 const op::moments& m)
        : bessel_(m.bessel() == bessel_correction::sample ? MOMENTS_BESSEL_SAMPLE
                                                          : MOMENTS_BESSEL_POPULATION),
          x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          mean_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC),
          var_(n.outputs[1], t[n.outputs[1]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        check(zdnn_moments(x_.in(b), bessel_, mean_.out(b), var_.out(b)), "zdnn_moments");
    }

  private:
    zdnn_moments_bessel bessel_;
    operand x_, mean_, var_;
};

class layer_norm_step final : public step {
  public:
    layer_norm_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                    const op::layer_norm& l)
        : x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC),
          beta_(l.beta()),
          gamma_(l.gamma()),
          epsilon_(l.epsilon()) {
        if (l.kind() == layer_norm_kind::statistics) {
            mean_ = operand(n.inputs[1], t[n.inputs[1]], ZDNN_NHWC);
            var_ = operand(n.inputs[2], t[n.inputs[2]], ZDNN_NHWC);
        } else {
            const pre_shape p = per_row_shape(x_.transformed().dim4);
            own_mean_ = scratch(p, FP32);
            own_var_ = scratch(p, FP32);
        }
    }
    void run(const buffers& b) override {
        if (!mean_)
            check(
                zdnn_moments(x_.in(b), MOMENTS_BESSEL_POPULATION, own_mean_.out(), own_var_.out()),
                "zdnn_moments");
        check(
            zdnn_layernorm(x_.in(b), mean_ ? mean_.in(b) : own_mean_.in(),
                           mean_ ? var_.in(b) : own_var_.in(), beta_, gamma_, epsilon_, y_.out(b)),
            "zdnn_layernorm");
    }

  private:
    operand x_, y_, mean_, var_;
    scratch own_mean_, own_var_;
    float beta_, gamma_, epsilon_;
};

class norm_step final : public step {
  public:
    norm_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t)
        : a_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          b_(n.inputs[1], t[n.inputs[1]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        check(zdnn_norm(a_.in(b), b_.in(b), y_.out(b)), "zdnn_norm");
    }

  private:
    operand a_, b_, y_;
};

class reduce_step final : public step {
  public:
    reduce_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, const op::reduce& r)
        : op_(static_cast<zdnn_reduce_ops>(to_c(r.kind()))),  // numbered as zDNN numbers them
          x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        check(zdnn_reduce(x_.in(b), nullptr, op_, y_.out(b)), "zdnn_reduce");
    }

  private:
    zdnn_reduce_ops op_;
    operand x_, y_;
};

}  // namespace

void state_statistics(router& r) {
    r.state<op::moments>(framed_rule(&decide_moments),
                         [](const op::moments& m, const sdk::node& n, const descs& t) {
                             return std::make_unique<moments_step>(n, t, m);
                         });
    r.state<op::layer_norm>(framed_rule(&decide_layer_norm),
                            [](const op::layer_norm& l, const sdk::node& n, const descs& t) {
                                return std::make_unique<layer_norm_step>(n, t, l);
                            });
    r.state<op::norm>(framed_rule(&decide_norm),
                      [](const op::norm&, const sdk::node& n, const descs& t) {
                          return std::make_unique<norm_step>(n, t);
                      });
    r.state<op::reduce>(
        [](const op::reduce& red, const sdk::op_query& q) {
            // index reductions write i32 outputs
            return framed(
                q, tensor_rules{red.is_index(), false},
                [&](const descs& in, const descs& out) { return decide_reduce(red, in, out); });
        },
        [](const op::reduce& red, const sdk::node& n, const descs& t) {
            return std::make_unique<reduce_step>(n, t, red);
        });
}

}  // namespace tessera::plugins::zaiu
