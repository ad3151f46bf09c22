// ops/depth_to_space.cpp: depth_to_space (DCR and CRD) as one strided walk: the output
// N, C/(b*b), H*b, W*b seen as N, C', H, b, W, b, each dim reading the source channel it comes
// from; every dtype moved by element size, large outputs split over the runtime's threads.
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

copy_plan depth_to_space_plan(const op::depth_to_space& d, const tensor_desc& in,
                              const tensor_desc& out) {
    const std::int64_t b = d.block_size(), channels = out.dim(1);
    const bool dcr = d.kind() == depth_to_space_kind::dcr;
    const std::int64_t c_step = in.stride(1);
    copy_plan plan;
    plan.add_dim(out.dim(0), in.stride(0), out.stride(0));
    plan.add_dim(channels, dcr ? c_step : b * b * c_step, out.stride(1));
    plan.add_dim(in.dim(2), in.stride(2), b * out.stride(2));
    plan.add_dim(b, dcr ? b * channels * c_step : b * c_step, out.stride(2));
    plan.add_dim(in.dim(3), in.stride(3), b * out.stride(3));
    plan.add_dim(b, dcr ? channels * c_step : c_step, out.stride(3));
    plan.set_origin(in.offset(), out.offset());
    return plan;
}

}  // namespace

void state_depth_to_space(router& r) {
    state_single_copy<op::depth_to_space>(r, depth_to_space_plan);
}

}  // namespace tessera::plugins::cpu
