// ops/conv2d.cpp: conv2d on vxConvolutionLayer: direct (grouped and depthwise as one layer per
// group on views), no dilation, pads alike on both sides, the stride OpenVX derives from the sizes,
// bias [O] or per location [O, OH, OW] in the output's format; a fused activation becomes an
// activation layer after it (through a virtual tensor). i16 fixed point follows the provisional
// contract (per-product rounding and overflow, 64-bit accumulation: accumulator_bits 0, then the
// bias), which is what the reference computes.
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_conv2d(const op::conv2d& c, const descs& in, const descs& out) {
    const tensor_desc& src = in[0];
    if (src.type() == dtype::i8 || src.type() == dtype::u8)
        return decline(TSR_REASON_DTYPE,
                       "8-bit convolution: OpenVX narrows every product to 8 bits, Tessera "
                       "requantises the exact sum");
    if (c.kind() == conv_kind::transposed)
        return decline(TSR_REASON_ATTRIBUTE,
                       "transposed convolution: vxConvolutionLayer is direct only");
    if (c.dilation() != op::hw{1, 1})
        return decline(TSR_REASON_ATTRIBUTE,
                       "dilation: the provisional vxConvolutionLayer has no dilation");
    if (c.fuse_batchnorm())
        return decline(TSR_REASON_ATTRIBUTE, "fused batchnorm: OpenVX has no batchnorm layer");
    const vx_policies pol = policies_of(c.rounding(), c.overflow(), src);
    if (c.fused_activation().kind != activation_kind::none) {
        std::string why;
        if (!map_activation(c.fused_activation(), &why))
            return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
        if (!fused_activation_agrees(c.fused_activation(), pol))
            return decline(TSR_REASON_ATTRIBUTE,
                           "fused activation stored with rounding to zero or wrap-around: an "
                           "OpenVX activation layer rounds to nearest even and saturates");
    }
    const auto slots = c.slots();
    if (slots.bias >= 0) {
        const tensor_desc& b = in[static_cast<std::size_t>(slots.bias)];
        if (b.type() != out[0].type() ||
            b.quant().fixed_point_pos != out[0].quant().fixed_point_pos)
            return decline(TSR_REASON_DTYPE,
                           "bias " + std::string(tessera::to_string(b.type())) +
                               ": OpenVX biases have the output's type and fixed_point_pos");
    }
    const tensor_desc& w = in[1];
    if (w.type() != src.type()) return decline(TSR_REASON_DTYPE, "weights and src differ in type");
    const auto g = c.geometry(src, w);
    const bool ceil = c.rounding_mode() == output_rounding::ceil;
    if (auto why = window_mismatch("H", g.h, g.y.pad_before, g.y.pad_after, g.kh, c.stride().h,
                                   g.y.out, ceil))
        return decline(TSR_REASON_ATTRIBUTE, *why);
    if (auto why = window_mismatch("W", g.w, g.x.pad_before, g.x.pad_after, g.kw, c.stride().w,
                                   g.x.out, ceil))
        return decline(TSR_REASON_ATTRIBUTE, *why);
    return support::native();
}

std::unique_ptr<step> build_conv2d(const op::conv2d& c, const sdk::node& n, graph_builder& g) {
    const tensor_desc& src = g.desc(n.inputs[0]);
    const auto geo = c.geometry(src, g.desc(n.inputs[1]));
    const vx_policies pol = policies_of(c.rounding(), c.overflow(), src);
    const auto slots = c.slots();
    vx_tensor bias =
        slots.bias >= 0 ? g.tensor(n.inputs[static_cast<std::size_t>(slots.bias)]) : nullptr;
    const int out_id = n.outputs[0];
    const bool act = c.fused_activation().kind != activation_kind::none;
    const std::vector<vx_uint32> out_dims = vx_dims(g.desc(out_id));
    vx_tensor conv_out = act ? g.scratch(out_dims, g.format(out_id)) : g.tensor(out_id);
    auto layer = [&](vx_tensor x, vx_tensor w, vx_tensor b, vx_tensor y) {
        g.own_node(vxConvolutionLayer(g.graph(), x, w, b, static_cast<vx_uint32>(geo.x.pad_before),
                                      static_cast<vx_uint32>(geo.y.pad_before), 0, pol.overflow,
                                      pol.rounding,
                                      c.rounding_mode() == output_rounding::ceil
                                          ? VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING
                                          : VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                                      y),
                   "vxConvolutionLayer");
    };
    auto s = std::make_unique<step>();
    const std::int64_t groups = geo.group_in ? geo.c / geo.group_in : 1;
    if (groups == 1) {
        layer(g.tensor(n.inputs[0]), g.tensor(n.inputs[1]), bias, conv_out);
    } else {
        // Grouped (and depthwise) convolution as OpenVX programs write it: one layer per group on
        // views of the input's feature maps, the weights' and bias's output maps and the output's
        // feature maps (disjoint views of one tensor may have different writers).
        const std::vector<vx_uint32> in_dims = vx_dims(src);
        const std::vector<vx_uint32> w_dims = vx_dims(g.desc(n.inputs[1]));
        const auto gi = static_cast<vx_uint32>(geo.group_in);
        const auto go = static_cast<vx_uint32>(geo.group_out);
        for (vx_uint32 k = 0; k < static_cast<vx_uint32>(groups); ++k) {
            vx_tensor b = nullptr;
            if (bias) {
                const std::vector<vx_uint32> b_dims =
                    vx_dims(g.desc(n.inputs[static_cast<std::size_t>(slots.bias)]));
                b = g.view(bias, b_dims, b_dims.size() == 1 ? 0 : 2, k * go, (k + 1) * go);
            }
            layer(g.view(g.tensor(n.inputs[0]), in_dims, 2, k * gi, (k + 1) * gi),
                  g.view(g.tensor(n.inputs[1]), w_dims, 3, k * go, (k + 1) * go), b,
                  g.view(conv_out, out_dims, 2, k * go, (k + 1) * go));
        }
        s->vx_nodes = static_cast<int>(groups);
    }
    if (act) {
        add_activation(g, conv_out, g.tensor(out_id),
                       *map_activation(c.fused_activation(), nullptr));
        ++s->vx_nodes;
    }
    return s;
}

}  // namespace

void state_conv2d(router& r) {
    r.state<op::conv2d>(framed_rule(&decide_conv2d), build_rule(&build_conv2d));
}

}  // namespace tessera::plugins::openvx
