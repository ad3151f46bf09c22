// ops/layer_norm.cpp: layer normalisation over the trailing dims (the AXES form: ONNX
// LayerNormalization): per row, mean and variance in double over the normalised dims, then
// y = (x - mean) / sqrt(variance + epsilon) * gamma + beta with gamma and beta tensors or
// scalars; f32 rows are normalised in f32, other dtypes (f16, bf16, dlfloat16) in double as the
// reference computes them (real_lines.hpp). zDNN's STATISTICS form (given mean and variance, each
// broadcast to src's shape) runs in double too. Rows are split over the runtime's threads.
#include <algorithm>
#include <cmath>

#include "../parallel_ranges.hpp"
#include "real_step.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t layer_norm_grain = 1 << 12;  // elements per thread, at least

/// Rows of `width` elements split into parts of at least layer_norm_grain elements.
int layer_norm_parts(const runtime::Context& ctx, std::int64_t rows, std::int64_t width) {
    return parts_for(
        ctx, rows, std::max<std::int64_t>(1, layer_norm_grain / std::max<std::int64_t>(1, width)));
}

class layer_norm_step final : public step {
  public:
    layer_norm_step(const node_view& v, const op::layer_norm& ln, const runtime::Context& ctx)
        : ids_(v.n.inputs), dst_(v.n.outputs[0]), ln_(ln), ctx_(ctx) {
        const tensor_desc& src = v.in[0];
        const int axis = ln.axis() < 0 ? ln.axis() + src.rank() : ln.axis();
        rows_ = 1;
        width_ = 1;
        for (int d = 0; d < src.rank(); ++d) (d < axis ? rows_ : width_) *= src.dim(d);
        gamma_ = ln.has_gamma() ? 1 : -1;
        beta_ = ln.has_beta() ? (ln.has_gamma() ? 2 : 1) : -1;
        parts_ = layer_norm_parts(ctx_, rows_, width_);
    }

    void run(const buffers& b) override {
        const auto data = [&](int input) {
            return static_cast<float*>(
                b[static_cast<std::size_t>(ids_[static_cast<std::size_t>(input)])]->host_data());
        };
        const float* gamma = gamma_ >= 0 ? data(gamma_) : nullptr;
        const float* beta = beta_ >= 0 ? data(beta_) : nullptr;
        const float* src = data(0);
        auto* dst = static_cast<float*>(b[static_cast<std::size_t>(dst_)]->host_data());
        parallel_ranges(ctx_, rows_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
            normalize_rows(src + begin * width_, dst + begin * width_, end - begin, gamma, beta);
        });
    }

  private:
    void normalize_rows(const float* x, float* y, std::int64_t rows, const float* gamma,
                        const float* beta) const {
        for (std::int64_t r = 0; r < rows; ++r, x += width_, y += width_) {
            double sum = 0;
            for (std::int64_t i = 0; i < width_; ++i) sum += x[i];
            const double mean = sum / static_cast<double>(width_);
            double squares = 0;
            for (std::int64_t i = 0; i < width_; ++i) {
                const double d = x[i] - mean;
                squares += d * d;
            }
            const double variance = squares / static_cast<double>(width_);
            const auto scale = static_cast<float>(1.0 / std::sqrt(variance + ln_.epsilon()));
            const auto m = static_cast<float>(mean);
            for (std::int64_t i = 0; i < width_; ++i) {
                const float g = gamma ? gamma[i] : ln_.gamma();
                const float s = beta ? beta[i] : ln_.beta();
                y[i] = (x[i] - m) * scale * g + s;
            }
        }
    }

    std::vector<int> ids_;
    int dst_;
    op::layer_norm ln_;
    const runtime::Context& ctx_;
    int parts_ = 1;
    std::int64_t rows_ = 0, width_ = 0;
    int gamma_ = -1, beta_ = -1;  // input index of the gamma / beta tensor, -1 when scalar
};

/// The AXES form on rows of any floating dtype, in double as the reference computes it.
class layer_norm_real_step final : public real_step {
  public:
    layer_norm_real_step(const node_view& v, const op::layer_norm& ln, const runtime::Context& ctx)
        : real_step(v, ctx),
          epsilon_(static_cast<double>(ln.epsilon())),
          gamma_(ln.gamma()),
          beta_(ln.beta()),
          gamma_input_(ln.has_gamma() ? 1 : -1),
          beta_input_(ln.has_beta() ? (ln.has_gamma() ? 2 : 1) : -1) {
        const tensor_desc& src = v.in[0];
        const int axis = ln.axis() < 0 ? ln.axis() + src.rank() : ln.axis();
        for (int d = 0; d < src.rank(); ++d) (d < axis ? rows_ : width_) *= src.dim(d);
        parts_ = layer_norm_parts(ctx, rows_, width_);
    }

