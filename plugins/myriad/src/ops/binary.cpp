// ops/binary.cpp: binary add, sub, mul, div, max, min as the IR layer "Eltwise" (operation sum,
// sub, mul, div, max, min) on two floating tensors of one shape. Broadcasting, the scales alpha
// and beta and the accumulation gamma*C have no Eltwise parameter; integer tensors (rounding and
// overflow policies) are declined too.
#include "ops.hpp"
#include "tessera/ops/elementwise.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_binary(const op::binary& b, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>&) {
    if (b.kind() == binary_kind::pow) decline(TSR_REASON_ATTRIBUTE, "Eltwise has no pow operation");
    if (b.alpha() != 1.0f || b.beta() != 1.0f || b.uses_c())
        decline(TSR_REASON_ATTRIBUTE, "scales alpha, beta and gamma*C have no Eltwise parameter");
    if (inputs.size() != 2) decline(TSR_REASON_ATTRIBUTE, "Eltwise takes two inputs here");
    if (inputs[0].dims() != inputs[1].dims())
        decline(TSR_REASON_SHAPE, "broadcasting (" + inputs[0].dims().to_string() + " and " +
                                      inputs[1].dims().to_string() + ") has no Eltwise form");
    if (inputs[0].type() != dtype::f32 && inputs[0].type() != dtype::f16)
        decline(TSR_REASON_DTYPE, "Eltwise here takes f32 or f16 tensors");
    layer_request r;
    r.type = "Eltwise";
    switch (b.kind()) {
        case binary_kind::add:
            r.params = {{"operation", "sum"}};
            break;
        case binary_kind::sub:
            r.params = {{"operation", "sub"}};
            break;
        case binary_kind::mul:
            r.params = {{"operation", "mul"}};
            break;
        case binary_kind::div:
            r.params = {{"operation", "div"}};
            break;
        case binary_kind::max:
            r.params = {{"operation", "max"}};
            break;
        case binary_kind::min:
            r.params = {{"operation", "min"}};
            break;
        case binary_kind::pow:
            break;  // declined above
    }
    r.ports = {0, 1};
    return r;
}

}  // namespace

void state_binary(router& r) {
    state_layer<op::binary>(r, &describe_binary);
}

}  // namespace tessera::plugins::myriad
