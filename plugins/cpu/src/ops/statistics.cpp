// ops/statistics.cpp: zDNN's statistics ops on row-major tensors of every dtype they accept, in
// double as the reference computes them (real_lines.hpp), each sum added in the reference's
// order: moments (mean and variance over the trailing dims, population or sample), mean_reduce2d
// (the mean of each H x W plane, integers averaged on their stored values and rounded as the
// reference rounds them) and norm (the Euclidean norm of b - a along one axis, vectorised over
// the contiguous dims). Independent rows, planes and blocks are split over the runtime's threads.
#include <algorithm>
#include <cmath>

#include <tessera/reference/compute_common.hpp>

#include "../parallel_ranges.hpp"
#include "real_step.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t statistics_grain = 1 << 14;     // elements per thread, at least
constexpr std::int64_t norm_block_elements = 1 << 12;  // contiguous sums per block, at most

/// Parts for `units` units of `unit_size` elements each.
int statistics_parts(const runtime::Context& ctx, std::int64_t units, std::int64_t unit_size) {
    return parts_for(
        ctx, units,
        std::max<std::int64_t>(1, statistics_grain / std::max<std::int64_t>(1, unit_size)));
}

/// moments: per row of the dims from first_axis on, its mean and its variance (divided by n,
/// or n - 1 for the sample variance).
class moments_step final : public real_step {
  public:
    moments_step(const node_view& v, const op::moments& m, const runtime::Context& ctx)
        : real_step(v, ctx) {
        const tensor_desc& src = v.in[0];
        const int first = m.first_axis() < 0 ? m.first_axis() + src.rank() : m.first_axis();
        for (int d = first; d < src.rank(); ++d) width_ *= src.dim(d);
        rows_ = src.num_elements() / width_;
        divisor_ =
            static_cast<double>(m.bessel() == bessel_correction::sample ? width_ - 1 : width_);
        parts_ = statistics_parts(ctx, rows_, width_);
    }

    void run(const buffers& b) override {
        void* mean_out = output(b, 0);
        void* variance_out = output(b, 1);
        for_each_row(b, rows_, width_, parts_, [&](const double* row, std::int64_t r) {
            double mean = 0.0;
            for (std::int64_t k = 0; k < width_; ++k) mean += row[k];
            mean /= static_cast<double>(width_);
            double squares = 0.0;
            for (std::int64_t k = 0; k < width_; ++k) squares += (row[k] - mean) * (row[k] - mean);
            const double variance = squares / divisor_;
            store_reals(out_run(0), mean_out, r, 1, 1, &mean);
            store_reals(out_run(1), variance_out, r, 1, 1, &variance);
        });
    }

  private:
    std::int64_t rows_ = 1, width_ = 1;
    double divisor_ = 1.0;
    int parts_ = 1;
};

/// mean_reduce2d: the mean of each H x W plane of stored values (floats decoded, integers as
/// stored), stored as the reference stores a statistic: rounded with the op's rounding when the
/// output is encoded as src, else through its real value.
class mean_reduce2d_step final : public real_step {
  public:
    mean_reduce2d_step(const node_view& v, const op::mean_reduce2d& m, const runtime::Context& ctx)
        : real_step(v, ctx), src_(v.in[0]), dst_(v.out[0]), rounding_(m.rounding()) {
        plane_ = src_.dim(2) * src_.dim(3);
        planes_ = src_.dim(0) * src_.dim(1);
        same_encoding_ = reference::compute_detail::same_encoding(src_, dst_);
        parts_ = statistics_parts(ctx, planes_, plane_);
    }

    void run(const buffers& b) override {
        const void* x = input(b, 0);
        void* y = output(b, 0);
        // Default quantisation: integers load as stored, floats decoded.
        const element_run stored{src_.type(), quantization{}};
        const auto element_size = static_cast<std::int64_t>(size_of(dst_.type()));
        parallel_ranges(context(), planes_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            thread_local std::vector<double> values;
            values.resize(static_cast<std::size_t>(plane_));
            for (std::int64_t p = begin; p < end; ++p) {
                load_reals(stored, x, p * plane_, plane_, 1, values.data());
                double sum = 0.0;
                for (double v : values) sum += v;
                const double mean = sum / static_cast<double>(plane_);
                void* at = static_cast<char*>(y) + p * element_size;
                if (same_encoding_) {
                    numeric::store_raw(dst_.type(), at, mean, rounding_, overflow_policy::saturate);
                } else {
                    numeric::store_real(dst_.type(), dst_.quant(), at,
                                        reference::compute_detail::real_of_raw(src_, mean),
                                        rounding_, overflow_policy::saturate);
                }
            }
        });
    }

  private:
    tensor_desc src_, dst_;
    rounding_policy rounding_;
    std::int64_t plane_ = 1, planes_ = 1;
    bool same_encoding_ = true;
    int parts_ = 1;
};

