// ops/unary.cpp: every element-wise unary kind (log, exp, sqrt, rsqrt, neg, abs, erf, floor,
// ceil, round, sign, reciprocal, the trigonometric and hyperbolic functions) on row-major
// tensors of every dtype, in the plugin's own loops split over the runtime's threads
// (typed_broadcast.hpp): f32 in the vectorised f32 loops (elementwise_math.hpp), f64 in double,
// neg, abs, sign and the roundings on plain integers in integers (saturating), everything else
// per element in double and stored as the reference stores it (element_values.hpp).
#include <tessera/numeric/convert.hpp>

#include "../element_values.hpp"
#include "../elementwise_math.hpp"
#include "../typed_broadcast.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Per element: the real value in double, the kind in double, stored like the reference.
run_kernel<1> real_unary_kernel(unary_kind kind, double epsilon, const tensor_desc& in,
                                const tensor_desc& out, bool uniform) {
    const dtype from = in.type(), to = out.type();
    const quantization qin = in.quant(), qout = out.quant();
    const std::int64_t in_step = uniform ? 0 : static_cast<std::int64_t>(size_of(from));
    const auto out_step = static_cast<std::int64_t>(size_of(to));
    run_kernel<1> kernel;
    with_unary_in_double(kind, epsilon, [&](auto f) {
        kernel = [=](char* dst, const std::array<const char*, 1>& src, std::int64_t len) {
            for (std::int64_t i = 0; i < len; ++i) {
                const double x = numeric::load_real(from, qin, src[0] + i * in_step);
                store_real_value(to, qout, dst + i * out_step, f(x));
            }
        };
    });
    return kernel;
}

run_kernel<1> unary_kernel(const op::unary& u, const tensor_desc& in, const tensor_desc& out,
                           const std::array<bool, 1>& uniform) {
    const unary_kind kind = u.kind();
    const float epsilon = u.epsilon();
    const dtype type = in.type();
    if (type == dtype::f32 && !uniform[0]) {
        return [kind, epsilon](char* dst, const std::array<const char*, 1>& src, std::int64_t len) {
            apply_unary(kind, epsilon, reinterpret_cast<const float*>(src[0]),
                        reinterpret_cast<float*>(dst), len);
        };
    }
    run_kernel<1> kernel;
    if (type == dtype::f64) {
        with_unary_in_double(kind, epsilon, [&](auto f) {
            kernel = elementwise_kernel<double, double>(f, uniform);
        });
    } else if (integer_unary(kind) && is_integer(type) && plain_values(in)) {
        with_plain_type(type, [&](auto zero) {
            using T = decltype(zero);
            if constexpr (std::is_integral_v<T>) {
                with_integer_unary<T>(
                    kind, [&](auto f) { kernel = elementwise_kernel<T, T>(f, uniform); });
            }
        });
    }
    if (!kernel) kernel = real_unary_kernel(kind, epsilon, in, out, uniform[0]);
    return kernel;
}

}  // namespace

void state_unary(router& r) {
    r.state<op::unary>(
        [](const op::unary&, const query_view& v) {
            return answer(native(route::native_plain), v.in, v.out);
        },
        [](const op::unary& u, const build_context& b) -> std::unique_ptr<step> {
            const node_view& v = b.node;
            return std::make_unique<broadcast_step<1>>(
                v, b.ctx, std::array<int, 1>{v.n.inputs[0]}, std::array<tensor_desc, 1>{v.in[0]},
                [&](const std::array<bool, 1>& uniform) {
                    return unary_kernel(u, v.in[0], v.out[0], uniform);
                });
        });
}

}  // namespace tessera::plugins::cpu
