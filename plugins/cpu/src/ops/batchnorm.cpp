// ops/batchnorm.cpp: inference batch-norm (given mean and variance) on the runtime's
// BatchNormalization in nchw16c, or folded into the convolution before it (ops/conv2d.cpp).
// Other modes, ranks, dtypes and activations the runtime lacks run on the reference kernel.
#include <tessera/cpu/functions/batch_norm.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice batchnorm_route(const op::batchnorm& bn, const descs& in) {
    if (bn.kind() != batchnorm_kind::statistics || in[0].rank() != 4 || !all_f32(in) ||
        !runtime_has(bn.fused_activation()))
        return reference_because("batchnorm form");
    return native(route::native_blocked);
}

/// A blocked inference batch-norm may be folded into a chain's head; with an activation of its
/// own it ends the chain.
fusion_role batchnorm_fusion(const op::batchnorm& bn, const node_view& v) {
    fusion_role role;
    if (bn.kind() != batchnorm_kind::statistics ||
        bn.fused_activation().kind == activation_kind::prelu ||
        batchnorm_route(bn, v.in).how != route::native_blocked)
        return role;
    role.stage = fusion_stage::normalization;
    role.activation = runtime_activation(bn.fused_activation());
    role.closes_chain = bn.fused_activation().kind != activation_kind::none;
    role.epsilon = bn.epsilon();
    return role;
}

class batchnorm_step final : public function_step {
  public:
    batchnorm_step(const build_context& b, const op::batchnorm& bn) : function_step(b.node) {
        const bool affine = b.node.n.inputs.size() >= 5;
        auto f = std::make_unique<runtime::BatchNormalization>(b.ctx);
        f->configure(in(0), out(), in(1), in(2), affine ? &in(3) : nullptr,
                     affine ? &in(4) : nullptr, bn.epsilon(),
                     runtime_activation(bn.fused_activation()));
        set_function(std::move(f));
    }
};

}  // namespace

void state_batchnorm(router& r) {
    r.state<op::batchnorm>(
        [](const op::batchnorm& bn, const query_view& v) {
            return answer(batchnorm_route(bn, v.q.inputs), v.in, v.out);
        },
        [](const op::batchnorm& bn, const build_context& b) {
            return routed_step(batchnorm_route(bn, b.node.in), b,
                               [&] { return std::make_unique<batchnorm_step>(b, bn); });
        },
        &batchnorm_fusion);
}

}  // namespace tessera::plugins::cpu
