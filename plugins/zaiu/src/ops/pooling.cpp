// ops/pooling.cpp: average and max pooling (SAME, VALID, global) and meanreduce2d on
// zdnn_avgpool2d / zdnn_maxpool2d / zdnn_meanreduce2d.
#include "../layouts.hpp"
#include "../window_padding.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_pool(const op::pooling& p, const std::vector<tensor_desc>& in,
                    const std::vector<tensor_desc>& out) {
    const auto g = p.geometry(in[0]);
    if (g.h > 1024 || g.w > 1024)
        return decline(TSR_REASON_SHAPE, "zDNN pooling takes heights and widths up to 1024");
    if (!p.global()) {
        const auto pad = zdnn_padding(g.h, g.w, g.kh, g.kw, g.sh, g.sw, g.y, g.x);
        if (!pad)
            return decline(TSR_REASON_ATTRIBUTE,
                           "padding is neither SAME nor VALID (zDNN pooling knows only those)");
        const bool pads = g.y.pad_before + g.y.pad_after + g.x.pad_before + g.x.pad_after > 0;
        if (p.kind() == pooling_kind::average_include_padding && pads) {
            return decline(TSR_REASON_ATTRIBUTE,
                           "zDNN averages exclude SAME padding; this average includes it");
        }
        if (g.kh > 64 || g.kw > 64)
            return decline(TSR_REASON_SHAPE, "zDNN pooling kernels are at most 64x64");
        if (g.sh > 30 || g.sw > 30)
            return decline(TSR_REASON_ATTRIBUTE, "zDNN pooling strides are at most 30");
    }
    return with_layouts({choose(in[0], stick_format::nhwc())},
                        {in_format(out[0], stick_format::nhwc())});
}

support decide_mean_reduce(const std::vector<tensor_desc>& in,
                           const std::vector<tensor_desc>& out) {
    if (in[0].dim(2) > 1024 || in[0].dim(3) > 1024)
        return decline(TSR_REASON_SHAPE, "zDNN meanreduce2d takes H and W up to 1024");
    return with_layouts({choose(in[0], stick_format::nhwc())},
                        {in_format(out[0], stick_format::nhwc())});
}

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

}  // namespace

void state_pooling(router& r) {
    r.state<op::pooling>(framed_rule(&decide_pool),
                         [](const op::pooling& p, const sdk::node& n, const descs& t) {
                             return std::make_unique<pool_step>(n, t, p);
                         });
    r.state<op::mean_reduce2d>(
        [](const op::mean_reduce2d&, const sdk::op_query& q) {
            return framed(q, {}, &decide_mean_reduce);
        },
        [](const op::mean_reduce2d&, const sdk::node& n, const descs& t) {
            return std::make_unique<mean_reduce_step>(n, t);
        });
}

}  // namespace tessera::plugins::zaiu
