// ops/activation.cpp: element-wise activations. f32 tensors with a kind the runtime has (NaN
// kept, no clipping value) run on the runtime's Activation (nchw16c for 4-D tensors, row-major
// otherwise) and may be a fused chain's epilogue. An f32 PReLU of a 4-D tensor with one slope
// per channel or one for all runs in nchw16c in the plugin's own loop (so it stays between
// blocked convolutions). Every other form (PReLU with any other slope broadcast, the tanh form
// of GELU, NaN suppression, a clipping value, every other dtype) runs on row-major tensors in
// the plugin's own loops split over the runtime's threads (typed_broadcast.hpp), computing each
// element in double with the reference's activation function: f32 and f64 in their own type's
// loops, every other dtype through its real value, stored as the reference stores it
// (element_values.hpp).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <tessera/cpu/functions/activation.hpp>
#include <tessera/numeric/convert.hpp>
#include <tessera/reference/activation_function.hpp>

#include "../blocked_pixels.hpp"
#include "../element_values.hpp"
#include "../step_buffers.hpp"
#include "../typed_broadcast.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Whether activation `a` on tensors `in` runs on the runtime's Activation.
bool on_runtime_activation(const op::activation& a, const descs& in) {
    return all_f32(in) && runtime_has(a.spec()) && a.propagate_nan() && a.clipping_value() == 0.0f;
}

/// Whether `a` is an f32 PReLU of a 4-D src (NaN kept, no clipping value) whose slope is one per
/// channel ([C], [1, C, 1, 1], [C, 1, 1]) or one for all: computed in nchw16c.
bool blocked_prelu(const op::activation& a, const descs& in) {
    if (!a.has_slope() || !all_f32(in) || in[0].rank() != 4 || !a.propagate_nan() ||
        a.clipping_value() != 0.0f)
        return false;
    const tensor_desc& slope = in[1];
    const std::int64_t count = slope.num_elements();
    if (count == 1) return true;
    if (count != in[0].dim(1)) return false;
    const shape& s = slope.dims();
    return s.rank() == 1 || s == shape{1, count, 1, 1} || s == shape{count, 1, 1};
}

route_choice activation_route(const op::activation& a, const descs& in) {
    if (on_runtime_activation(a, in) || blocked_prelu(a, in))
        return native(in[0].rank() == 4 ? route::native_blocked : route::native_plain);
    return native(route::native_plain);
}

/// An activation on the runtime in nchw16c may be a chain's epilogue.
fusion_role activation_fusion(const op::activation& a, const node_view& v) {
    fusion_role role;
    if (!on_runtime_activation(a, v.in) || v.in[0].rank() != 4) return role;
    role.stage = fusion_stage::epilogue;
    role.activation = runtime_activation(a.spec());
    return role;
}

class activation_step final : public function_step {
  public:
    activation_step(const build_context& b, const op::activation& a) : function_step(b.node) {
        auto f = std::make_unique<runtime::Activation>(b.ctx);
        f->configure(in(0), out(), runtime_activation(a.spec()));
        set_function(std::move(f));
    }
};

/// One element of an activation of kind K in double, as the reference computes it: NaN kept
/// (or 0 under NaN suppression), else the kind with its parameters (`slope`: PReLU's), then
/// the clipping value. The kind is a compile-time constant, so each kind is its own loop.
template <activation_kind K>
struct activation_in_double {
    float a = 0.0f, b = 0.0f;
    bool propagate_nan = true;
    double clip = 0.0;

    double operator()(double x, double slope = 0.0) const {
        const double y = std::isnan(x) ? (propagate_nan ? x : 0.0)
                                       : reference::activate(activation_spec{K, a, b}, x, slope);
        return clip > 0 && y > clip ? clip : y;
    }
};

/// Calls body(f) with f the activation_in_double of `a`'s kind and parameters.
template <int Kind = 0, typename Body>
void with_activation_in_double(const op::activation& a, Body&& body) {
    constexpr int kinds = static_cast<int>(enum_info<activation_kind>::names.size());
    if constexpr (Kind < kinds) {
        constexpr auto kind = static_cast<activation_kind>(Kind);
        if (a.kind() != kind) return with_activation_in_double<Kind + 1>(a, body);
        body(activation_in_double<kind>{a.a(), a.b(), a.propagate_nan(),
                                        static_cast<double>(a.clipping_value())});
    }
}

/// The run kernel of `a` on `in` (src, and PReLU's slope) into `out`: when every tensor is f32
/// or every one f64, a loop on that type; otherwise per element through real values.
template <std::size_t N>
run_kernel<N> activation_kernel(const op::activation& a, const std::array<tensor_desc, N>& in,
                                const tensor_desc& out, const std::array<bool, N>& uniform) {
    bool same_type = true;
    for (const auto& d : in) same_type = same_type && d.type() == out.type();
    run_kernel<N> kernel;
    with_activation_in_double(a, [&](auto f) {
        const auto typed = [&](auto zero) {
            using T = decltype(zero);
            if constexpr (N == 1) {
                kernel = elementwise_kernel<T, T>(
                    [f](T x) { return static_cast<T>(f(static_cast<double>(x))); }, uniform);
            } else {
                kernel = elementwise_kernel<T, T, T>(
                    [f](T x, T s) {
                        return static_cast<T>(f(static_cast<double>(x), static_cast<double>(s)));
                    },
                    uniform);
            }
        };
        if (same_type && out.type() == dtype::f32) return typed(float{});
        if (same_type && out.type() == dtype::f64) return typed(double{});
        std::array<dtype, N> types{};
        std::array<quantization, N> quants{};
        std::array<std::int64_t, N> steps{};
        for (std::size_t k = 0; k < N; ++k) {
            types[k] = in[k].type();
            quants[k] = in[k].quant();
            steps[k] = uniform[k] ? 0 : static_cast<std::int64_t>(size_of(types[k]));
        }
        const dtype to = out.type();
        const quantization qout = out.quant();
        const auto out_step = static_cast<std::int64_t>(size_of(to));
        kernel = [=](char* dst, const std::array<const char*, N>& src, std::int64_t len) {
            for (std::int64_t i = 0; i < len; ++i) {
                std::array<double, N> v{};
                for (std::size_t k = 0; k < N; ++k)
                    v[k] = numeric::load_real(types[k], quants[k], src[k] + i * steps[k]);
                const double y = N == 1 ? f(v[0]) : f(v[0], v[N - 1]);
                store_real_value(to, qout, dst + i * out_step, y);
            }
        };
    });
    return kernel;
}

