// ops/fully_connected.cpp: fully connected layers on the runtime's Gemm, row-major: src seen as
// [rows, inner] (flattened from first_flatten_axis), times the weights ([O, I], or [I, O] when
// transposed), plus the bias, with the runtime's activation fused; PReLU's slope (one value or
// one per output) is applied after the product. Weights that are a graph constant are packed
// once. An i16 (Q-format) src runs on the plugin's own integer loops with the reference's OpenVX
// fixed-point arithmetic (each product rescaled, rounded and narrowed to 16 bits on its own),
// rows split over the threads, equal to the reference bit for bit. Other dtypes run on the
// reference kernel.
#include <algorithm>

#include <tessera/cpu/functions/gemm.hpp>
#include <tessera/reference/fully_connected.hpp>

#include "../parallel_ranges.hpp"
#include "bound_views.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

bool fused_prelu(const op::fully_connected& fc) {
    return fc.fused_activation().kind == activation_kind::prelu;
}

route_choice fully_connected_route(const op::fully_connected& fc, const descs& in) {
    if (in[0].type() == dtype::i16) return native(route::native_plain);
    if (!all_f32(in)) return reference_because("non-f32 fully connected");
    if (!fused_prelu(fc) && !runtime_has(fc.fused_activation()))
        return reference_because("fully connected activation the runtime lacks");
    return native(route::native_plain);
}

class fully_connected_step final : public step {
  public:
    fully_connected_step(const build_context& b, const op::fully_connected& fc)
        : node_(b.node.n), ctx_(b.ctx), prelu_(fused_prelu(fc)) {
        const auto g = fc.geometry(b.node.in[0], b.node.in[1]);
        rows_ = g.rows;
        outputs_ = g.outputs;
        src_ = bound_view({g.rows, g.inner});
        weights_ =
            bound_view(fc.weights_transposed() ? std::vector<std::int64_t>{g.inner, g.outputs}
                                               : std::vector<std::int64_t>{g.outputs, g.inner});
        if (fc.has_bias()) bias_ = bound_view({g.outputs});
        dst_ = bound_view({g.rows, g.outputs});
        if (prelu_) slope_count_ = b.node.in.back().num_elements();
        runtime::GemmInfo info;
        info.trans_b = !fc.weights_transposed();
        // Constant weights are packed into the kernel's panels once, on the first run.
        info.b_is_constant = b.node.p.is_constant(node_.inputs[1]);
        if (!prelu_) info.activation = runtime_activation(fc.fused_activation());
        gemm_ = std::make_unique<runtime::Gemm>(b.ctx, b.memory);
        gemm_->configure(*src_, *weights_, bias_.get(), *dst_, info);
        parts_ = parts_for(ctx_, rows_ * outputs_, grain);
    }

    void run(const buffers& b) override {
        const auto data = [&](std::size_t i) {
            return b[static_cast<std::size_t>(node_.inputs[i])]->host_data();
        };
        bind_view(*src_, data(0));
        bind_view(*weights_, data(1));
        if (bias_) bind_view(*bias_, data(2));
        auto* y = static_cast<float*>(b[static_cast<std::size_t>(node_.outputs[0])]->host_data());
        bind_view(*dst_, y);
        gemm_->run();
        if (prelu_) apply_prelu(static_cast<const float*>(data(node_.inputs.size() - 1)), y);
    }

  private:
    static constexpr std::int64_t grain = 16384;  // elements per thread at least

    /// y = y > 0 ? y : slope * y, the slope per output (or one for all).
    void apply_prelu(const float* slope, float* y) const {
        parallel_ranges(ctx_, rows_ * outputs_, parts_,
                        [&](std::int64_t begin, std::int64_t end, int) {
                            for (std::int64_t i = begin; i < end; ++i) {
                                const float s = slope[slope_count_ == 1 ? 0 : i % outputs_];
                                if (!(y[i] > 0.0f)) y[i] = s * y[i];
                            }
                        });
    }

    sdk::node node_;
    const runtime::Context& ctx_;
    bool prelu_;
    std::int64_t rows_ = 0, outputs_ = 0, slope_count_ = 0;
    int parts_ = 1;
    std::unique_ptr<runtime::Tensor> src_, weights_, bias_, dst_;
    std::unique_ptr<runtime::Gemm> gemm_;
};

