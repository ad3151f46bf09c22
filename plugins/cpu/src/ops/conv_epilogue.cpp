// ops/conv_epilogue.cpp: a convolution's per-location bias as the runtime's residual, and fused
// activations the runtime lacks applied after the convolution (see conv_epilogue.hpp).
#include "conv_epilogue.hpp"

#include <cmath>
#include <cstring>

#include <tessera/reference/activation_function.hpp>

#include "../parallel_ranges.hpp"
#include "../step_buffers.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t conv_epilogue_grain = 1 << 13;  // output elements per thread, at least

/// Calls row(n, c, h, first, step) over rows [begin, end) of the nchw16c tensor `info`
/// (row index (n * C + c) * H + h): the row's first value and the step between its values.
template <typename Row>
void blocked_rows(const runtime::TensorInfo& info, void* base, std::int64_t begin, std::int64_t end,
                  Row&& row) {
    for (std::int64_t r = begin; r < end; ++r) {
        const std::int64_t h = r % info.h(), c = r / info.h() % info.c(),
                           n = r / info.h() / info.c();
        row(n, c, h,
            reinterpret_cast<float*>(static_cast<unsigned char*>(base) +
                                     info.offset_of(n, c, h, 0)),
            info.stride_w());
    }
}

class activation_after_step final : public step {
  public:
    activation_after_step(std::unique_ptr<step> conv, const node_view& v,
                          const activation_spec& act, int slope, const runtime::Context& ctx)
        : conv_(std::move(conv)),
          out_(v.n.outputs[0]),
          slope_(slope >= 0 ? v.n.inputs[static_cast<std::size_t>(slope)] : -1),
          slopes_(slope >= 0 ? v.in[static_cast<std::size_t>(slope)].num_elements() : 0),
          info_(runtime_info(v.out[0])),
          act_(act),
          ctx_(ctx) {
        parts_ = parts_for(ctx_, v.out[0].num_elements(), conv_epilogue_grain);
    }

    void run(const buffers& b) override {
        conv_->run(b);
        void* y = host_data_of(b, out_);
        const float* slope =
            slope_ >= 0 ? static_cast<const float*>(host_data_of(b, slope_)) : nullptr;
        const std::int64_t rows = info_.n() * info_.c() * info_.h();
        const int parts = static_cast<int>(std::min<std::int64_t>(parts_, rows));
        parallel_ranges(ctx_, rows, parts, [&](std::int64_t begin, std::int64_t end, int) {
            blocked_rows(
                info_, y, begin, end,
                [&](std::int64_t, std::int64_t c, std::int64_t, float* p, std::int64_t step) {
                    const double s = slope ? slope[slopes_ == 1 ? 0 : c] : 0.0;
                    for (std::int64_t w = 0; w < info_.w(); ++w)
                        p[w * step] = static_cast<float>(reference::activate(act_, p[w * step], s));
                });
        });
    }

  private:
    std::unique_ptr<step> conv_;
    int out_, slope_;
    std::int64_t slopes_;
    runtime::TensorInfo info_;
    activation_spec act_;
    const runtime::Context& ctx_;
    int parts_ = 1;
};

}  // namespace

location_bias_residual::location_bias_residual(const tensor_desc& output)
    : residual_(runtime_info(output)) {
    residual_.info().set_resizable(false);
    residual_.allocator().allocate();
    std::memset(residual_.buffer(), 0, residual_.info().total_size_in_bytes());
}

void location_bias_residual::fill(const runtime::Tensor& bias, const runtime::BatchNormFold* bn) {
    const runtime::TensorInfo& info = residual_.info();
    const float* b = bias.data<float>();
    const std::int64_t plane = info.h() * info.w();
    blocked_rows(info, residual_.buffer(), 0, info.n() * info.c() * info.h(),
                 [&](std::int64_t, std::int64_t c, std::int64_t h, float* p, std::int64_t step) {
                     double scale = 1.0;
                     if (bn) {
                         const double gamma = bn->gamma ? bn->gamma->data<float>()[c] : 1.0;
                         scale = gamma / std::sqrt(static_cast<double>(bn->var->data<float>()[c]) +
                                                   static_cast<double>(bn->epsilon));
                     }
                     const float* row = b + c * plane + h * info.w();
                     for (std::int64_t w = 0; w < info.w(); ++w)
                         p[w * step] = static_cast<float>(row[w] * scale);
                 });
}

std::unique_ptr<step> with_activation_after(std::unique_ptr<step> conv, const node_view& v,
                                            const activation_spec& act, int slope,
                                            const runtime::Context& ctx) {
    return std::make_unique<activation_after_step>(std::move(conv), v, act, slope, ctx);
}

}  // namespace tessera::plugins::cpu
