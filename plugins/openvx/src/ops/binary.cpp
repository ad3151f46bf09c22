// ops/binary.cpp: binary add, sub and mul on vxTensorAdd/Subtract/MultiplyNode with OpenVX's
// broadcasting (a dim 1 in one input; missing OpenVX dims are Tessera's leading dims, so numpy
// broadcasting maps unchanged). Add and subtract: alpha = beta = 1, one format everywhere, the
// exact sum narrowed with the overflow policy. Multiply: beta = 1, alpha >= 0 is OpenVX's scale,
// the exact product rescaled to the output's position with the rounding and overflow policies.
#include <cmath>

#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_binary(const op::binary& b, const descs& in, const descs& out) {
    const binary_kind k = b.kind();
    if (k != binary_kind::add && k != binary_kind::sub && k != binary_kind::mul)
        return decline(
            TSR_REASON_ATTRIBUTE,
            op_desc(b).describe() + ": OpenVX has tensor add, subtract and multiply only");
    if (b.gamma() != 0.0f)
        return decline(TSR_REASON_ATTRIBUTE, "gamma * C: OpenVX tensor nodes have no third input");
    if (b.beta() != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE, "beta " + std::to_string(b.beta()) +
                                                 ": OpenVX tensor nodes scale no second input");
    if (in[0].type() != in[1].type() || in[0].type() != out[0].type())
        return decline(TSR_REASON_DTYPE, "mixed types: OpenVX tensor nodes take one type");
    if (k == binary_kind::mul) {
        if (!(b.alpha() >= 0.0f) || !std::isfinite(b.alpha()))
            return decline(TSR_REASON_ATTRIBUTE,
                           "alpha " + std::to_string(b.alpha()) +
                               ": OpenVX's multiply scale is finite and not negative");
        return support::native();
    }
    if (b.alpha() != 1.0f)
        return decline(TSR_REASON_ATTRIBUTE, "alpha " + std::to_string(b.alpha()) +
                                                 ": OpenVX add and subtract have no scale");
    const int pos = in[0].quant().fixed_point_pos;
    if (in[1].quant().fixed_point_pos != pos || out[0].quant().fixed_point_pos != pos)
        return decline(TSR_REASON_DTYPE,
                       "fixed_point_pos differs between operands: OpenVX add and subtract take "
                       "one format");
    return support::native();
}

std::unique_ptr<step> build_binary(const op::binary& b, const sdk::node& n, graph_builder& g) {
    const vx_policies pol = policies_of(b.rounding(), b.overflow(), g.desc(n.inputs[0]));
    vx_tensor a = g.tensor(n.inputs[0]), c = g.tensor(n.inputs[1]), out = g.tensor(n.outputs[0]);
    switch (b.kind()) {
        case binary_kind::add:
            g.own_node(vxTensorAddNode(g.graph(), a, c, pol.overflow, out), "vxTensorAddNode");
            break;
        case binary_kind::sub:
            g.own_node(vxTensorSubtractNode(g.graph(), a, c, pol.overflow, out),
                       "vxTensorSubtractNode");
            break;
        default: {
            vx_float32 scale = b.alpha();
            vx_scalar s =
                g.own(vxCreateScalar(g.context(), VX_TYPE_FLOAT32, &scale), "vxCreateScalar");
            g.own_node(vxTensorMultiplyNode(g.graph(), a, c, s, pol.overflow, pol.rounding, out),
                       "vxTensorMultiplyNode");
            break;
        }
    }
    return std::make_unique<step>();
}

}  // namespace

void state_binary(router& r) {
    r.state<op::binary>(framed_rule(&decide_binary), build_rule(&build_binary));
}

}  // namespace tessera::plugins::openvx