    void run(const buffers& b) override {
        const std::vector<double> gamma =
            gamma_input_ >= 0 ? reals_of(b, gamma_input_) : std::vector<double>{};
        const std::vector<double> beta =
            beta_input_ >= 0 ? reals_of(b, beta_input_) : std::vector<double>{};
        void* y = output(b, 0);
        for_each_row(b, rows_, width_, parts_, [&](double* row, std::int64_t r) {
            normalize(row, gamma, beta);
            store_reals(out_run(0), y, r * width_, width_, 1, row);
        });
    }

  private:
    void normalize(double* row, const std::vector<double>& gamma,
                   const std::vector<double>& beta) const {
        double mean = 0.0;
        for (std::int64_t k = 0; k < width_; ++k) mean += row[k];
        mean /= static_cast<double>(width_);
        double variance = 0.0;
        for (std::int64_t k = 0; k < width_; ++k) variance += (row[k] - mean) * (row[k] - mean);
        variance /= static_cast<double>(width_);
        const double inverse = 1.0 / std::sqrt(variance + epsilon_);
        for (std::int64_t k = 0; k < width_; ++k) {
            const auto kk = static_cast<std::size_t>(k);
            const double g = gamma.empty() ? gamma_ : gamma[kk];
            const double s = beta.empty() ? beta_ : beta[kk];
            row[k] = (row[k] - mean) * inverse * g + s;
        }
    }

    double epsilon_, gamma_, beta_;
    int gamma_input_, beta_input_;  // input index of the gamma / beta tensor, -1 when scalar
    std::int64_t rows_ = 1, width_ = 1;
    int parts_ = 1;
};

/// The STATISTICS form: y = (x - mean) / sqrt(variance + epsilon) * gamma + beta with mean and
/// variance broadcast from dims of 1 to src's, in double; a row of src's last dim at a time.
class layer_norm_statistics_step final : public real_step {
  public:
    layer_norm_statistics_step(const node_view& v, const op::layer_norm& ln,
                               const runtime::Context& ctx)
        : real_step(v, ctx),
          epsilon_(static_cast<double>(ln.epsilon())),
          gamma_(ln.gamma()),
          beta_(ln.beta()),
          dims_(dims_of(v.in[0])) {
        const int rank = v.in[0].rank();
        for (int s = 0; s < 2; ++s) {
            std::int64_t stride = 1;
            strides_[s].assign(static_cast<std::size_t>(rank), 0);
            for (int d = rank - 1; d >= 0; --d) {
                const std::int64_t extent = v.in[static_cast<std::size_t>(s + 1)].dim(d);
                if (extent != 1) strides_[s][static_cast<std::size_t>(d)] = stride;
                stride *= extent;
            }
        }
        width_ = dims_.back();
        rows_ = v.in[0].num_elements() / width_;
        parts_ = layer_norm_parts(ctx, rows_, width_);
    }

    void run(const buffers& b) override {
        const std::vector<double> mean = reals_of(b, 1), variance = reals_of(b, 2);
        const std::int64_t m_step = strides_[0].back(), v_step = strides_[1].back();
        void* y = output(b, 0);
        for_each_row(b, rows_, width_, parts_, [&](double* row, std::int64_t r) {
            const double* m = mean.data() + offset_of(0, r);
            const double* v = variance.data() + offset_of(1, r);
            for (std::int64_t k = 0; k < width_; ++k)
                row[k] =
                    (row[k] - m[k * m_step]) / std::sqrt(v[k * v_step] + epsilon_) * gamma_ + beta_;
            store_reals(out_run(0), y, r * width_, width_, 1, row);
        });
    }

  private:
    /// Offset in statistic `s` (0 mean, 1 variance) of the first element of src's row `r`.
    std::int64_t offset_of(int s, std::int64_t r) const {
        std::int64_t offset = 0;
        for (std::size_t d = dims_.size() - 1; d-- > 0;) {
            offset += r % dims_[d] * strides_[s][d];
            r /= dims_[d];
        }
        return offset;
    }

    double epsilon_, gamma_, beta_;
    std::vector<std::int64_t> dims_;
    std::vector<std::int64_t> strides_[2];  // per statistic, per dim: 0 where it broadcasts
    std::int64_t rows_ = 1, width_ = 1;
    int parts_ = 1;
};

std::unique_ptr<step> layer_norm_for(const build_context& b, const op::layer_norm& ln) {
    if (ln.kind() == layer_norm_kind::statistics)
        return std::make_unique<layer_norm_statistics_step>(b.node, ln, b.ctx);
    if (all_f32(b.node.in)) return std::make_unique<layer_norm_step>(b.node, ln, b.ctx);
    return std::make_unique<layer_norm_real_step>(b.node, ln, b.ctx);
}

}  // namespace

void state_layer_norm(router& r) {
    r.state<op::layer_norm>(
        [](const op::layer_norm&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::layer_norm& ln, const build_context& b) { return layer_norm_for(b, ln); });
}

}  // namespace tessera::plugins::cpu
