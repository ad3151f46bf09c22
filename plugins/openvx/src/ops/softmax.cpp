// ops/softmax.cpp: softmax on vxSoftmaxLayer, which normalises OpenVX's dim 0 (Tessera's
// innermost dim) with the higher dims as the batch: one innermost axis, beta 1, not log, no mask.
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_softmax(const op::softmax& s, const descs& in, const descs&) {
    const int rank = std::max(in[0].rank(), 1);
    const int axis = s.axis() < 0 ? s.axis() + rank : s.axis();
    if (axis != rank - 1 || s.axis_count() != 1)
        return decline(TSR_REASON_ATTRIBUTE,
                       "axis " + std::to_string(axis) + " count " + std::to_string(s.axis_count()) +
                           ": vxSoftmaxLayer normalises the innermost dim only");
    if (s.beta() != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE,
                       "beta " + std::to_string(s.beta()) + ": vxSoftmaxLayer has no input scale");
    if (s.log()) return decline(TSR_REASON_ATTRIBUTE, "log-softmax: OpenVX has none");
    if (s.mask()) return decline(TSR_REASON_ATTRIBUTE, "masked softmax: OpenVX has no mask");
    return support::native();
}

std::unique_ptr<step> build_softmax(const op::softmax&, const sdk::node& n, graph_builder& g) {
    g.own_node(vxSoftmaxLayer(g.graph(), g.tensor(n.inputs[0]), g.tensor(n.outputs[0])),
               "vxSoftmaxLayer");
    return std::make_unique<step>();
}

}  // namespace

void state_softmax(router& r) {
    r.state<op::softmax>(framed_rule(&decide_softmax), build_rule(&build_softmax));
}

}  // namespace tessera::plugins::openvx
