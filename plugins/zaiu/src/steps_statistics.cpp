// steps_statistics.cpp: moments, layer_norm (statistics form, and the axes form as moments +
// layernorm), norm and reduce (min, max and their indices) on their zDNN calls.
#include "steps.hpp"

namespace zaiu {

using tessera::tensor_desc;
namespace op = tessera::op;

namespace {

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
        : bessel_(m.bessel == TSR_BESSEL_SAMPLE ? MOMENTS_BESSEL_SAMPLE
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
          beta_(l.beta),
          gamma_(l.gamma),
          epsilon_(l.epsilon) {
        if (l.mode == TSR_LAYER_NORM_STATISTICS) {
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
        : op_(static_cast<zdnn_reduce_ops>(r.op)),
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

std::unique_ptr<step> make_statistics_step(const tessera::sdk::node& n,
                                           const std::vector<tensor_desc>& t) {
    if (const auto* m = n.op.get_if<op::moments>()) return std::make_unique<moments_step>(n, t, *m);
    if (const auto* l = n.op.get_if<op::layer_norm>())
        return std::make_unique<layer_norm_step>(n, t, *l);
    if (n.op.get_if<op::norm>()) return std::make_unique<norm_step>(n, t);
    if (const auto* r = n.op.get_if<op::reduce>()) return std::make_unique<reduce_step>(n, t, *r);
    return nullptr;
}

}  // namespace zaiu
