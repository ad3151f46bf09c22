// ops/compare.cpp: element-wise equal, less, less_equal, greater and greater_equal of two
// tensors of one dtype with numpy broadcasting, into bool, in the plugin's own typed loops
// (typed_broadcast.hpp). Plain values compare as their C++ type (exact: NaN compares false,
// i64 and u64 without rounding); quantised operands and the 16-bit float formats compare their
// real values in extended precision, as the reference does.
#include <tessera/numeric/convert.hpp>

#include "../typed_broadcast.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Calls body(f) with f(x, y) the comparison `k`.
template <typename Body>
void with_compare_kind_fn(compare_kind k, Body&& body) {
    switch (k) {
        case compare_kind::equal:
            return body([](auto x, auto y) { return x == y; });
        case compare_kind::less:
            return body([](auto x, auto y) { return x < y; });
        case compare_kind::less_equal:
            return body([](auto x, auto y) { return x <= y; });
        case compare_kind::greater:
            return body([](auto x, auto y) { return x > y; });
        case compare_kind::greater_equal:
            return body([](auto x, auto y) { return x >= y; });
    }
}

bool compare_same_quantisation(const tensor_desc& a, const tensor_desc& b) {
    const quantization qa = a.quant(), qb = b.quant();
    return qa.scale == qb.scale && qa.zero_point == qb.zero_point &&
           qa.fixed_point_pos == qb.fixed_point_pos;
}

/// Operands whose real values are read element by element: the reference's comparison.
run_kernel<2> compare_real_value_kernel(compare_kind k, const tensor_desc& a, const tensor_desc& b,
                                        const std::array<bool, 2>& uniform) {
    const dtype ta = a.type(), tb = b.type();
    const quantization qa = a.quant(), qb = b.quant();
    const std::int64_t step_a = uniform[0] ? 0 : static_cast<std::int64_t>(size_of(ta));
    const std::int64_t step_b = uniform[1] ? 0 : static_cast<std::int64_t>(size_of(tb));
    run_kernel<2> kernel;
    with_compare_kind_fn(k, [&](auto f) {
        kernel = [=](char* out, const std::array<const char*, 2>& in, std::int64_t len) {
            for (std::int64_t i = 0; i < len; ++i) {
                const long double x = numeric::load_real_wide(ta, qa, in[0] + i * step_a);
                const long double y = numeric::load_real_wide(tb, qb, in[1] + i * step_b);
                out[i] = f(x, y) ? 1 : 0;
            }
        };
    });
    return kernel;
}

run_kernel<2> compare_kernel(compare_kind k, const tensor_desc& a, const tensor_desc& b,
                             const std::array<bool, 2>& uniform) {
    if (a.type() == dtype::boolean) {  // equality only (validated): of truth values
        return elementwise_kernel<std::uint8_t, std::uint8_t, std::uint8_t>(
            [](std::uint8_t x, std::uint8_t y) -> std::uint8_t { return (x != 0) == (y != 0); },
            uniform);
    }
    if (!plain_values(a) || !plain_values(b) || !compare_same_quantisation(a, b))
        return compare_real_value_kernel(k, a, b, uniform);
    run_kernel<2> kernel;
    with_plain_type(a.type(), [&](auto type) {
        using T = decltype(type);
        with_compare_kind_fn(k, [&](auto f) {
            kernel = elementwise_kernel<std::uint8_t, T, T>(
                [f](T x, T y) -> std::uint8_t { return f(x, y) ? 1 : 0; }, uniform);
        });
    });
    return kernel;
}

}  // namespace

void state_compare(router& r) {
    r.state<op::compare>(
        [](const op::compare&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::compare& o, const build_context& b) -> std::unique_ptr<step> {
            const descs& in = b.node.in;
            const compare_kind kind = o.kind();
            return std::make_unique<broadcast_step<2>>(
                b.node, b.ctx, std::array<int, 2>{b.node.n.inputs[0], b.node.n.inputs[1]},
                std::array<tensor_desc, 2>{in[0], in[1]}, [&](const std::array<bool, 2>& u) {
                    return compare_kernel(kind, in[0], in[1], u);
                });
        });
}

}  // namespace tessera::plugins::cpu
