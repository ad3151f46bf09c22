// ops/activation.cpp: element-wise activations on the runtime's Activation (nchw16c for 4-D
// tensors, row-major otherwise), and as a fused chain's epilogue. Kinds the runtime lacks,
// non-f32 tensors, NaN suppression and a clipping value run on the reference kernel.
#include <tessera/cpu/functions/activation.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice activation_route(const op::activation& a, const descs& in) {
    if (!all_f32(in) || !runtime_has(a.spec()))
        return reference_because("activation kind or dtype");
    if (!a.propagate_nan()) return reference_because("NaN suppression");
    if (a.clipping_value() != 0.0f) return reference_because("clipping value");
    return native(in[0].rank() == 4 ? route::native_blocked : route::native_plain);
}

/// A blocked activation may be a chain's epilogue.
fusion_role activation_fusion(const op::activation& a, const node_view& v) {
    fusion_role role;
    if (activation_route(a, v.in).how != route::native_blocked) return role;
    role.stage = fusion_stage::epilogue;
    role.activation = runtime_activation(a.spec());
    return role;
}

class activation_step final : public function_step {
  public:
    activation_step(const build_context& b, const op::activation& a) : function_step(b.node) {
        auto f = std::make_unique<runtime::Activation>(b.ctx);
        f->configure(in(0), out(), runtime_activation(a.spec()));
        set_function(std::move(f));
    }
};

}  // namespace

void state_activation(router& r) {
    r.state<op::activation>(
        [](const op::activation& a, const query_view& v) {
            return answer(activation_route(a, v.q.inputs), v.in, v.out);
        },
        [](const op::activation& a, const build_context& b) {
            return routed_step(activation_route(a, b.node.in), b,
                               [&] { return std::make_unique<activation_step>(b, a); });
        },
        &activation_fusion);
}

}  // namespace tessera::plugins::cpu
