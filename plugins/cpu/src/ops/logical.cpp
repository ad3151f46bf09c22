// ops/logical.cpp: element-wise and, or, xor (two bool tensors, numpy broadcasting) and not,
// in the plugin's own typed loops (typed_broadcast.hpp); any non-zero byte reads as true and
// results are 0 or 1, as the reference stores them.
#include "../typed_broadcast.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

using truth = std::uint8_t;

run_kernel<2> binary_logical_kernel(logical_kind k, const std::array<bool, 2>& uniform) {
    switch (k) {
        case logical_kind::and_:
            return elementwise_kernel<truth, truth, truth>(
                [](truth x, truth y) -> truth { return (x != 0) & (y != 0); }, uniform);
        case logical_kind::or_:
            return elementwise_kernel<truth, truth, truth>(
                [](truth x, truth y) -> truth { return (x != 0) | (y != 0); }, uniform);
        default:
            return elementwise_kernel<truth, truth, truth>(
                [](truth x, truth y) -> truth { return (x != 0) ^ (y != 0); }, uniform);
    }
}

std::unique_ptr<step> logical_step(const op::logical& o, const build_context& b) {
    const node_view& v = b.node;
    const logical_kind kind = o.kind();
    if (kind == logical_kind::not_) {
        return std::make_unique<broadcast_step<1>>(
            v, b.ctx, std::array<int, 1>{v.n.inputs[0]}, std::array<tensor_desc, 1>{v.in[0]},
            [](const std::array<bool, 1>& u) {
                return elementwise_kernel<truth, truth>([](truth x) -> truth { return x == 0; }, u);
            });
    }
    return std::make_unique<broadcast_step<2>>(
        v, b.ctx, std::array<int, 2>{v.n.inputs[0], v.n.inputs[1]},
        std::array<tensor_desc, 2>{v.in[0], v.in[1]},
        [kind](const std::array<bool, 2>& u) { return binary_logical_kernel(kind, u); });
}

}  // namespace

void state_logical(router& r) {
    r.state<op::logical>(
        [](const op::logical&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::logical& o, const build_context& b) { return logical_step(o, b); });
}

}  // namespace tessera::plugins::cpu
