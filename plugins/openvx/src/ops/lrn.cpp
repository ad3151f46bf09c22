// ops/lrn.cpp: lrn on vxNormalizationLayer, x / (1 + alpha/n sum x^2)^beta over the same map
// (n = size^2) or across maps (n = size) of [N, C, H, W] images: Tessera's bias must be 1; an
// unscaled alpha is passed to OpenVX multiplied by n.
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

float vx_alpha(const op::lrn& l) {
    const float n = l.kind() == lrn_kind::across_channels ? static_cast<float>(l.size())
                                                          : static_cast<float>(l.size()) * l.size();
    return l.alpha_scaled_by_size() ? l.alpha() : l.alpha() * n;
}

support decide_lrn(const op::lrn& l, const descs& in, const descs&) {
    if (in[0].rank() != 4)
        return decline(TSR_REASON_SHAPE,
                       "rank " + std::to_string(in[0].rank()) +
                           ": OpenVX normalizes [N, C, H, W] images ([W, H, C, N])");
    if (l.bias() != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE,
                       "bias " + std::to_string(l.bias()) + ": OpenVX's normalization adds 1");
    if (!l.alpha_scaled_by_size() &&
        vx_alpha(l) / (l.kind() == lrn_kind::across_channels
                           ? static_cast<float>(l.size())
                           : static_cast<float>(l.size()) * l.size()) !=
            l.alpha())
        return decline(TSR_REASON_ATTRIBUTE, "unscaled alpha not representable as OpenVX's alpha");
    return support::native();
}

std::unique_ptr<step> build_lrn(const op::lrn& l, const sdk::node& n, graph_builder& g) {
    g.own_node(vxNormalizationLayer(
                   g.graph(), g.tensor(n.inputs[0]),
                   l.kind() == lrn_kind::across_channels ? VX_CONVOLUTIONAL_NETWORK_NORM_ACROSS_MAPS
                                                         : VX_CONVOLUTIONAL_NETWORK_NORM_SAME_MAP,
                   static_cast<vx_uint32>(l.size()), vx_alpha(l), l.beta(), g.tensor(n.outputs[0])),
               "vxNormalizationLayer");
    return std::make_unique<step>();
}

}  // namespace

void state_lrn(router& r) {
    r.state<op::lrn>(framed_rule(&decide_lrn), build_rule(&build_lrn));
}

}  // namespace tessera::plugins::openvx
