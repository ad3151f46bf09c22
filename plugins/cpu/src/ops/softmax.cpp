// ops/softmax.cpp: softmax and log-softmax over the last axis on the runtime's Softmax,
// row-major; other axes, several axes, masks and non-f32 tensors run on the reference kernel.
#include <tessera/cpu/functions/softmax.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice softmax_route(const op::softmax& s, const descs& in) {
    const bool last = s.axis() == -1 || s.axis() == in[0].rank() - 1;
    if (!all_f32(in) || !last || s.axis_count() != 1 || s.mask() != 0)
        return reference_because("softmax axis or mask");
    return native(route::native_plain);
}

class softmax_step final : public function_step {
  public:
    softmax_step(const build_context& b, const op::softmax& s) : function_step(b.node) {
        auto f = std::make_unique<runtime::Softmax>(b.ctx);
        f->configure(in(0), out(), s.beta(), s.log());
        set_function(std::move(f));
    }
};

}  // namespace

void state_softmax(router& r) {
    r.state<op::softmax>(
        [](const op::softmax& s, const query_view& v) {
            return answer(softmax_route(s, v.q.inputs), v.in, v.out);
        },
        [](const op::softmax& s, const build_context& b) {
            return routed_step(softmax_route(s, b.node.in), b,
                               [&] { return std::make_unique<softmax_step>(b, s); });
        });
}

}  // namespace tessera::plugins::cpu
