// ops/slice.cpp: slice (ONNX Slice: start:end:step per dim, negative steps included) as one
// strided walk over the source, every dtype moved by element size; contiguous inner runs are
// copied with memcpy and large slices split over the runtime's threads.
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

copy_plan slice_plan(const op::slice& s, const tensor_desc& in, const tensor_desc& out) {
    copy_plan plan;
    std::int64_t origin = in.offset();
    for (int i = 0; i < in.rank(); ++i) {
        const op::slice_range r = s.resolve(i, in.dim(i));
        if (r.count > 0) origin += r.first * in.stride(i);
        plan.add_dim(r.count, r.step * in.stride(i), out.stride(i));
    }
    plan.set_origin(origin, out.offset());
    return plan;
}

}  // namespace

void state_slice(router& r) {
    state_single_copy<op::slice>(r, slice_plan);
}

}  // namespace tessera::plugins::cpu
