// DepthwiseConv2d: zero borders handled inside DepthwiseConvKernel, other borders through
// PaddedInput; weights packed per channel block once (weights manager).
#include "tessera/cpu/functions/depthwise_conv2d.hpp"

#include "functions/padded_input.hpp"
#include "kernels/neighbourhood_kernels.hpp"
#include "simd/kernel_table.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {
namespace {

/// [C, 1, KH, KW] -> [C/16 blocks][KH][KW][16], zero lanes past C.
class DepthwiseWeightsTransform final : public ITransformWeights {
  public:
    explicit DepthwiseWeightsTransform(const ITensor& w) : w_(w) {}
    std::string uid() const override { return "depthwise_pack16"; }
    TensorInfo result_info() const override {
        const TensorInfo& i = w_.info();
        const int64_t blocks = (i.dim(0) + kChannelBlock - 1) / kChannelBlock;
        return TensorInfo({blocks * i.dim(2) * i.dim(3) * kChannelBlock}, DataType::f32);
    }
    void run(Tensor& result) const override {
        const TensorInfo& i = w_.info();
        const int64_t c = i.dim(0), kh = i.dim(2), kw = i.dim(3);
        const float* w = w_.data<float>();
        float* out = result.data<float>();
        const int64_t blocks = (c + kChannelBlock - 1) / kChannelBlock;
        for (int64_t b = 0; b < blocks; ++b)
            for (int64_t t = 0; t < kh * kw; ++t)
                for (int64_t l = 0; l < kChannelBlock; ++l) {
                    const int64_t ch = b * kChannelBlock + l;
                    out[(b * kh * kw + t) * kChannelBlock + l] =
                        ch < c ? w[ch * kh * kw + t] : 0.0f;
                }
    }

  private:
    const ITensor& w_;
};

}  // namespace

struct DepthwiseConv2d::Impl {
    const Context& ctx;
    MemoryGroup group;
    PaddedInput input;
    DepthwiseConvKernel kernel;
    const ITensor* weights = nullptr;
    const ITensor* bias = nullptr;
    std::shared_ptr<const Tensor> packed;
    std::vector<float> bias_values;
    bool configured = false, prepared = false;
    Impl(const Context& c, std::shared_ptr<MemoryManager> mm) : ctx(c), group(std::move(mm)) {}
};

DepthwiseConv2d::DepthwiseConv2d(const Context& ctx, std::shared_ptr<MemoryManager> mm)
    : impl_(std::make_unique<Impl>(ctx, std::move(mm))) {}
DepthwiseConv2d::~DepthwiseConv2d() = default;

void DepthwiseConv2d::configure(ITensor& src, const ITensor& weights, const ITensor* bias,
                                ITensor& dst, const DepthwiseConv2dInfo& info) {
    Impl& m = *impl_;
    const char* fn = "DepthwiseConv2d::configure";
    const TensorInfo& s = src.info();
    const TensorInfo& w = weights.info();
    const Conv2dGeometry& g = info.geometry;
    require(s.layout() == DataLayout::nchw16c, fn, s.name(), "input must be nchw16c");
    require(w.data_type() == DataType::f32 && w.rank() == 4 && w.dim(1) == 1, fn, w.name(),
            "weights must be f32 [C, 1, KH, KW]");
    require(w.dim(0) == s.c(), fn, w.name(), "channel multiplier other than 1 is not supported");
    require(g.stride_h >= 1 && g.stride_w >= 1 && g.dilation_h >= 1 && g.dilation_w >= 1, fn,
            w.name(), "strides and dilations must be >= 1");
    if (bias)
        require(bias->info().data_type() == DataType::f32 && bias->info().element_count() == s.c(),
                fn, bias->info().name(), "bias must be f32 [C]");
    const int64_t kh = w.dim(2), kw = w.dim(3);
    const int64_t oh =
        conv_output_extent(s.h(), kh, g.stride_h, g.pad_top, g.pad_bottom, g.dilation_h);
    const int64_t ow =
        conv_output_extent(s.w(), kw, g.stride_w, g.pad_left, g.pad_right, g.dilation_w);
    require(oh >= 1 && ow >= 1, fn, s.name(), "kernel larger than the padded input");
    require(dst.info().data_type() == DataType::f32 && dst.info().layout() == DataLayout::nchw16c &&
                dst.info().shape() == std::vector<int64_t>{s.n(), s.c(), oh, ow},
            fn, dst.info().name(), "output must be f32 nchw16c [N, C, OH, OW]");

    OutputRect rect{0, oh, 0, ow};
    PaddingSize border{g.pad_top, g.pad_right, g.pad_bottom, g.pad_left};
    if (info.border_mode == BorderMode::undefined) {
        // Only windows fully inside the image: first o with o*s - pad >= 0, last with
        // o*s - pad + (k-1)*d <= extent-1.
        auto first = [](int64_t pad, int64_t stride) { return (pad + stride - 1) / stride; };
        auto end = [](int64_t extent, int64_t pad, int64_t stride, int64_t span, int64_t out) {
            const int64_t limit = extent - 1 + pad - span;
            return limit < 0 ? 0 : std::min(out, limit / stride + 1);
        };
        rect.oh_begin = first(g.pad_top, g.stride_h);
        rect.ow_begin = first(g.pad_left, g.stride_w);
        rect.oh_end =
            std::max(rect.oh_begin, end(s.h(), g.pad_top, g.stride_h, (kh - 1) * g.dilation_h, oh));
        rect.ow_end = std::max(rect.ow_begin,
                               end(s.w(), g.pad_left, g.stride_w, (kw - 1) * g.dilation_w, ow));
        border = PaddingSize{};
    }
    // Zero borders are the kernel's own (taps outside the image are skipped): the input is read
    // in place, with no padded copy and no border fill per run. Other borders are materialised.
    const bool zero_border = info.border_mode == BorderMode::constant && info.border_value == 0.0f;
    if (zero_border) border = PaddingSize{};
    ITensor& in = m.input.configure(src, border, m.group, info.border_mode, info.border_value);
    m.kernel.configure(m.ctx.kernels(), in, dst, g, kh, kw, rect, info.activation, zero_border);
    m.input.end_lifetime();
    dst.info().set_valid_region(
        ValidRegion{{0, 0, rect.oh_begin, rect.ow_begin},
                    {s.n(), s.c(), rect.oh_end - rect.oh_begin, rect.ow_end - rect.ow_begin}});
    m.weights = &weights;
    m.bias = bias;
    m.configured = true;
    m.prepared = false;
}

void DepthwiseConv2d::prepare() {
    Impl& m = *impl_;
    if (m.prepared) return;
    if (!m.configured)
        throw InvalidArgument("DepthwiseConv2d::prepare", "", "configure() was not called");
    m.packed = m.ctx.weights_manager().acquire(*m.weights, DepthwiseWeightsTransform(*m.weights));
    const int64_t c = m.weights->info().dim(0);
    m.bias_values.assign(
        static_cast<std::size_t>((c + kChannelBlock - 1) / kChannelBlock * kChannelBlock), 0.0f);
    if (m.bias)
        for (int64_t i = 0; i < c; ++i)
            m.bias_values[static_cast<std::size_t>(i)] = m.bias->data<float>()[i];
    m.kernel.set_weights(m.packed->data<float>(), m.bias ? m.bias_values.data() : nullptr);
    m.prepared = true;
}

void DepthwiseConv2d::run() {
    Impl& m = *impl_;
    prepare();
    MemoryGroupScope scope(m.group);
    m.input.run(m.ctx.scheduler());
    m.ctx.scheduler().schedule(m.kernel);
}

}  // namespace tessera::cpu
