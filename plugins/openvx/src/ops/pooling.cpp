// ops/pooling.cpp: pooling on vxPoolingLayer. OpenVX pads with zeros for max pooling too, where
// Tessera's max pooling ignores padding: padded max pooling is declined. Average pooling divides
// by the positions inside the padded input (Tessera's average including padding; excluding
// padding agrees without padding) and rounds to nearest even. Pads alike on both sides; the
// stride is the one OpenVX derives from the sizes.
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_pooling(const op::pooling& p, const descs& in, const descs&) {
    const tensor_desc& src = in[0];
    const auto g = p.geometry(src);
    const bool padded = g.y.pad_before || g.y.pad_after || g.x.pad_before || g.x.pad_after;
    if (p.is_max() && padded)
        return decline(TSR_REASON_ATTRIBUTE,
                       "padded max pooling: OpenVX pads with zeros, Tessera ignores padding");
    if (p.kind() == pooling_kind::average_exclude_padding && padded)
        return decline(TSR_REASON_ATTRIBUTE,
                       "average excluding padding: OpenVX divides by the window inside the padded "
                       "input");
    if (!p.is_max() && !is_f32(src) && p.rounding() != rounding_policy::to_nearest_even)
        return decline(TSR_REASON_ATTRIBUTE,
                       "average rounded to zero: OpenVX rounds averages to nearest even");
    const bool ceil = p.rounding_mode() == output_rounding::ceil && !p.global();
    if (auto why =
            window_mismatch("H", g.h, g.y.pad_before, g.y.pad_after, g.kh, g.sh, g.y.out, ceil))
        return decline(TSR_REASON_ATTRIBUTE, *why);
    if (auto why =
            window_mismatch("W", g.w, g.x.pad_before, g.x.pad_after, g.kw, g.sw, g.x.out, ceil))
        return decline(TSR_REASON_ATTRIBUTE, *why);
    return support::native();
}

std::unique_ptr<step> build_pooling(const op::pooling& p, const sdk::node& n, graph_builder& g) {
    const auto geo = p.geometry(g.desc(n.inputs[0]));
    const bool ceil = p.rounding_mode() == output_rounding::ceil && !p.global();
    g.own_node(vxPoolingLayer(g.graph(), g.tensor(n.inputs[0]),
                              p.is_max() ? VX_CONVOLUTIONAL_NETWORK_POOLING_MAX
                                         : VX_CONVOLUTIONAL_NETWORK_POOLING_AVG,
                              static_cast<vx_uint32>(geo.kw), static_cast<vx_uint32>(geo.kh),
                              static_cast<vx_uint32>(geo.x.pad_before),
                              static_cast<vx_uint32>(geo.y.pad_before),
                              ceil ? VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING
                                   : VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                              g.tensor(n.outputs[0])),
               "vxPoolingLayer");
    return std::make_unique<step>();
}

}  // namespace

void state_pooling(router& r) {
    r.state<op::pooling>(framed_rule(&decide_pooling), build_rule(&build_pooling));
}

}  // namespace tessera::plugins::openvx
