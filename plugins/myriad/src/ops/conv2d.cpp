// ops/conv2d.cpp: conv2d as the IR layer "Convolution": kernel, strides, pads_begin, pads_end,
// dilations (each "h,w"), group and output as parameters; weights [O, C, KH, KW] as the blob
// "weights", a bias [O] as the blob "biases" (the chosen binding must read it). Direct mode with
// one group only, no fused batch norm or activation: those have no place in the IR layer.
#include "tessera/ops/conv2d.hpp"
#include "ops.hpp"

namespace tessera::plugins::myriad {

namespace {

std::string pair(std::int64_t h, std::int64_t w) {
    return std::to_string(h) + "," + std::to_string(w);
}

layer_request describe_conv2d(const op::conv2d& c, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>&) {
    if (c.kind() != conv_kind::direct)
        decline(TSR_REASON_ATTRIBUTE, "only direct convolution maps to the IR's Convolution");
    if (c.groups() != 1)
        decline(TSR_REASON_ATTRIBUTE,
                "grouped convolution (groups " + std::to_string(c.groups()) + ") is not mapped");
    if (c.fuse_batchnorm())
        decline(TSR_REASON_ATTRIBUTE, "a fused batch norm has no Convolution parameter");
    if (c.fused_activation().kind != activation_kind::none)
        decline(TSR_REASON_ATTRIBUTE, "a fused activation has no Convolution parameter");
    if (inputs.size() < 2) decline(TSR_REASON_INVALID, "conv2d needs src and weights");
    const op::conv2d::geometry_t g = c.geometry(inputs[0], inputs[1]);
    const op::conv2d::input_slots slots = c.slots();
    layer_request r;
    r.type = "Convolution";
    r.params = {{"kernel", pair(g.kh, g.kw)},
                {"strides", pair(c.stride().h, c.stride().w)},
                {"pads_begin", pair(g.y.pad_before, g.x.pad_before)},
                {"pads_end", pair(g.y.pad_after, g.x.pad_after)},
                {"dilations", pair(c.dilation().h, c.dilation().w)},
                {"group", "1"},
                {"output", std::to_string(g.o)}};
    r.ports = {0};
    r.blobs = {{1, "weights"}};
    if (slots.bias >= 0) {
        if (inputs.at(static_cast<std::size_t>(slots.bias)).rank() != 1)
            decline(TSR_REASON_SHAPE, "a per-location bias [O, OH, OW] is not mapped");
        r.blobs.emplace_back(slots.bias, "biases");
    }
    return r;
}

}  // namespace

void state_conv2d(router& r) {
    state_layer<op::conv2d>(r, &describe_conv2d);
}

}  // namespace tessera::plugins::myriad