/// PReLU's slope as it broadcasts to `src`: a rank-1 slope of extent C (not 1) against a src
/// of rank >= 2 reads slope[c] at channel c (dim 1), so it is seen as [1, C, 1, ...].
tensor_desc prelu_slope_view(const tensor_desc& src, const tensor_desc& slope) {
    if (src.rank() < 2 || slope.rank() != 1 || slope.dim(0) == 1) return slope;
    shape s;
    for (int i = 0; i < src.rank(); ++i) s.push_back(i == 1 ? slope.dim(0) : 1);
    return tensor_desc(s, slope.type(), layout::row_major(), slope.quant());
}

/// The step of activation `a` in the plugin's own loops.
std::unique_ptr<step> own_activation_step(const op::activation& a, const build_context& b) {
    const node_view& v = b.node;
    if (!a.has_slope()) {
        return std::make_unique<broadcast_step<1>>(
            v, b.ctx, std::array<int, 1>{v.n.inputs[0]}, std::array<tensor_desc, 1>{v.in[0]},
            [&](const std::array<bool, 1>& uniform) {
                return activation_kernel<1>(a, {v.in[0]}, v.out[0], uniform);
            });
    }
    const std::array<tensor_desc, 2> in{v.in[0], prelu_slope_view(v.in[0], v.in[1])};
    return std::make_unique<broadcast_step<2>>(
        v, b.ctx, std::array<int, 2>{v.n.inputs[0], v.n.inputs[1]}, in,
        [&](const std::array<bool, 2>& uniform) {
            return activation_kernel<2>(a, in, v.out[0], uniform);
        });
}

/// f32 PReLU in nchw16c, the slope per channel or one for all: each 16-channel block of slopes
/// applies to every pixel of the block, blocks split over the runtime's threads. y = x where x
/// is positive or NaN, else slope * x (the float product rounds like the reference's double
/// one, which is exact). Channels past C in the last block are written as zero.
class blocked_prelu_step final : public step {
  public:
    explicit blocked_prelu_step(const build_context& b)
        : ctx_(b.ctx),
          src_(b.node.n.inputs[0]),
          slope_(b.node.n.inputs[1]),
          dst_(b.node.n.outputs[0]),
          per_channel_(b.node.in[1].num_elements() > 1),
          image_(runtime_info(b.node.in[0])),
          out_(runtime_info(b.node.out[0])) {}

    void run(const buffers& b) override {
        const auto* x = static_cast<const unsigned char*>(host_data_of(b, src_));
        const auto* slope = static_cast<const float*>(host_data_of(b, slope_));
        auto* y = static_cast<unsigned char*>(host_data_of(b, dst_));
        const std::int64_t blocks = (out_.c() + channel_block - 1) / channel_block;
        const std::int64_t items = out_.n() * blocks;
        const std::int64_t elements = items * channel_block * out_.h() * out_.w();
        parallel_items(ctx_, items, parts_for(ctx_, elements, broadcast_grain),
                       [&](std::int64_t i) {
                           run_block(i / blocks, (i % blocks) * channel_block, x, slope, y);
                       });
    }

  private:
    void run_block(std::int64_t n, std::int64_t c, const unsigned char* x, const float* slope,
                   unsigned char* y) const {
        float s[channel_block] = {};
        for (std::int64_t l = 0; l < std::min(channel_block, out_.c() - c); ++l)
            s[l] = slope[per_channel_ ? c + l : 0];
        for_block_pixels(image_, x, out_, y, n, c, [&](const float* xv, float* yv) {
            for (std::int64_t l = 0; l < channel_block; ++l)
                yv[l] = !(xv[l] <= 0.0f) ? xv[l] : s[l] * xv[l];
        });
    }

    const runtime::Context& ctx_;
    int src_, slope_, dst_;
    bool per_channel_;
    runtime::TensorInfo image_, out_;
};

}  // namespace

void state_activation(router& r) {
    r.state<op::activation>(
        [](const op::activation& a, const query_view& v) {
            return answer(activation_route(a, v.q.inputs), v.in, v.out);
        },
        [](const op::activation& a, const build_context& b) -> std::unique_ptr<step> {
            if (on_runtime_activation(a, b.node.in)) return std::make_unique<activation_step>(b, a);
            if (blocked_prelu(a, b.node.in) && is_blocked(b.node.in[0]))
                return std::make_unique<blocked_prelu_step>(b);
            return own_activation_step(a, b);
        },
        &activation_fusion);
}

}  // namespace tessera::plugins::cpu
