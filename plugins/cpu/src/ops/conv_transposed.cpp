// ops/conv_transposed.cpp: transposed conv2d (ONNX ConvTranspose) on row-major f32 tensors, as
// a runtime sgemm and a scatter: per image and group, columns [O_g * KH * KW, H * W] =
// weights_g^T [O_g * KH * KW, C_g] x src_g [C_g, H * W]; each column row (o, ky, kx) then adds
// into the output rows its taps reach (y = iy * stride - pad + ky * dilation, likewise x), the
// per-channel bias first. Fused batch norm, fused activations, per-location biases and
// non-f32 tensors stay on the reference kernel.
#include <algorithm>
#include <vector>

#include <tessera/cpu/blas.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

route_choice transposed_conv_route(const op::conv2d& c, const descs& in) {
    if (!all_f32(in)) return reference_because("integer or 16-bit transposed convolution");
    if (c.fuse_batchnorm()) return reference_because("transposed convolution with batch norm");
    if (c.fused_activation().kind != activation_kind::none)
        return reference_because("transposed convolution with a fused activation");
    const int bias = c.slots().bias;
    if (bias >= 0 && in[static_cast<std::size_t>(bias)].rank() != 1)
        return reference_because("per-location bias [O, OH, OW] on a transposed convolution");
    return native(route::native_plain);
}

namespace {

class transposed_conv_step final : public step {
  public:
    transposed_conv_step(const build_context& b, const op::conv2d& c)
        : ctx_(b.ctx),
          src_(b.node.n.inputs[0]),
          weights_(b.node.n.inputs[1]),
          bias_(c.slots().bias >= 0 ? b.node.n.inputs[static_cast<std::size_t>(c.slots().bias)]
                                    : -1),
          dst_(b.node.n.outputs[0]),
          g_(c.geometry(b.node.in[0], b.node.in[1])),
          stride_h_(c.stride().h),
          stride_w_(c.stride().w),
          dilation_h_(c.dilation().h),
          dilation_w_(c.dilation().w) {
        columns_.resize(static_cast<std::size_t>(g_.group_out * g_.kh * g_.kw * g_.h * g_.w));
    }

    void run(const buffers& b) override {
        const float* src = data(b, src_);
        const float* weights = data(b, weights_);
        const float* bias = bias_ >= 0 ? data(b, bias_) : nullptr;
        float* dst = data(b, dst_);
        const std::int64_t plane_in = g_.h * g_.w, plane_out = g_.y.out * g_.x.out;
        const std::int64_t groups = g_.c / g_.group_in;
        const std::int64_t taps = g_.group_out * g_.kh * g_.kw;  // columns rows per group
        for (std::int64_t n = 0; n < g_.n; ++n)
            for (std::int64_t group = 0; group < groups; ++group) {
                const float* x = src + (n * g_.c + group * g_.group_in) * plane_in;
                // weights [C, O_g, KH, KW]: group rows [C_g, O_g * KH * KW]
                const float* w = weights + group * g_.group_in * taps;
                runtime::sgemm(true, false, taps, plane_in, g_.group_in, 1.0f, w, taps, x, plane_in,
                               0.0f, columns_.data(), plane_in, ctx_);
                float* out = dst + (n * g_.o + group * g_.group_out) * plane_out;
                for (std::int64_t oo = 0; oo < g_.group_out; ++oo)
                    std::fill_n(out + oo * plane_out, plane_out,
                                bias ? bias[group * g_.group_out + oo] : 0.0f);
                scatter(out);
            }
    }

  private:
    static float* data(const buffers& b, int id) {
        return static_cast<float*>(b[static_cast<std::size_t>(id)]->host_data());
    }

    /// Adds every column row (o, ky, kx) into output channel o at its taps' positions.
    void scatter(float* out) const {
        const std::int64_t oh = g_.y.out, ow = g_.x.out, plane_in = g_.h * g_.w;
        const std::int64_t pt = g_.y.pad_before, pl = g_.x.pad_before;
        for (std::int64_t oo = 0; oo < g_.group_out; ++oo)
            for (std::int64_t ky = 0; ky < g_.kh; ++ky)
                for (std::int64_t kx = 0; kx < g_.kw; ++kx) {
                    const float* col =
                        columns_.data() + ((oo * g_.kh + ky) * g_.kw + kx) * plane_in;
                    float* channel = out + oo * oh * ow;
                    for (std::int64_t iy = 0; iy < g_.h; ++iy) {
                        const std::int64_t y = iy * stride_h_ - pt + ky * dilation_h_;
                        if (y < 0 || y >= oh) continue;
                        float* row = channel + y * ow;
                        const float* from = col + iy * g_.w;
                        for (std::int64_t ix = 0; ix < g_.w; ++ix) {
                            const std::int64_t x = ix * stride_w_ - pl + kx * dilation_w_;
                            if (x >= 0 && x < ow) row[x] += from[ix];
                        }
                    }
                }
    }

    const runtime::Context& ctx_;
    int src_, weights_, bias_, dst_;
    op::conv2d::geometry_t g_;
    std::int64_t stride_h_, stride_w_, dilation_h_, dilation_w_;
    std::vector<float> columns_;
};

}  // namespace

std::unique_ptr<step> make_transposed_conv_step(const build_context& b, const op::conv2d& c) {
    return std::make_unique<transposed_conv_step>(b, c);
}

}  // namespace tessera::plugins::cpu
