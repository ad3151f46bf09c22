// ops/concat.cpp: concat as one strided walk per input into its part of the output (rows of the
// dims before the axis, each a memcpy of the input's axis-and-inner block); every dtype moved by
// element size, large inputs split over the runtime's threads.
#include "../strided_copy.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice concat_route(const descs& in, const tensor_desc& out) {
    for (const tensor_desc& d : in) {
        const route_choice r = element_move_route(d, out);
        if (r.how != route::native_plain) return r;
    }
    return native(route::native_plain);
}

std::vector<copy_piece> concat_pieces(const op::concat& c, const node_view& v) {
    const tensor_desc& out = v.out[0];
    const int axis = c.axis() < 0 ? c.axis() + out.rank() : c.axis();
    std::vector<copy_piece> pieces;
    std::int64_t start = 0;
    for (std::size_t k = 0; k < v.in.size(); ++k) {
        const tensor_desc& in = v.in[k];
        copy_piece p{v.n.inputs[k], v.n.outputs[0], {}};
        for (int i = 0; i < in.rank(); ++i) p.plan.add_dim(in.dim(i), in.stride(i), out.stride(i));
        p.plan.set_origin(in.offset(), out.offset() + start * out.stride(axis));
        start += in.dim(axis);
        if (!p.plan.empty()) pieces.push_back(p);
    }
    return pieces;
}

}  // namespace

void state_concat(router& r) {
    r.state<op::concat>(
        [](const op::concat&, const query_view& v) {
            return answer(concat_route(v.in, v.out[0]), v.in, v.out);
        },
        [](const op::concat& c, const build_context& b) {
            const node_view& v = b.node;
            return routed_step(concat_route(v.in, v.out[0]), b, [&] {
                return std::make_unique<copy_step>(concat_pieces(c, v), size_of(v.out[0].type()),
                                                   b.ctx);
            });
        });
}

}  // namespace tessera::plugins::cpu
