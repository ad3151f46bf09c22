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
    r.state<op::slice>(
        [](const op::slice&, const query_view& v) {
            return answer(element_move_route(v.in[0], v.out[0]), v.in, v.out);
        },
        [](const op::slice& s, const build_context& b) {
            const node_view& v = b.node;
            return routed_step(element_move_route(v.in[0], v.out[0]), b, [&] {
                std::vector<copy_piece> pieces{
                    {v.n.inputs[0], v.n.outputs[0], slice_plan(s, v.in[0], v.out[0])}};
                return std::make_unique<copy_step>(std::move(pieces), size_of(v.in[0].type()),
                                                   b.ctx);
            });
        });
}

}  // namespace tessera::plugins::cpu
