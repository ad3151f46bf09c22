// ops/expand_tile.cpp: expand (numpy broadcast to a target shape) and tile (repeat each dim) as
// strided walks, every dtype moved by element size. Expand reads broadcast dims with step 0
// (a repeated inner element is a fill); tile walks each dim as (repeat, element) with step 0 over
// the repeats, so each inner run of the source is one memcpy. Large outputs are split over the
// runtime's threads.
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

copy_plan expand_plan(const op::expand&, const tensor_desc& in, const tensor_desc& out) {
    copy_plan plan;
    const int lead = out.rank() - in.rank();
    for (int i = 0; i < out.rank(); ++i) {
        const int j = i - lead;
        const bool repeated = j < 0 || in.dim(j) == 1;
        plan.add_dim(out.dim(i), repeated ? 0 : in.stride(j), out.stride(i));
    }
    plan.set_origin(in.offset(), out.offset());
    return plan;
}

copy_plan tile_plan(const op::tile&, const tensor_desc& in, const tensor_desc& out) {
    copy_plan plan;
    for (int i = 0; i < in.rank(); ++i) {
        const std::int64_t n = in.dim(i);
        const std::int64_t repeats = n > 0 ? out.dim(i) / n : 0;
        plan.add_dim(repeats, 0, n * out.stride(i));
        plan.add_dim(n, in.stride(i), out.stride(i));
    }
    plan.set_origin(in.offset(), out.offset());
    return plan;
}

}  // namespace

void state_expand_tile(router& r) {
    state_single_copy<op::expand>(r, expand_plan);
    state_single_copy<op::tile>(r, tile_plan);
}

}  // namespace tessera::plugins::cpu
