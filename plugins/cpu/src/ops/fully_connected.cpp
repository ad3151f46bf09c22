// ops/fully_connected.cpp: fully connected layers on the runtime's FullyConnected, row-major.
// Flattening from another axis, transposed weights, non-f32 tensors and activations the runtime
// lacks run on the reference kernel.
#include <tessera/cpu/functions/gemm.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice fully_connected_route(const op::fully_connected& fc, const descs& in) {
    if (!all_f32(in) || fc.first_flatten_axis() != 1 || fc.weights_transposed() ||
        !runtime_has(fc.fused_activation()))
        return reference_because("fully connected form");
    return native(route::native_plain);
}

class fully_connected_step final : public function_step {
  public:
    fully_connected_step(const build_context& b, const op::fully_connected& fc)
        : function_step(b.node) {
        auto f = std::make_unique<runtime::FullyConnected>(b.ctx, b.memory);
        f->configure(in(0), in(1), fc.has_bias() ? &in(2) : nullptr, out(),
                     runtime_activation(fc.fused_activation()));
        set_function(std::move(f));
    }
};

}  // namespace

void state_fully_connected(router& r) {
    r.state<op::fully_connected>(
        [](const op::fully_connected& fc, const query_view& v) {
            return answer(fully_connected_route(fc, v.q.inputs), v.in, v.out);
        },
        [](const op::fully_connected& fc, const build_context& b) {
            return routed_step(fully_connected_route(fc, b.node.in), b,
                               [&] { return std::make_unique<fully_connected_step>(b, fc); });
        });
}

}  // namespace tessera::plugins::cpu
