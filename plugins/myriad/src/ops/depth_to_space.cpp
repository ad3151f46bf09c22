// ops/depth_to_space.cpp: depth_to_space as the IR layer "DepthToSpace" (block_size, mode
// blocks_first for DCR, depth_first for CRD), for bindings of that type. No shipped layer
// computes it: the shipped ReorgYolo moves the other way (space to depth: output channel
// (dy * s + dx) * C + c takes pixel (y * s + dy, x * s + dx) of channel c), so it is not used for
// either depth_to_space order.
#include "tessera/ops/depth_to_space.hpp"
#include "ops.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_depth_to_space(const op::depth_to_space& o,
                                      const std::vector<tensor_desc>& inputs,
                                      const std::vector<tensor_desc>&) {
    if (inputs.size() != 1) decline(TSR_REASON_INVALID, "depth_to_space takes one input");
    layer_request r;
    r.type = "DepthToSpace";
    r.params = {{"block_size", std::to_string(o.block_size())},
                {"mode", o.kind() == depth_to_space_kind::dcr ? "blocks_first" : "depth_first"}};
    r.ports = {0};
    return r;
}

}  // namespace

void state_depth_to_space(router& r) {
    state_layer<op::depth_to_space>(r, &describe_depth_to_space);
}

}  // namespace tessera::plugins::myriad
