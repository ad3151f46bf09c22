// ops/conv_fixed_point.cpp: conv2d on i16 fixed-point tensors (direct, grouped and depthwise) in
// integers, with the OpenVX provisional arithmetic the reference uses: each product rounded
// and narrowed to 16 bits on its own at the output's fraction position, products summed in 64
// bits, the bias rescaled to that position and added, the sum narrowed, then activated on its
// real value when an activation is fused. Row-major tensors; the (image, output channel) planes
// are split over the runtime's threads.
#include "conv_fixed_point.hpp"

#include <cmath>

#include <tessera/reference/compute_common.hpp>

#include "../parallel_ranges.hpp"
#include "../real_lines.hpp"
#include "../step_buffers.hpp"

namespace tessera::plugins::cpu {

namespace {

constexpr std::int64_t fixed_conv_grain = 1 << 10;  // output elements per thread, at least

/// Stored values of a row-major tensor of `type` as 64-bit integers.
std::vector<std::int64_t> stored_integers(dtype type, const void* base, std::int64_t count) {
    std::vector<double> raw(static_cast<std::size_t>(count));
    load_reals(element_run{type, quantization{}}, base, 0, count, 1, raw.data());
    std::vector<std::int64_t> values(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) values[i] = static_cast<std::int64_t>(raw[i]);
    return values;
}

class fixed_point_conv_step final : public step {
  public:
    fixed_point_conv_step(const node_view& v, const op::conv2d& c, const runtime::Context& ctx)
        : conv_(c), g_(c.geometry(v.in[0], v.in[1])), ctx_(ctx) {
        const auto s = c.slots();
        src_ = v.n.inputs[0];
        weights_ = v.n.inputs[1];
        dst_ = v.n.outputs[0];
        out_ = run_of(v.out[0]);
        fx_ = v.in[0].quant().fixed_point_pos;
        fw_ = v.in[1].quant().fixed_point_pos;
        fo_ = v.out[0].type() == dtype::i16 ? v.out[0].quant().fixed_point_pos : fx_;
        if (s.bias >= 0) {
            const tensor_desc& b = v.in[static_cast<std::size_t>(s.bias)];
            bias_ = v.n.inputs[static_cast<std::size_t>(s.bias)];
            bias_run_ = run_of(b);
            bias_count_ = b.num_elements();
            per_location_ = b.rank() == 3;
            fb_ = b.type() == dtype::i16 ? b.quant().fixed_point_pos : fo_;
        }
        if (s.slope >= 0) {
            slope_ = v.n.inputs[static_cast<std::size_t>(s.slope)];
            slope_run_ = run_of(v.in[static_cast<std::size_t>(s.slope)]);
            slope_count_ = v.in[static_cast<std::size_t>(s.slope)].num_elements();
        }
        parts_ = parts_for(ctx_, v.out[0].num_elements(), fixed_conv_grain);
    }

    void run(const buffers& b) override {
        namespace cd = reference::compute_detail;
        const auto data = [&](int id) { return host_data_of(b, id); };
        const std::vector<std::int64_t> x =
            stored_integers(dtype::i16, data(src_), g_.n * g_.c * g_.h * g_.w);
        const std::vector<std::int64_t> w =
            stored_integers(dtype::i16, data(weights_), g_.o * g_.group_in * g_.kh * g_.kw);
        std::vector<std::int64_t> bias;
        if (bias_ >= 0) {
            std::vector<double> raw(static_cast<std::size_t>(bias_count_));
            load_reals(element_run{bias_run_.type, quantization{}}, data(bias_), 0, bias_count_, 1,
                       raw.data());
            for (double r : raw) bias.push_back(cd::rescale_fixed(r, fb_, fo_, conv_.rounding()));
        }
        std::vector<double> slope(static_cast<std::size_t>(slope_count_));
        if (slope_ >= 0) load_reals(slope_run_, data(slope_), 0, slope_count_, 1, slope.data());
        void* y = data(dst_);
        parallel_items(ctx_, g_.n * g_.o, parts_,
                       [&](std::int64_t p) { plane(x, w, bias, slope, y, p); });
    }