/// The i16 fully connected layer in the reference's fixed-point arithmetic: per output, the sum of
/// the products each rescaled to the output's fraction bits and narrowed to 16 bits, plus the
/// bias rescaled likewise, narrowed, activated and stored as the reference stores it.
class fixed_point_fully_connected_step final : public step {
  public:
    fixed_point_fully_connected_step(const build_context& b, const op::fully_connected& fc)
        : node_(b.node.n),
          ctx_(b.ctx),
          in_(b.node.in),
          out_(b.node.out),
          fc_(fc),
          g_(fc.geometry(in_[0], in_[1])) {
        const int fx = in_[0].quant().fixed_point_pos, fw = in_[1].quant().fixed_point_pos;
        out_pos_ = out_[0].type() == dtype::i16 ? out_[0].quant().fixed_point_pos : fx;
        shift_ = fx + fw - out_pos_;
        parts_ =
            parts_for(ctx_, g_.rows, std::max<std::int64_t>(1, grain / (g_.inner * g_.outputs)));
    }

    void run(const buffers& b) override {
        namespace cd = reference::compute_detail;
        const auto borrowed = [&](const tensor_desc& d, int id) {
            return tensor::borrow(d, b[static_cast<std::size_t>(id)]->host_data());
        };
        const auto raw = [&](int id) {
            return static_cast<const std::int16_t*>(b[static_cast<std::size_t>(id)]->host_data());
        };
        const std::int16_t* x = raw(node_.inputs[0]);
        const std::int16_t* w = raw(node_.inputs[1]);
        const tensor y = borrowed(out_[0], node_.outputs[0]);
        std::vector<std::int64_t> bias;  // at the output's fraction bits
        if (fc_.has_bias()) {
            const tensor_desc& d = in_[2];
            const int fb = d.type() == dtype::i16 ? d.quant().fixed_point_pos : out_pos_;
            for (double v : cd::raw_values(borrowed(d, node_.inputs[2])))
                bias.push_back(cd::rescale_fixed(v, fb, out_pos_, fc_.rounding()));
        }
        const activation_spec act = fc_.fused_activation();
        cd::slope_table slope;
        if (act.kind == activation_kind::prelu)
            slope.values = cd::real_values(borrowed(in_.back(), node_.inputs.back()));
        const bool transposed = fc_.weights_transposed();
        parallel_ranges(ctx_, g_.rows, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t r = begin; r < end; ++r)
                for (std::int64_t o = 0; o < g_.outputs; ++o) {
                    const std::int16_t* xr = x + r * g_.inner;
                    std::int64_t acc = 0;
                    for (std::int64_t i = 0; i < g_.inner; ++i) {
                        const std::int16_t wv =
                            transposed ? w[i * g_.outputs + o] : w[o * g_.inner + i];
                        acc += cd::fixed_product(xr[i], wv, shift_, fc_.rounding(), fc_.overflow());
                    }
                    if (!bias.empty()) acc += bias[static_cast<std::size_t>(o)];
                    cd::store_fixed(y, r * g_.outputs + o, acc, out_pos_, act, slope[o],
                                    fc_.rounding(), fc_.overflow());
                }
        });
    }

  private:
    static constexpr std::int64_t grain = 16384;  // products per thread at least

    sdk::node node_;
    const runtime::Context& ctx_;
    descs in_, out_;
    op::fully_connected fc_;
    op::fully_connected::geometry_t g_;
    int out_pos_ = 0, shift_ = 0;
    int parts_ = 1;
};

}  // namespace

void state_fully_connected(router& r) {
    r.state<op::fully_connected>(
        [](const op::fully_connected& fc, const query_view& v) {
            return answer(fully_connected_route(fc, v.q.inputs), v.in, v.out);
        },
        [](const op::fully_connected& fc, const build_context& b) {
            return routed_step(
                fully_connected_route(fc, b.node.in), b, [&]() -> std::unique_ptr<step> {
                    if (b.node.in[0].type() == dtype::i16)
                        return std::make_unique<fixed_point_fully_connected_step>(b, fc);
                    return std::make_unique<fully_connected_step>(b, fc);
                });
        });
}

}  // namespace tessera::plugins::cpu
