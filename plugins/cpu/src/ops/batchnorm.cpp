// ops/batchnorm.cpp: inference batch-norm. Rank-4 f32 statistics form with an activation the
// runtime has: the runtime's BatchNormalization in nchw16c, or folded into the convolution before
// it (ops/conv2d.cpp). Every other form (zDNN's affine a*x + b, ranks 2 to max, PReLU and the
// other fused activations, f16, bf16, dlfloat16) runs in the plugin's own loop in double, as the
// reference computes it (real_lines.hpp), split over the runtime's threads.
#include <algorithm>
#include <cmath>

#include <tessera/cpu/functions/batch_norm.hpp>
#include <tessera/reference/activation_function.hpp>

#include "../parallel_ranges.hpp"
#include "real_step.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t batchnorm_chunk = 4096;     // elements loaded and stored together
constexpr std::int64_t batchnorm_grain = 1 << 14;  // elements per thread, at least

bool batchnorm_on_runtime(const op::batchnorm& bn, const descs& in) {
    return bn.kind() == batchnorm_kind::statistics && in[0].rank() == 4 && all_f32(in) &&
           runtime_has(bn.fused_activation());
}

route_choice batchnorm_route(const op::batchnorm& bn, const descs& in) {
    return native(batchnorm_on_runtime(bn, in) ? route::native_blocked : route::native_plain);
}

/// A blocked inference batch-norm may be folded into a chain's head; with an activation of its
/// own it ends the chain.
fusion_role batchnorm_fusion(const op::batchnorm& bn, const node_view& v) {
    fusion_role role;
    if (bn.kind() != batchnorm_kind::statistics ||
        bn.fused_activation().kind == activation_kind::prelu ||
        batchnorm_route(bn, v.in).how != route::native_blocked)
        return role;
    role.stage = fusion_stage::normalization;
    role.activation = runtime_activation(bn.fused_activation());
    role.closes_chain = bn.fused_activation().kind != activation_kind::none;
    role.epsilon = bn.epsilon();
    return role;
}

class batchnorm_step final : public function_step {
  public:
    batchnorm_step(const build_context& b, const op::batchnorm& bn) : function_step(b.node) {
        const bool affine = b.node.n.inputs.size() >= 5;
        auto f = std::make_unique<runtime::BatchNormalization>(b.ctx);
        f->configure(in(0), out(), in(1), in(2), affine ? &in(3) : nullptr,
                     affine ? &in(4) : nullptr, bn.epsilon(),
                     runtime_activation(bn.fused_activation()));
        set_function(std::move(f));
    }
};

/// Batch-norm of any form over src [N, C, inner...] in double: per channel c,
/// y = act((x - mean[c]) / sqrt(variance[c] + epsilon) [* scale[c] + shift[c]], slope[c]) or
/// y = act(a[c] * x + b[c]).
class batchnorm_lines_step final : public real_step {
  public:
    batchnorm_lines_step(const node_view& v, const op::batchnorm& bn, const runtime::Context& ctx)
        : real_step(v, ctx),
          affine_(bn.kind() == batchnorm_kind::affine),
          epsilon_(static_cast<double>(bn.epsilon())),
          act_(bn.fused_activation()) {
        const tensor_desc& src = v.in[0];
        size_ = src.num_elements();
        channels_ = src.dim(1);
        inner_ = size_ / (src.dim(0) * channels_);
        const bool prelu = act_.kind == activation_kind::prelu;
        params_ = static_cast<int>(v.in.size()) - 1 - (prelu ? 1 : 0);
        slope_ = prelu ? static_cast<int>(v.in.size()) - 1 : -1;
        parts_ = parts_for(ctx, size_, batchnorm_grain);
    }

    void run(const buffers& b) override {
        std::vector<std::vector<double>> p;
        for (int i = 1; i <= params_; ++i) p.push_back(reals_of(b, i));
        if (!affine_)
            for (double& v : p[1]) v = std::sqrt(v + epsilon_);  // the reference's divisor
        const std::vector<double> slope = slope_ >= 0 ? reals_of(b, slope_) : std::vector<double>{};
        const void* x = input(b, 0);
        void* y = output(b, 0);
        parallel_ranges(context(), size_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            thread_local std::vector<double> values;
            for (std::int64_t first = begin; first < end; first += batchnorm_chunk) {
                const std::int64_t n = std::min(batchnorm_chunk, end - first);
                values.resize(static_cast<std::size_t>(n));
                load_reals(in_run(0), x, first, n, 1, values.data());
                normalize(values.data(), first, n, p, slope);
                store_reals(out_run(0), y, first, n, 1, values.data());
            }
        });
    }

  private:
    /// Normalises values of elements [first, first + n) in place, a run of one channel's
    /// elements at a time.
    void normalize(double* v, std::int64_t first, std::int64_t n,
                   const std::vector<std::vector<double>>& p,
                   const std::vector<double>& slope) const {
        std::int64_t c = first / inner_ % channels_, pos = first % inner_;
        for (std::int64_t i = 0; i < n;) {
            const std::int64_t end = i + std::min(n - i, inner_ - pos);
            const auto cc = static_cast<std::size_t>(c);
            if (affine_) {
                const double a = p[0][cc], b = p[1][cc];
                for (std::int64_t k = i; k < end; ++k) v[k] = a * v[k] + b;
            } else {
                const double mean = p[0][cc], divisor = p[1][cc];
                for (std::int64_t k = i; k < end; ++k) v[k] = (v[k] - mean) / divisor;
                if (params_ == 4) {
                    const double scale = p[2][cc], shift = p[3][cc];
                    for (std::int64_t k = i; k < end; ++k) v[k] = v[k] * scale + shift;
                }
            }
            if (act_.kind != activation_kind::none) {
                const double s = slope.empty() ? 0.0 : slope[slope.size() == 1 ? 0 : cc];
                for (std::int64_t k = i; k < end; ++k) v[k] = reference::activate(act_, v[k], s);
            }
            i = end;
            pos = 0;
            if (++c == channels_) c = 0;
        }
    }

    bool affine_;
    double epsilon_;
    activation_spec act_;
    std::int64_t size_ = 0, channels_ = 1, inner_ = 1;
    int params_ = 2;  // parameter tensors after src: 2 or 4
    int slope_ = -1;  // input index of the PReLU slope, -1 without PReLU
    int parts_ = 1;
};

}  // namespace

void state_batchnorm(router& r) {
    r.state<op::batchnorm>(
        [](const op::batchnorm& bn, const query_view& v) {
            return answer(batchnorm_route(bn, v.q.inputs), v.in, v.out);
        },
        [](const op::batchnorm& bn, const build_context& b) -> std::unique_ptr<step> {
            if (batchnorm_on_runtime(bn, b.node.in)) return std::make_unique<batchnorm_step>(b, bn);
            return std::make_unique<batchnorm_lines_step>(b.node, bn, b.ctx);
        },
        &batchnorm_fusion);
}

}  // namespace tessera::plugins::cpu
