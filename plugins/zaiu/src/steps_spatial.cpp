// steps_spatial.cpp: conv2d (fused bias and relu/clipping; other activations chained),
// avg/max pooling (SAME, VALID, global), meanreduce2d and batchnorm (the zDNN a*x+b form; the
// statistics form computes a and b on the zAIU first).
#include "activation_map.hpp"
#include "steps.hpp"
#include "window_padding.hpp"

namespace zaiu {

using tessera::tensor_desc;
namespace op = tessera::op;

namespace {

pre_shape vector_shape(std::uint32_t n) {
    pre_shape p;
    p.layout = ZDNN_1D;
    p.rank = 1;
    p.dims = {n, 0, 0, 0};
    return p;
}

/// Applies an optional chained activation: `produce` writes into the returned target.
class activation_tail {
  public:
    activation_tail(std::optional<zdnn_activation> act, const zdnn_tensor_desc& out) : act_(act) {
        if (act_) tmp_ = scratch(view_shape(out, ZDNN_NHWC), FP32);
    }
    zdnn_ztensor* target(zdnn_ztensor* out) const { return act_ ? tmp_.out() : out; }
    void finish(zdnn_ztensor* out) const {
        if (act_) check(apply_activation(*act_, tmp_.in(), out), "zdnn activation");
    }

  private:
    std::optional<zdnn_activation> act_;
    scratch tmp_;
};

class conv_step final : public step {
  public:
    conv_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, const op::conv2d& c)
        : x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          k_(n.inputs[1], t[n.inputs[1]], ZDNN_HWCK),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC),
          sh_(c.stride_h),
          sw_(c.stride_w),
          tail_(chained(c.activation), y_.transformed()) {
        const auto g = c.geometry(t[n.inputs[0]], t[n.inputs[1]]);
        padding_ = *zdnn_padding(g.h, g.w, g.kh, g.kw, c.stride_h, c.stride_w, g.y, g.x);
        if (c.has_bias) {
            bias_ = operand(n.inputs[2], t[n.inputs[2]], ZDNN_1D);
        } else {
            zero_bias_ = scratch::zeros(vector_shape(static_cast<std::uint32_t>(g.o)));
        }
        std::string why;
        const auto a = map_activation(c.activation, why);
        if (a && a->kind == zdnn_activation::fn::relu) {
            relu_ = true;
            clip_ = a->clip;
        }
    }

    void run(const buffers& b) override {
        zdnn_ztensor* out = y_.out(b);
        check(zdnn_conv2d(x_.in(b), k_.in(b), bias_ ? bias_.in(b) : zero_bias_.in(), padding_, sh_,
                          sw_, relu_ ? CONV2D_ACT_RELU : CONV2D_ACT_NONE,
                          relu_ && clip_ > 0.0f ? &clip_ : nullptr, tail_.target(out)),
              "zdnn_conv2d");
        tail_.finish(out);
    }

  private:
    static std::optional<zdnn_activation> chained(const tsr_activation_spec& s) {
        std::string why;
        auto a = map_activation(s, why);
        if (a && a->kind == zdnn_activation::fn::relu)
            return std::nullopt;  // fused into zdnn_conv2d
        return a;
    }

    operand x_, k_, bias_, y_;
    scratch zero_bias_;
    zdnn_pool_padding padding_ = VALID_PADDING;
    std::uint32_t sh_, sw_;
    bool relu_ = false;
    float clip_ = 0.0f;
    activation_tail tail_;
};

class pool_step final : public step {
  public:
    pool_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, const op::pooling& p)
        : max_(p.is_max()),
          x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {
        const auto g = p.geometry(t[n.inputs[0]]);
        kh_ = static_cast<std::uint32_t>(g.kh);
        kw_ = static_cast<std::uint32_t>(g.kw);
        if (p.global()) {
            sh_ = sw_ = 0;
            padding_ = VALID_PADDING;
        } else {
            sh_ = static_cast<std::uint32_t>(g.sh);
            sw_ = static_cast<std::uint32_t>(g.sw);
            padding_ = *zdnn_padding(g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.y, g.x);
        }
    }
    void run(const buffers& b) override {
        if (max_) {
            check(zdnn_maxpool2d(x_.in(b), padding_, kh_, kw_, sh_, sw_, y_.out(b)),
                  "zdnn_maxpool2d");
        } else {
            check(zdnn_avgpool2d(x_.in(b), padding_, kh_, kw_, sh_, sw_, y_.out(b)),
                  "zdnn_avgpool2d");
        }
    }

  private:
    bool max_;
    operand x_, y_;
    zdnn_pool_padding padding_ = VALID_PADDING;
    std::uint32_t kh_ = 1, kw_ = 1, sh_ = 1, sw_ = 1;
};

class mean_reduce_step final : public step {
  public:
    mean_reduce_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t)
        : x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC) {}
    void run(const buffers& b) override {
        check(zdnn_meanreduce2d(x_.in(b), y_.out(b)), "zdnn_meanreduce2d");
    }

  private:
    operand x_, y_;
};

class batchnorm_step final : public step {
  public:
    batchnorm_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t,
                   const op::batchnorm& bn)
        : x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC),
          affine_(bn.mode == TSR_BATCHNORM_AFFINE),
          epsilon_(bn.epsilon),
          tail_(activation_of(bn.activation), y_.transformed()) {
        const std::size_t params = n.inputs.size() - (bn.activation.kind == TSR_ACT_PRELU ? 1 : 0);
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
    static std::optional<zdnn_activation> activation_of(const tsr_activation_spec& s) {
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

std::unique_ptr<step> make_spatial_step(const tessera::sdk::node& n,
                                        const std::vector<tensor_desc>& t) {
    if (const auto* c = n.op.get_if<op::conv2d>()) return std::make_unique<conv_step>(n, t, *c);
    if (const auto* p = n.op.get_if<op::pooling>()) return std::make_unique<pool_step>(n, t, *p);
    if (n.op.get_if<op::mean_reduce2d>()) return std::make_unique<mean_reduce_step>(n, t);
    if (const auto* bn = n.op.get_if<op::batchnorm>())
        return std::make_unique<batchnorm_step>(n, t, *bn);
    return nullptr;
}

}  // namespace zaiu
