// ops/binary.cpp: element-wise add, sub, mul, min, max, div and pow on the runtime's
// ElementwiseBinary: in nchw16c when both operands are 4-D of one shape, row-major otherwise.
// Scaled (alpha, beta, gamma) and non-f32 forms run on the reference kernel.
#include <tessera/cpu/functions/elementwise.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice binary_route(const op::binary& b, const descs& in) {
    if (!all_f32(in) || b.alpha() != 1.0f || b.beta() != 1.0f || b.uses_c() || in.size() != 2)
        return reference_because("scaled or integer element-wise form");
    if (in[0].rank() == 4 && in[0].dims() == in[1].dims()) return native(route::native_blocked);
    return native(route::native_plain);
}

runtime::ElementwiseOp runtime_op(binary_kind k) {
    switch (k) {
        case binary_kind::add:
            return runtime::ElementwiseOp::add;
        case binary_kind::sub:
            return runtime::ElementwiseOp::sub;
        case binary_kind::mul:
            return runtime::ElementwiseOp::mul;
        case binary_kind::min:
            return runtime::ElementwiseOp::min;
        case binary_kind::max:
            return runtime::ElementwiseOp::max;
        case binary_kind::pow:
            return runtime::ElementwiseOp::pow;
        case binary_kind::div:
            break;
    }
    return runtime::ElementwiseOp::div;
}

class binary_step final : public function_step {
  public:
    binary_step(const build_context& b, const op::binary& o) : function_step(b.node) {
        auto f = std::make_unique<runtime::ElementwiseBinary>(b.ctx);
        f->configure(in(0), in(1), out(), runtime_op(o.kind()));
        set_function(std::move(f));
    }
};

}  // namespace

void state_binary(router& r) {
    r.state<op::binary>(
        [](const op::binary& b, const query_view& v) {
            // both operands are activations: on the blocked route both are in nchw16c
            return answer(binary_route(b, v.q.inputs), v.in, v.out, 2);
        },
        [](const op::binary& o, const build_context& b) {
            return routed_step(binary_route(o, b.node.in), b,
                               [&] { return std::make_unique<binary_step>(b, o); });
        });
}

}  // namespace tessera::plugins::cpu
