// ops/layer_norm.cpp: layer normalisation over the trailing dims (the AXES form: ONNX
// LayerNormalization) on row-major f32 tensors: per row, mean and variance in double over the
// normalised dims, then y = (x - mean) / sqrt(variance + epsilon) * gamma + beta with gamma and
// beta tensors or scalars. zDNN's statistics form and other dtypes run on the reference kernel.
#include <cmath>

#include "../parallel_ranges.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice layer_norm_route(const op::layer_norm& ln, const descs& in) {
    if (ln.kind() != layer_norm_kind::axes) return reference_because("statistics form");
    if (!all_f32(in)) return reference_because("non-f32 layer norm");
    return native(route::native_plain);
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
        parts_ = parts_for(ctx_, rows_,
                           std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(1, width_)));
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

}  // namespace

void state_layer_norm(router& r) {
    r.state<op::layer_norm>(
        [](const op::layer_norm& ln, const query_view& v) {
            return answer(layer_norm_route(ln, v.q.inputs), v.in, v.out);
        },
        [](const op::layer_norm& ln, const build_context& b) {
            return routed_step(layer_norm_route(ln, b.node.in), b, [&] {
                return std::make_unique<layer_norm_step>(b.node, ln, b.ctx);
            });
        });
}

}  // namespace tessera::plugins::cpu
