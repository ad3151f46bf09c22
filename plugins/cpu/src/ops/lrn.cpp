// ops/lrn.cpp: local response normalisation (ONNX LRN, OpenVX's normalization layer) on
// row-major tensors of every dtype the op accepts (f32, f16, bf16, dlfloat16, i16 fixed point),
// in double as the reference computes it (real_lines.hpp): y = x / (bias + alpha' * sum)^beta,
// the sum of squares over a zero-padded window added in the reference's order. Across channels a
// block of positions of one batch index is computed for every channel at once, vectorised over
// the positions; within a channel one H x W plane at a time. Blocks and planes are split over the
// runtime's threads.
#include <algorithm>
#include <cmath>

#include "../parallel_ranges.hpp"
#include "real_step.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t lrn_block_elements = 1 << 14;  // values held per block, about
constexpr std::int64_t lrn_grain = 1 << 13;           // elements per thread, at least

class lrn_step final : public real_step {
  public:
    lrn_step(const node_view& v, const op::lrn& l, const runtime::Context& ctx)
        : real_step(v, ctx),
          across_(l.kind() == lrn_kind::across_channels),
          half_(l.size() / 2),
          bias_(static_cast<double>(l.bias())),
          beta_(static_cast<double>(l.beta())) {
        const tensor_desc& src = v.in[0];
        batches_ = src.dim(0);
        channels_ = src.dim(1);
        inner_ = src.num_elements() / (batches_ * channels_);
        const double count = across_ ? l.size() : static_cast<double>(l.size()) * l.size();
        alpha_ = l.alpha_scaled_by_size() ? l.alpha() / count : l.alpha();
        if (across_) {
            block_ = std::min(inner_, std::max<std::int64_t>(8, lrn_block_elements / channels_));
            blocks_ = (inner_ + block_ - 1) / block_;
        } else {
            height_ = src.dim(2);
            width_ = src.dim(3);
        }
        parts_ = parts_for(ctx, src.num_elements(), lrn_grain);
    }

    void run(const buffers& b) override {
        const void* x = input(b, 0);
        void* y = output(b, 0);
        const std::int64_t units = across_ ? batches_ * blocks_ : batches_ * channels_;
        const int parts = static_cast<int>(std::min<std::int64_t>(parts_, units));
        parallel_ranges(context(), units, parts, [&](std::int64_t begin, std::int64_t end, int) {
            for (std::int64_t u = begin; u < end; ++u) {
                if (across_) {
                    across_block(x, y, u);
                } else {
                    plane(x, y, u);
                }
            }
        });
    }

  private:
    double normalized(double v, double sum) const {
        return v / std::pow(bias_ + alpha_ * sum, beta_);
    }

    /// Unit `u` across channels: batch index u / blocks_, positions [p0, p0 + n) of every
    /// channel.
    void across_block(const void* x, void* y, std::int64_t u) const {
        thread_local std::vector<double> values, squares, sum;
        const std::int64_t batch = u / blocks_, p0 = u % blocks_ * block_;
        const std::int64_t n = std::min(block_, inner_ - p0);
        const std::int64_t base = batch * channels_ * inner_ + p0;
        values.resize(static_cast<std::size_t>(channels_ * n));
        squares.resize(values.size());
        sum.resize(static_cast<std::size_t>(n));
        for (std::int64_t c = 0; c < channels_; ++c)
            load_reals(in_run(0), x, base + c * inner_, n, 1, values.data() + c * n);
        for (std::size_t i = 0; i < values.size(); ++i) squares[i] = values[i] * values[i];
        for (std::int64_t c = 0; c < channels_; ++c) {
            std::fill(sum.begin(), sum.end(), 0.0);
            const std::int64_t last = std::min(c + half_, channels_ - 1);
            for (std::int64_t k = std::max<std::int64_t>(c - half_, 0); k <= last; ++k) {
                const double* s = squares.data() + k * n;
                for (std::int64_t i = 0; i < n; ++i) sum[static_cast<std::size_t>(i)] += s[i];
            }
            double* row = values.data() + c * n;
            for (std::int64_t i = 0; i < n; ++i)
                row[i] = normalized(row[i], sum[static_cast<std::size_t>(i)]);
            store_reals(out_run(0), y, base + c * inner_, n, 1, row);
        }
    }

    /// Unit `u` within a channel: the H x W plane u (batch and channel).
    void plane(const void* x, void* y, std::int64_t u) const {
        thread_local std::vector<double> values, squares;
        const std::int64_t size = height_ * width_;
        values.resize(static_cast<std::size_t>(size));
        squares.resize(values.size());
        load_reals(in_run(0), x, u * size, size, 1, values.data());
        for (std::size_t i = 0; i < values.size(); ++i) squares[i] = values[i] * values[i];
        for (std::int64_t r = 0; r < height_; ++r) {
            const std::int64_t r0 = std::max<std::int64_t>(r - half_, 0);
            const std::int64_t r1 = std::min(r + half_, height_ - 1);
            for (std::int64_t c = 0; c < width_; ++c) {
                const std::int64_t c0 = std::max<std::int64_t>(c - half_, 0);
                const std::int64_t c1 = std::min(c + half_, width_ - 1);
                double sum = 0.0;
                for (std::int64_t rr = r0; rr <= r1; ++rr)
                    for (std::int64_t cc = c0; cc <= c1; ++cc)
                        sum += squares[static_cast<std::size_t>(rr * width_ + cc)];
                // Squares are read from their own buffer, so each value is replaced in place.
                double& v = values[static_cast<std::size_t>(r * width_ + c)];
                v = normalized(v, sum);
            }
        }
        store_reals(out_run(0), y, u * size, size, 1, values.data());
    }

    bool across_;
    std::int64_t half_;
    double bias_, beta_, alpha_ = 0.0;
    std::int64_t batches_ = 1, channels_ = 1, inner_ = 1;
    std::int64_t block_ = 1, blocks_ = 1;  // across channels: positions per unit, units per batch
    std::int64_t height_ = 1, width_ = 1;  // within a channel
    int parts_ = 1;
};

}  // namespace

void state_lrn(router& r) {
    r.state<op::lrn>(
        [](const op::lrn&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::lrn& l, const build_context& b) {
            return std::make_unique<lrn_step>(b.node, l, b.ctx);
        });
}

}  // namespace tessera::plugins::cpu
