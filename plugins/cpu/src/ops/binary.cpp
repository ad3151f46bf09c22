// ops/binary.cpp: element-wise add, sub, mul, min, max, div and pow on the runtime's
// ElementwiseBinary: in nchw16c when both operands are 4-D of one shape, row-major otherwise;
// a 4-D operand times (or plus, ...) a per-channel [N, C, 1, 1] one (the squeeze-excite scaling
// of MobileNetV3) in nchw16c in the plugin's own loop. Scaled (alpha, beta, gamma) and non-f32
// forms run in the plugin's typed broadcast loops (binary_typed.cpp).
#include <tessera/cpu/functions/elementwise.hpp>

#include "../blocked_pixels.hpp"
#include "../elementwise_math.hpp"
#include "../parallel_ranges.hpp"
#include "binary_typed.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Which operand of a 4-D binary op is per channel ([N, C, 1, 1] against [N, C, H, W] of the
/// other, H * W > 1): 0 or 1, -1 when neither.
int per_channel_operand(const descs& in) {
    if (in.size() != 2 || in[0].rank() != 4 || in[1].rank() != 4) return -1;
    for (int k = 0; k < 2; ++k) {
        const tensor_desc& s = in[static_cast<std::size_t>(k)];
        const tensor_desc& x = in[static_cast<std::size_t>(1 - k)];
        if (s.dim(0) == x.dim(0) && s.dim(1) == x.dim(1) && s.dim(2) == 1 && s.dim(3) == 1 &&
            x.dim(2) * x.dim(3) > 1)
            return k;
    }
    return -1;
}

route_choice binary_route(const op::binary& b, const descs& in) {
    if (!runtime_binary_form(b, in)) return native(route::native_plain);  // binary_typed.cpp
    if (in[0].rank() == 4 && in[0].dims() == in[1].dims()) return native(route::native_blocked);
    if (per_channel_operand(in) >= 0) return native(route::native_blocked);
    return native(route::native_plain);
}

runtime::ElementwiseOp runtime_op(binary_kind k) {
    switch (k) {
        case binary_kind::add:
            return runtime::ElementwiseOp::add;
        case binary_kind::sub:
            return runtime::ElementwiseOp::sub;
        case binary_kind::mul:
            return runtime::ElementwiseOp::mul;
        case binary_kind::min:
            return runtime::ElementwiseOp::min;
        case binary_kind::max:
            return runtime::ElementwiseOp::max;
        case binary_kind::pow:
            return runtime::ElementwiseOp::pow;
        case binary_kind::div:
            break;
    }
    return runtime::ElementwiseOp::div;
}

class binary_step final : public function_step {
  public:
    binary_step(const build_context& b, const op::binary& o) : function_step(b.node) {
        auto f = std::make_unique<runtime::ElementwiseBinary>(b.ctx);
        f->configure(in(0), in(1), out(), runtime_op(o.kind()));
        set_function(std::move(f));
    }
};

/// x op s or s op x in nchw16c, s per channel: each 16-channel block of s applies to every
/// pixel of x's block. Channels past C in the last block are written as zero. The (image,
/// channel block) planes are split over the threads.
class channel_broadcast_step final : public step {
  public:
    channel_broadcast_step(const node_view& v, binary_kind kind, const runtime::Context& ctx)
        : ctx_(ctx),
          ids_(v.n.inputs),
          dst_(v.n.outputs[0]),
          per_channel_(per_channel_operand(v.in)),
          kind_(kind),
          image_(runtime_info(v.in[static_cast<std::size_t>(1 - per_channel_)])),
          scales_(runtime_info(v.in[static_cast<std::size_t>(per_channel_)])),
          out_(runtime_info(v.out[0])),
          planes_(out_.n() * ((out_.c() + channel_block - 1) / channel_block)),
          parts_(parts_for(ctx, v.out[0].num_elements(), grain)) {}

    void run(const buffers& b) override {
        const auto base = [&](int id) {
            return static_cast<unsigned char*>(b[static_cast<std::size_t>(id)]->host_data());
        };
        const unsigned char* x = base(ids_[static_cast<std::size_t>(1 - per_channel_)]);
        const unsigned char* s = base(ids_[static_cast<std::size_t>(per_channel_)]);
        unsigned char* y = base(dst_);
        const bool scales_first = per_channel_ == 0;
        const std::int64_t blocks = planes_ / std::max<std::int64_t>(1, out_.n());
        parallel_items(ctx_, planes_, parts_, [&](std::int64_t plane) {
            run_block(plane / blocks, plane % blocks * channel_block, x, s, y, scales_first);
        });
    }

  private:
    static constexpr std::int64_t grain = 1 << 14;  // elements per thread at least

    void run_block(std::int64_t n, std::int64_t c, const unsigned char* x, const unsigned char* s,
                   unsigned char* y, bool scales_first) const {
        const auto* scale = reinterpret_cast<const float*>(s + scales_.offset_of(n, c, 0, 0));
        const auto* xv = reinterpret_cast<const float*>(x + image_.offset_of(n, c, 0, 0));
        auto* yv = reinterpret_cast<float*>(y + out_.offset_of(n, c, 0, 0));
        const std::int64_t width = out_.w();
        const bool dense = image_.stride_w() == channel_block && out_.stride_w() == channel_block &&
                           image_.stride_h() == width * channel_block &&
                           out_.stride_h() == width * channel_block;
        if (dense) {  // the plane in one loop
            apply_channel_block(kind_, xv, scale, scales_first, yv, out_.h() * width);
        } else {
            for_block_rows(image_, x, out_, y, n, c, [&](const float* xr, float* yr) {
                for (std::int64_t w = 0; w < width; ++w)
                    apply_channel_block(kind_, xr + w * image_.stride_w(), scale, scales_first,
                                        yr + w * out_.stride_w(), 1);
            });
        }
        // Lanes past the last channel are zero, as the next blocked op expects.
        const std::int64_t valid = std::min(channel_block, out_.c() - c);
        if (valid < channel_block)
            for_block_rows(image_, x, out_, y, n, c, [&](const float*, float* yr) {
                for (std::int64_t w = 0; w < width; ++w)
                    std::fill_n(yr + w * out_.stride_w() + valid, channel_block - valid, 0.0f);
            });
    }

    const runtime::Context& ctx_;
    std::vector<int> ids_;
    int dst_;
    int per_channel_;
    binary_kind kind_;
    runtime::TensorInfo image_, scales_, out_;
    std::int64_t planes_;  // images x channel blocks
    int parts_;
};

}  // namespace

void state_binary(router& r) {
    r.state<op::binary>(
        [](const op::binary& b, const query_view& v) {
            // both operands are activations: on the blocked route both are in nchw16c
            return answer(binary_route(b, v.q.inputs), v.in, v.out, 2);
        },
        [](const op::binary& o, const build_context& b) {
            return routed_step(binary_route(o, b.node.in), b, [&]() -> std::unique_ptr<step> {
                if (!runtime_binary_form(o, b.node.in)) return typed_binary_step(o, b);
                if (is_blocked(b.node.in[0]) && b.node.in[0].dims() != b.node.in[1].dims())
                    return std::make_unique<channel_broadcast_step>(b.node, o.kind(), b.ctx);
                return std::make_unique<binary_step>(b, o);
            });
        });
}

}  // namespace tessera::plugins::cpu
