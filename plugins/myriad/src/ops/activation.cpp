// ops/activation.cpp: activations as the IR's activation layers, for bindings of those types:
// relu and leaky relu -> "ReLU" (negative_slope), sigmoid -> "Sigmoid", tanh -> "TanH", elu ->
// "ELU" (alpha), clip, relu6 and bounded relu -> "Clamp" (min, max). No standard layer implements
// them: they run only where a user's bindings file binds the type (and then override the native
// activation, as on the VPU).
#include "tessera/ops/activation.hpp"
#include "ops.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_activation(const op::activation& a, const std::vector<tensor_desc>& inputs,
                                  const std::vector<tensor_desc>&) {
    if (a.clipping_value() != 0.0f)
        decline(TSR_REASON_ATTRIBUTE, "a clipping value has no IR activation parameter");
    layer_request r;
    r.ports = {0};
    switch (a.kind()) {
        case activation_kind::relu:
            r.type = "ReLU";
            r.params = {{"negative_slope", "0"}};
            break;
        case activation_kind::leaky_relu:
            r.type = "ReLU";
            r.params = {{"negative_slope", ir_number(a.a())}};
            break;
        case activation_kind::sigmoid:
            r.type = "Sigmoid";
            break;
        case activation_kind::tanh:
            if (a.a() != 1.0f || a.b() != 1.0f)
                decline(TSR_REASON_ATTRIBUTE, "a scaled tanh (a*tanh(b*x)) has no IR layer");
            r.type = "TanH";
            break;
        case activation_kind::elu:
            r.type = "ELU";
            r.params = {{"alpha", ir_number(a.a())}};
            break;
        case activation_kind::relu6:
            r.type = "Clamp";
            r.params = {{"min", "0"}, {"max", "6"}};
            break;
        case activation_kind::bounded_relu:
            r.type = "Clamp";
            r.params = {{"min", "0"}, {"max", ir_number(a.a())}};
            break;
        case activation_kind::clip:
            r.type = "Clamp";
            r.params = {{"min", ir_number(a.a())}, {"max", ir_number(a.b())}};
            break;
        default:
            decline(TSR_REASON_ATTRIBUTE, "activation " + std::string(to_string(a.kind())) +
                                              " has no IR activation layer mapping");
    }
    if (inputs.size() != 1) decline(TSR_REASON_ATTRIBUTE, "the activation has extra inputs");
    return r;
}

}  // namespace

void state_activation(router& r) {
    state_layer<op::activation>(r, &describe_activation);
}

}  // namespace tessera::plugins::myriad