/// norm: sqrt of the sum of (b - a)^2 along one axis, over [outer, length, inner]: each line
/// on its own when inner is 1, else blocks of contiguous lines summed together.
class norm_step final : public real_step {
  public:
    norm_step(const node_view& v, const op::norm& nm, const runtime::Context& ctx)
        : real_step(v, ctx) {
        const tensor_desc& a = v.in[0];
        const int axis = nm.axis() < 0 ? nm.axis() + a.rank() : nm.axis();
        for (int d = 0; d < a.rank(); ++d)
            (d < axis ? outer_ : d == axis ? length_ : inner_) *= a.dim(d);
        block_ = std::min(inner_, norm_block_elements);
        blocks_ = (inner_ + block_ - 1) / block_;
        parts_ = statistics_parts(ctx, outer_ * blocks_, length_ * block_);
    }

    void run(const buffers& b) override {
        const void* a = input(b, 0);
        const void* bb = input(b, 1);
        void* y = output(b, 0);
        parallel_ranges(context(), outer_ * blocks_, parts_,
                        [&](std::int64_t begin, std::int64_t end, int) {
                            for (std::int64_t u = begin; u < end; ++u) sums(a, bb, y, u);
                        });
    }

  private:
    /// Unit `u`: outer index u / blocks_, contiguous lines [i0, i0 + n).
    void sums(const void* a, const void* b, void* y, std::int64_t u) const {
        thread_local std::vector<double> x0, x1, sum;
        const std::int64_t o = u / blocks_, i0 = u % blocks_ * block_;
        const std::int64_t n = std::min(block_, inner_ - i0);
        // A single line is loaded whole; otherwise one row of n lines per step along the axis.
        const std::int64_t loaded = inner_ == 1 ? length_ : n;
        x0.resize(static_cast<std::size_t>(loaded));
        x1.resize(x0.size());
        sum.assign(static_cast<std::size_t>(n), 0.0);
        const std::int64_t first = o * length_ * inner_ + i0;
        if (inner_ == 1) {
            load_reals(in_run(0), a, first, length_, 1, x0.data());
            load_reals(in_run(1), b, first, length_, 1, x1.data());
            for (std::size_t k = 0; k < x0.size(); ++k) sum[0] += (x1[k] - x0[k]) * (x1[k] - x0[k]);
        } else {
            for (std::int64_t k = 0; k < length_; ++k) {
                load_reals(in_run(0), a, first + k * inner_, n, 1, x0.data());
                load_reals(in_run(1), b, first + k * inner_, n, 1, x1.data());
                for (std::size_t i = 0; i < sum.size(); ++i)
                    sum[i] += (x1[i] - x0[i]) * (x1[i] - x0[i]);
            }
        }
        for (double& s : sum) s = std::sqrt(s);
        store_reals(out_run(0), y, o * inner_ + i0, n, 1, sum.data());
    }

    std::int64_t outer_ = 1, length_ = 1, inner_ = 1;
    std::int64_t block_ = 1, blocks_ = 1;
    int parts_ = 1;
};

/// The query answer of an op computed by the plugin's own loops: native, row-major.
sdk::support own_loops(const query_view& v) {
    return answer(native(route::native_plain), v.in, v.out);
}

}  // namespace

void state_statistics(router& r) {
    r.state<op::moments>([](const op::moments&, const query_view& v) { return own_loops(v); },
                         [](const op::moments& m, const build_context& b) {
                             return std::make_unique<moments_step>(b.node, m, b.ctx);
                         });
    r.state<op::mean_reduce2d>(
        [](const op::mean_reduce2d&, const query_view& v) { return own_loops(v); },
        [](const op::mean_reduce2d& m, const build_context& b) {
            return std::make_unique<mean_reduce2d_step>(b.node, m, b.ctx);
        });
    r.state<op::norm>([](const op::norm&, const query_view& v) { return own_loops(v); },
                      [](const op::norm& nm, const build_context& b) {
                          return std::make_unique<norm_step>(b.node, nm, b.ctx);
                      });
}

}  // namespace tessera::plugins::cpu