  private:
    /// Output plane `p` (image p / O, output channel p % O), each sum as the reference forms it.
    void plane(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& w,
               const std::vector<std::int64_t>& bias, const std::vector<double>& slope, void* y,
               std::int64_t p) const {
        namespace cd = reference::compute_detail;
        const std::int64_t n = p / g_.o, o = p % g_.o, group = o / g_.group_out;
        const std::int64_t sh = conv_.stride().h, sw = conv_.stride().w, dh = conv_.dilation().h,
                           dw = conv_.dilation().w;
        const int shift = fx_ + fw_ - fo_;
        const rounding_policy rounding = conv_.rounding();
        const overflow_policy overflow = conv_.overflow();
        const activation_spec act = conv_.fused_activation();
        const double o_slope =
            slope.empty() ? 0.0 : slope[static_cast<std::size_t>(slope.size() == 1 ? 0 : o)];
        const std::int64_t out_h = g_.y.out, out_w = g_.x.out;
        for (std::int64_t oy = 0; oy < out_h; ++oy)
            for (std::int64_t ox = 0; ox < out_w; ++ox) {
                std::int64_t sum = 0;
                for (std::int64_t ci = 0; ci < g_.group_in; ++ci) {
                    const std::int64_t c = group * g_.group_in + ci;
                    for (std::int64_t ky = 0; ky < g_.kh; ++ky) {
                        const std::int64_t iy = oy * sh - g_.y.pad_before + ky * dh;
                        if (iy < 0 || iy >= g_.h) continue;
                        for (std::int64_t kx = 0; kx < g_.kw; ++kx) {
                            const std::int64_t ix = ox * sw - g_.x.pad_before + kx * dw;
                            if (ix < 0 || ix >= g_.w) continue;
                            const std::int64_t xv = x[static_cast<std::size_t>(
                                ((n * g_.c + c) * g_.h + iy) * g_.w + ix)];
                            const std::int64_t wv = w[static_cast<std::size_t>(
                                ((o * g_.group_in + ci) * g_.kh + ky) * g_.kw + kx)];
                            sum += cd::fixed_product(xv, wv, shift, rounding, overflow);
                        }
                    }
                }
                if (!bias.empty())
                    sum += bias[static_cast<std::size_t>(
                        per_location_ ? (o * out_h + oy) * out_w + ox : o)];
                const std::int64_t i = ((n * g_.o + o) * out_h + oy) * out_w + ox;
                store(y, i, sum, act, o_slope, rounding, overflow);
            }
    }

    /// reference::compute_detail::store_fixed on the output buffer.
    void store(void* y, std::int64_t i, std::int64_t acc, const activation_spec& act, double slope,
               rounding_policy rounding, overflow_policy overflow) const {
        void* at = static_cast<char*>(y) + i * out_.element_size();
        const auto narrowed = numeric::narrow_with<std::int16_t>(acc, overflow);
        if (out_.type == dtype::i16 && out_.quant.fixed_point_pos == fo_ &&
            act.kind == activation_kind::none) {
            numeric::store_raw(dtype::i16, at, narrowed);
            return;
        }
        const double real = std::ldexp(static_cast<double>(narrowed), -fo_);
        numeric::store_real(out_.type, out_.quant, at, reference::activate(act, real, slope),
                            rounding, overflow);
    }

    op::conv2d conv_;
    op::conv2d::geometry_t g_;
    const runtime::Context& ctx_;
    int src_ = -1, weights_ = -1, dst_ = -1, bias_ = -1, slope_ = -1;
    element_run out_, bias_run_, slope_run_;
    int fx_ = 0, fw_ = 0, fo_ = 0, fb_ = 0;
    std::int64_t bias_count_ = 0, slope_count_ = 0;
    bool per_location_ = false;
    int parts_ = 1;
};

}  // namespace

std::unique_ptr<step> make_fixed_point_conv_step(const build_context& b, const op::conv2d& c) {
    return std::make_unique<fixed_point_conv_step>(b.node, c, b.ctx);
}

}  // namespace tessera::plugins::cpu
