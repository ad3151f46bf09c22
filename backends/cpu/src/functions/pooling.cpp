// Pooling: the input read in place (windows clipped at the border, as a border of -inf for max
// or zeros for average pooling would give), per-pixel divisors for average pooling that excludes
// padding, rows computed by PoolingKernel.
#include "tessera/cpu/functions/pooling.hpp"

#include <cmath>

#include "kernels/neighbourhood_kernels.hpp"
#include "simd/kernel_table.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

struct Pooling::Impl {
    const Context& ctx;
    PoolingKernel kernel;
    std::vector<float> divisors;
    explicit Impl(const Context& c) : ctx(c) {}
};

Pooling::Pooling(const Context& ctx, std::shared_ptr<MemoryManager>)
    : impl_(std::make_unique<Impl>(ctx)) {}
Pooling::~Pooling() = default;

namespace {
PoolingInfo effective(const TensorInfo& src, PoolingInfo p) {
    if (p.global) {
        p.kernel_h = src.h();
        p.kernel_w = src.w();
        p.stride_h = p.stride_w = 1;
        p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 0;
    }
    return p;
}
}  // namespace

std::vector<int64_t> Pooling::output_shape(const TensorInfo& src, const PoolingInfo& info) {
    const char* fn = "Pooling::output_shape";
    require(src.is_4d_layout(), fn, src.name(), "needs a 4-D input");
    const PoolingInfo p = effective(src, info);
    require(p.kernel_h >= 1 && p.kernel_w >= 1 && p.stride_h >= 1 && p.stride_w >= 1, fn,
            src.name(), "kernel and stride must be >= 1");
    require(p.pad_top >= 0 && p.pad_bottom >= 0 && p.pad_left >= 0 && p.pad_right >= 0, fn,
            src.name(), "negative padding");
    require(p.pad_top < p.kernel_h && p.pad_bottom < p.kernel_h && p.pad_left < p.kernel_w &&
                p.pad_right < p.kernel_w,
            fn, src.name(), "padding must be smaller than the kernel");
    const int64_t oh =
        conv_output_extent(src.h(), p.kernel_h, p.stride_h, p.pad_top, p.pad_bottom, 1);
    const int64_t ow =
        conv_output_extent(src.w(), p.kernel_w, p.stride_w, p.pad_left, p.pad_right, 1);
    require(oh >= 1 && ow >= 1, fn, src.name(), "kernel larger than the padded input");
    return {src.n(), src.c(), oh, ow};
}

void Pooling::configure(ITensor& src, ITensor& dst, const PoolingInfo& info) {
    Impl& m = *impl_;
    const char* fn = "Pooling::configure";
    require(src.info().layout() == DataLayout::nchw16c, fn, src.info().name(),
            "input must be nchw16c");
    const PoolingInfo p = effective(src.info(), info);
    const auto shape = output_shape(src.info(), p);
    require(dst.info().data_type() == DataType::f32 && dst.info().layout() == DataLayout::nchw16c &&
                dst.info().shape() == shape,
            fn, dst.info().name(), "output must be f32 nchw16c of the pooled shape");
    const bool max = p.type == PoolingType::max;
    const float* divisors = nullptr;
    if (!max && p.exclude_padding) {
        const int64_t oh = shape[2], ow = shape[3], h = src.info().h(), w = src.info().w();
        m.divisors.resize(static_cast<std::size_t>(oh * ow));
        for (int64_t y = 0; y < oh; ++y)
            for (int64_t x = 0; x < ow; ++x) {
                const int64_t y0 = y * p.stride_h - p.pad_top, x0 = x * p.stride_w - p.pad_left;
                const int64_t rows = std::min(h, y0 + p.kernel_h) - std::max<int64_t>(0, y0);
                const int64_t cols = std::min(w, x0 + p.kernel_w) - std::max<int64_t>(0, x0);
                m.divisors[static_cast<std::size_t>(y * ow + x)] =
                    1.0f / static_cast<float>(rows * cols);
            }
        divisors = m.divisors.data();
    }
    m.kernel.configure(m.ctx.kernels(), src, dst, max, p.kernel_h, p.kernel_w, p.stride_h,
                       p.stride_w, p.pad_top, p.pad_left, divisors);
}

void Pooling::run() {
    Impl& m = *impl_;
    m.ctx.scheduler().schedule(m.kernel);
}

}  // namespace tessera::cpu
