// ops/where.cpp: element-wise selection out = condition ? X : Y (numpy broadcasting of all
// three) for every dtype, in the plugin's own typed loops (typed_broadcast.hpp). X, Y and the
// output store values alike (validated), so elements are copied bit for bit by their size.
#include "../element_moves.hpp"
#include "../typed_broadcast.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

run_kernel<3> where_kernel(std::size_t element_size, const std::array<bool, 3>& uniform) {
    run_kernel<3> kernel;
    with_element_bits(element_size, [&](auto bits) {
        using T = decltype(bits);
        kernel = elementwise_kernel<T, std::uint8_t, T, T>(
            [](std::uint8_t c, T x, T y) { return c != 0 ? x : y; }, uniform);
    });
    return kernel;
}

}  // namespace

void state_where(router& r) {
    r.state<op::where>(
        [](const op::where&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::where&, const build_context& b) -> std::unique_ptr<step> {
            const node_view& v = b.node;
            const std::size_t element_size = size_of(v.out[0].type());
            return std::make_unique<broadcast_step<3>>(
                v, b.ctx, std::array<int, 3>{v.n.inputs[0], v.n.inputs[1], v.n.inputs[2]},
                std::array<tensor_desc, 3>{v.in[0], v.in[1], v.in[2]},
                [element_size](const std::array<bool, 3>& u) {
                    return where_kernel(element_size, u);
                });
        });
}

}  // namespace tessera::plugins::cpu
