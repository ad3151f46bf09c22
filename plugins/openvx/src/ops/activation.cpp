// ops/activation.cpp: activation on vxActivationLayer: OpenVX's nine functions (logistic, tanh,
// relu, bounded relu, soft relu, abs, square, sqrt, linear; a and b integers), computed on real
// values and stored rounded to nearest even with saturation, as Tessera stores integer
// activations.
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_activation(const op::activation& a, const descs&, const descs&) {
    std::string why;
    if (!map_activation(a.spec(), &why)) return decline(TSR_REASON_ATTRIBUTE, why);
    if (a.clipping_value() != 0.0f)
        return decline(TSR_REASON_ATTRIBUTE,
                       "clipping value: OpenVX activations have no min(f(x), clip) bound");
    return support::native();
}

std::unique_ptr<step> build_activation(const op::activation& a, const sdk::node& n,
                                       graph_builder& g) {
    add_activation(g, g.tensor(n.inputs[0]), g.tensor(n.outputs[0]),
                   *map_activation(a.spec(), nullptr));
    return std::make_unique<step>();
}

}  // namespace

void state_activation(router& r) {
    r.state<op::activation>(framed_rule(&decide_activation), build_rule(&build_activation));
}

}  // namespace tessera::plugins::openvx
