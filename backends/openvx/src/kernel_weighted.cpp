// kernel_weighted.cpp: convolution and fully connected layers with the provisional fixed-point
// arithmetic: each product rounded (rounding_policy) and narrowed to the output type
// (overflow_policy), accumulated in accumulator_bits with the same overflow policy, the bias added
// in the accumulator, and the sum narrowed to the output type.
#include "fixed_point.hpp"
#include "kernels.hpp"

namespace openvx {

namespace {

/// The arithmetic shared by both layers.
struct product_rules {
    product_rules(const _vx_node& node, const tensor_span& in, const tensor_span& w,
                  const tensor_span& out)
        : shift(in.fixed_point_pos + w.fixed_point_pos - out.fixed_point_pos),
          out_type(out.type),
          rounding(node.config.rounding_policy),
          overflow(node.config.overflow_policy),
          accumulator_bits(node.config.accumulator_bits == 0 ? 64 : node.config.accumulator_bits) {}
    std::int64_t product(std::int64_t x, std::int64_t w) const {
        return fixed::narrow_to(fixed::round_shift(x * w, shift, rounding), out_type, overflow);
    }
    std::int64_t add(std::int64_t acc, std::int64_t v) const {
        return fixed::narrow_bits(acc + v, accumulator_bits, overflow);
    }
    std::int64_t result(std::int64_t acc) const {
        return fixed::narrow_to(acc, out_type, overflow);
    }
    int shift;
    vx_enum out_type, rounding, overflow;
    int accumulator_bits;
};

}  // namespace

void run_convolution(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), w(tensor_param(node, 1)),
        out(tensor_param(node, 3));
    const _vx_tensor_t* bias_tensor = tensor_param(node, 2);
    const product_rules rules(node, in, w, out);
    const node_config& c = node.config;
    const vx_size kx_n = w.dim(0), ky_n = w.dim(1), ifm_n = w.dim(2), ofm_n = w.dim(3);
    const vx_size in_w = in.dim(0), in_h = in.dim(1), batch = in.dim(3);
    const vx_size out_w = out.dim(0), out_h = out.dim(1);
    const bool per_location_bias = bias_tensor && bias_tensor->dims.size() == 3;
    for (vx_size n = 0; n < batch; ++n)
        for (vx_size o = 0; o < ofm_n; ++o)
            for (vx_size oy = 0; oy < out_h; ++oy)
                for (vx_size ox = 0; ox < out_w; ++ox) {
                    std::int64_t acc = 0;
                    for (vx_size ci = 0; ci < ifm_n; ++ci)
                        for (vx_size ky = 0; ky < ky_n; ++ky) {
                            const auto iy = static_cast<std::int64_t>(oy * c.skip_y + ky) -
                                            static_cast<std::int64_t>(c.pad_y);
                            if (iy < 0 || iy >= static_cast<std::int64_t>(in_h)) continue;
                            for (vx_size kx = 0; kx < kx_n; ++kx) {
                                const auto ix = static_cast<std::int64_t>(ox * c.skip_x + kx) -
                                                static_cast<std::int64_t>(c.pad_x);
                                if (ix < 0 || ix >= static_cast<std::int64_t>(in_w)) continue;
                                const std::int64_t x =
                                    in.load(static_cast<vx_size>(ix) * in.stride(0) +
                                            static_cast<vx_size>(iy) * in.stride(1) +
                                            ci * in.stride(2) + n * in.stride(3));
                                const std::int64_t wv = w.load(kx * w.stride(0) + ky * w.stride(1) +
                                                               ci * w.stride(2) + o * w.stride(3));
                                acc = rules.add(acc, rules.product(x, wv));
                            }
                        }
                    if (bias_tensor) {
                        const tensor_span b(bias_tensor);
                        const vx_size off =
                            per_location_bias
                                ? ox * b.stride(0) + oy * b.stride(1) + o * b.stride(2)
                                : o * b.stride(0);
                        acc = rules.add(acc, b.load(off));
                    }
                    out.store(ox * out.stride(0) + oy * out.stride(1) + o * out.stride(2) +
                                  n * out.stride(3),
                              rules.result(acc));
                }
}

void run_fully_connected(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), w(tensor_param(node, 1)),
        out(tensor_param(node, 3));
    const _vx_tensor_t* bias_tensor = tensor_param(node, 2);
    const product_rules rules(node, in, w, out);
    const std::size_t w_rank = w.dims.size();
    const vx_size ofm_n = w.dims.back();
    vx_size inner = 1;
    for (std::size_t d = 0; d + 1 < w_rank; ++d) inner *= w.dims[d];
    // The input's core dimensions (validation found them) hold one item; the rest are the
    // batch, laid out like the output's dimensions 1.. .
    const std::size_t core = node.config.core_dims;
    tensor_span in_core = in, w_core = w;
    in_core.dims.assign(in.dims.begin(), in.dims.begin() + static_cast<std::ptrdiff_t>(core));
    in_core.strides.assign(in.strides.begin(),
                           in.strides.begin() + static_cast<std::ptrdiff_t>(core));
    w_core.dims.pop_back();
    w_core.strides.pop_back();
    vx_size batch = 1;
    for (std::size_t d = core; d < in.dims.size(); ++d) batch *= in.dims[d];
    // Byte offsets of every inner element, in dim-0-fastest order.
    std::vector<vx_size> in_offsets(inner), w_offsets(inner);
    for (vx_size i = 0; i < inner; ++i) {
        in_offsets[i] = in_core.offset_of(i);
        w_offsets[i] = w_core.offset_of(i);
    }
    for (vx_size r = 0; r < batch; ++r) {
        // Offsets of batch element r in the input (dims core..) and the output (dims 1..).
        vx_size in_base = 0, out_base = 0, rest = r;
        for (std::size_t d = core; d < in.dims.size(); ++d) {
            in_base += (rest % in.dims[d]) * in.strides[d];
            out_base += (rest % in.dims[d]) * out.stride(d - core + 1);
            rest /= in.dims[d];
        }
        for (vx_size o = 0; o < ofm_n; ++o) {
            std::int64_t acc = 0;
            const vx_size w_base = o * w.strides.back();
            for (vx_size i = 0; i < inner; ++i) {
                acc = rules.add(acc, rules.product(in.load(in_base + in_offsets[i]),
                                                   w.load(w_base + w_offsets[i])));
            }
            if (bias_tensor) {
                const tensor_span b(bias_tensor);
                acc = rules.add(acc, b.load(o * b.stride(0)));
            }
            out.store(out_base + o * out.stride(0), rules.result(acc));
        }
    }
}

}  // namespace openvx
