// ops/unary.cpp: element-wise erf (the GELU of exported transformers), sqrt (decomposed layer
// norms), rsqrt, neg, abs and reciprocal on row-major f32 tensors, in the plugin's own
// vectorised loops (elementwise_math.hpp). The other unary kinds, and other dtypes, run on the
// reference kernel.
#include "../elementwise_math.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice unary_route(const op::unary& u, const descs& in) {
    if (!native_unary(u.kind())) return {route::reference, TSR_REASON_OP_KIND, "unary kind"};
    if (!all_f32(in)) return reference_because("non-f32 unary");
    return native(route::native_plain);
}

class unary_step final : public step {
  public:
    unary_step(const node_view& v, const op::unary& u)
        : src_(v.n.inputs[0]),
          dst_(v.n.outputs[0]),
          count_(v.out[0].num_elements()),
          kind_(u.kind()),
          epsilon_(u.epsilon()) {}

    void run(const buffers& b) override {
        const auto* src = static_cast<const float*>(b[static_cast<std::size_t>(src_)]->host_data());
        auto* dst = static_cast<float*>(b[static_cast<std::size_t>(dst_)]->host_data());
        apply_unary(kind_, epsilon_, src, dst, count_);
    }

  private:
    int src_, dst_;
    std::int64_t count_;
    unary_kind kind_;
    float epsilon_;
};

}  // namespace

void state_unary(router& r) {
    r.state<op::unary>(
        [](const op::unary& u, const query_view& v) {
            return answer(unary_route(u, v.q.inputs), v.in, v.out);
        },
        [](const op::unary& u, const build_context& b) {
            return routed_step(unary_route(u, b.node.in), b,
                               [&] { return std::make_unique<unary_step>(b.node, u); });
        });
}

}  // namespace tessera::plugins::cpu
