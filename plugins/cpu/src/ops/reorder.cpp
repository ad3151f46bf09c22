// ops/reorder.cpp: layout conversions. Blocked nchw16c <-> row-major 4-D f32 runs on the
// runtime's Reorder; a strided copy between row-major layouts on the reference kernel; blocked
// to blocked, or blocked <-> anything else, is declined. A reorder keeps the layouts it was
// asked for.
#include <tessera/cpu/functions/reorder.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice reorder_route(const tensor_desc& in, const tensor_desc& out) {
    const bool from_blocked = is_blocked(in), to_blocked = is_blocked(out);
    if (from_blocked || to_blocked) {
        const tensor_desc& other = from_blocked ? out : in;
        if (from_blocked && to_blocked)
            return {route::declined, TSR_REASON_LAYOUT, "blocked to blocked"};
        if (other.rank() != 4 || other.type() != dtype::f32 || !other.is_row_major())
            return {route::declined, TSR_REASON_LAYOUT, "blocked <-> row-major f32 only"};
        return native(route::native_plain);
    }
    return {route::reference, TSR_REASON_NONE, "strided copy"};
}

class reorder_step final : public function_step {
  public:
    explicit reorder_step(const build_context& b) : function_step(b.node, /*as_image=*/true) {
        auto f = std::make_unique<runtime::Reorder>(b.ctx);
        f->configure(in(0), out());
        set_function(std::move(f));
    }
};

}  // namespace

void state_reorder(router& r) {
    r.state<op::reorder>(
        [](const op::reorder&, const query_view& v) {
            sdk::support s = answer(reorder_route(v.q.inputs[0], v.q.outputs[0]), {}, {});
            if (s.level == TSR_SUPPORT_NONE) return s;
            s.inputs = v.q.inputs;  // the layouts it was asked for
            s.outputs = v.q.outputs;
            return s;
        },
        [](const op::reorder&, const build_context& b) {
            return routed_step(reorder_route(b.node.in[0], b.node.out[0]), b,
                               [&] { return std::make_unique<reorder_step>(b); });
        });
}

}  // namespace tessera::plugins::cpu
