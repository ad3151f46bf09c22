// ops/fully_connected.cpp: fully_connected on vxFullyConnectedLayer. Tessera's src [d0..d(r-1)]
// flattened from axis a is OpenVX's input whose first r - a dims (1 to 3) are one item and the
// rest the batch; weights [O, I] are OpenVX's [I, O]; bias [O]. A fused activation becomes an
// activation layer after it. i16 arithmetic as conv2d (accumulator_bits 0: 64 bits).
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_fully_connected(const op::fully_connected& f, const descs& in, const descs& out) {
    const tensor_desc& src = in[0];
    if (src.type() == dtype::i8 || src.type() == dtype::u8)
        return decline(TSR_REASON_DTYPE,
                       "8-bit fully connected: OpenVX narrows every product to 8 bits, Tessera "
                       "requantises the exact sum");
    if (in[1].type() != src.type())
        return decline(TSR_REASON_DTYPE, "weights and src differ in type");
    if (f.weights_transposed())
        return decline(TSR_REASON_LAYOUT,
                       "transposed weights [I, O]: OpenVX takes weights [O, I] (its [I, O])");
    const auto g = f.geometry(src, in[1]);
    const int core = src.rank() - g.axis;
    if (core < 1 || core > 3)
        return decline(TSR_REASON_SHAPE, "flattening " + std::to_string(core) +
                                             " dims: OpenVX's fully connected input item has 1 "
                                             "to 3 dims");
    const vx_policies pol = policies_of(f.rounding(), f.overflow(), src);
    if (f.fused_activation().kind != activation_kind::none) {
        std::string why;
        if (!map_activation(f.fused_activation(), &why))
            return decline(TSR_REASON_ATTRIBUTE, "fused " + why);
        if (!fused_activation_agrees(f.fused_activation(), pol))
            return decline(TSR_REASON_ATTRIBUTE,
                           "fused activation stored with rounding to zero or wrap-around: an "
                           "OpenVX activation layer rounds to nearest even and saturates");
    }
    if (f.has_bias()) {
        const tensor_desc& b = in[2];
        if (b.type() != out[0].type() ||
            b.quant().fixed_point_pos != out[0].quant().fixed_point_pos)
            return decline(TSR_REASON_DTYPE,
                           "bias " + std::string(tessera::to_string(b.type())) +
                               ": OpenVX biases have the output's type and fixed_point_pos");
    }
    return support::native();
}

std::unique_ptr<step> build_fully_connected(const op::fully_connected& f, const sdk::node& n,
                                            graph_builder& g) {
    const vx_policies pol = policies_of(f.rounding(), f.overflow(), g.desc(n.inputs[0]));
    vx_tensor bias = f.has_bias() ? g.tensor(n.inputs[2]) : nullptr;
    const int out_id = n.outputs[0];
    const bool act = f.fused_activation().kind != activation_kind::none;
    vx_tensor fc_out =
        act ? g.scratch(vx_dims(g.desc(out_id)), g.format(out_id)) : g.tensor(out_id);
    g.own_node(vxFullyConnectedLayer(g.graph(), g.tensor(n.inputs[0]), g.tensor(n.inputs[1]), bias,
                                     0, 0, pol.overflow, pol.rounding,
                                     VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, fc_out),
               "vxFullyConnectedLayer");
    auto s = std::make_unique<step>();
    if (act) {
        add_activation(g, fc_out, g.tensor(out_id), *map_activation(f.fused_activation(), nullptr));
        s->vx_nodes = 2;
    }
    return s;
}

}  // namespace

void state_fully_connected(router& r) {
    r.state<op::fully_connected>(framed_rule(&decide_fully_connected),
                                 build_rule(&build_fully_connected));
}

}  // namespace tessera::plugins::openvx
