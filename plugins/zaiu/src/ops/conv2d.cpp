// ops/conv2d.cpp: conv2d on zdnn_conv2d (SAME or VALID padding, fused bias and relu/clipping;
// other fused activations chained after it).
#include "../layouts.hpp"
#include "../window_padding.hpp"
#include "activation_tail.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_conv(const op::conv2d& c, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    if (c.kind() == conv_kind::transposed)
        return decline(TSR_REASON_ATTRIBUTE, "transposed convolution is not a zDNN op");
    if (c.kind() == conv_kind::depthwise || c.groups() != 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN conv2d has no groups (depthwise)");
    if (c.dilation().h != 1 || c.dilation().w != 1)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN conv2d has no dilation");
    if (c.fuse_batchnorm())
        return decline(TSR_REASON_ATTRIBUTE, "fused batchnorm is not part of zDNN conv2d");
    std::string why;
    if (c.fused_activation().kind != activation_kind::none &&
        !map_activation(c.fused_activation(), why))
        return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
    const auto g = c.geometry(in[0], in[1]);
    if (!zdnn_padding(g.h, g.w, g.kh, g.kw, c.stride().h, c.stride().w, g.y, g.x)) {
        return decline(TSR_REASON_ATTRIBUTE,
                       "padding is neither SAME nor VALID (zDNN conv2d knows only those)");
    }
    if (c.stride().h > 13 || c.stride().w > 13)
        return decline(TSR_REASON_ATTRIBUTE, "zDNN conv2d strides are at most 13");
    if (g.kh > 64 || g.kw > 64)
        return decline(TSR_REASON_SHAPE, "zDNN conv2d kernels are at most 64x64");
    std::vector<tensor_desc> ins{choose(in[0], stick_format::nhwc()),
                                 choose(in[1], stick_format::hwck())};
    if (c.has_bias()) {
        if (in[2].rank() != 1)
            return decline(TSR_REASON_SHAPE,
                           "zDNN conv2d bias is per output channel, not per location");
        ins.push_back(choose(in[2], stick_format::d1()));
    }
    return with_layouts(ins, {in_format(out[0], stick_format::nhwc())});
}

class conv_step final : public step {
  public:
    conv_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t, const op::conv2d& c)
        : x_(n.inputs[0], t[n.inputs[0]], ZDNN_NHWC),
          k_(n.inputs[1], t[n.inputs[1]], ZDNN_HWCK),
          y_(n.outputs[0], t[n.outputs[0]], ZDNN_NHWC),
          sh_(c.stride().h),
          sw_(c.stride().w),
          tail_(chained(c.fused_activation()), y_.transformed()) {
        const auto g = c.geometry(t[n.inputs[0]], t[n.inputs[1]]);
        padding_ = *zdnn_padding(g.h, g.w, g.kh, g.kw, c.stride().h, c.stride().w, g.y, g.x);
        if (c.has_bias()) {
            bias_ = operand(n.inputs[2], t[n.inputs[2]], ZDNN_1D);
        } else {
            zero_bias_ = scratch::zeros(vector_shape(static_cast<std::uint32_t>(g.o)));
        }
        std::string why;
        const auto a = map_activation(c.fused_activation(), why);
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
    static std::optional<zdnn_activation> chained(const activation_spec& s) {
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

}  // namespace

void state_conv2d(router& r) {
    r.state<op::conv2d>(framed_rule(&decide_conv),
                        [](const op::conv2d& c, const sdk::node& n, const descs& t) {
                            return std::make_unique<conv_step>(n, t, c);
                        });
}

}  // namespace tessera::plugins::zaiu
