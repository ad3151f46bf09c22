// ops/binary_typed.cpp: op::binary in the plugin's typed broadcast loops (typed_broadcast.hpp)
// for the forms the runtime lacks. Unscaled plain operands compute in their own type: f32 and
// f64 in floating point (min and max keep NaN), integers exactly with the op's rounding and
// overflow policies (element_values.hpp). Scaled forms, the gamma * C term, integer pow and
// quantised or 16-bit float operands compute each element in extended precision and store it
// as the reference does.
#include "binary_typed.hpp"

#include <tessera/reference/elementwise.hpp>

#include "../element_values.hpp"
#include "../typed_broadcast.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

/// Calls body(f) with f(x, y) the floating binary kind `k` on T (pow through long double).
template <typename T, typename Body>
void with_floating_binary(binary_kind k, Body&& body) {
    switch (k) {
        case binary_kind::add:
            return body([](T x, T y) { return x + y; });
        case binary_kind::sub:
            return body([](T x, T y) { return x - y; });
        case binary_kind::mul:
            return body([](T x, T y) { return x * y; });
        case binary_kind::div:
            return body([](T x, T y) { return x / y; });
        case binary_kind::min:
            return body([](T x, T y) { return x != x || y != y ? x + y : (y < x ? y : x); });
        case binary_kind::max:
            return body([](T x, T y) { return x != x || y != y ? x + y : (y > x ? y : x); });
        case binary_kind::pow:
            return body([](T x, T y) {
                return static_cast<T>(
                    std::pow(static_cast<long double>(x), static_cast<long double>(y)));
            });
    }
}

/// One operand of the extended-precision form: its dtype, quantisation and byte step per
/// element of a run.
struct real_operand {
    dtype type;
    quantization quant;
    std::int64_t step;
    long double scale;
};

/// (alpha A) op (beta B) [+ gamma C] per element in extended precision, stored like the
/// reference stores it.
template <std::size_t N>
run_kernel<N> real_binary_kernel(const op::binary& o, const std::array<tensor_desc, N>& in,
                                 const tensor_desc& out, const std::array<bool, N>& uniform) {
    std::array<real_operand, N> ops{};
    const float scales[] = {o.alpha(), o.beta(), o.gamma()};
    for (std::size_t k = 0; k < N; ++k) {
        ops[k] = {in[k].type(), in[k].quant(),
                  uniform[k] ? 0 : static_cast<std::int64_t>(size_of(in[k].type())),
                  static_cast<long double>(scales[k])};
    }
    const binary_kind kind = o.kind();
    const rounding_policy rounding = o.rounding();
    const overflow_policy overflow = o.overflow();
    const dtype type = out.type();
    const quantization quant = out.quant();
    const bool integer = is_integer(type);
    const auto out_step = static_cast<std::int64_t>(size_of(type));
    return [=](char* dst, const std::array<const char*, N>& src, std::int64_t len) {
        for (std::int64_t i = 0; i < len; ++i) {
            std::array<long double, N> v{};
            for (std::size_t k = 0; k < N; ++k)
                v[k] = numeric::load_real_wide(ops[k].type, ops[k].quant, src[k] + i * ops[k].step);
            long double r =
                reference::binary_apply(kind, ops[0].scale * v[0], ops[1].scale * v[1], integer);
            if constexpr (N == 3) r += ops[2].scale * v[2];
            store_real_value(type, quant, dst + i * out_step, r, rounding, overflow);
        }
    };
}

/// Unscaled A op B on plain values of one type, in that type; empty when the form needs the
/// extended-precision kernel (integer pow).
run_kernel<2> plain_binary_kernel(const op::binary& o, dtype type,
                                  const std::array<bool, 2>& uniform) {
    run_kernel<2> kernel;
    const binary_kind kind = o.kind();
    with_plain_type(type, [&](auto zero) {
        using T = decltype(zero);
        if constexpr (std::is_floating_point_v<T>) {
            with_floating_binary<T>(
                kind, [&](auto f) { kernel = elementwise_kernel<T, T, T>(f, uniform); });
        } else {
            if (kind == binary_kind::pow) return;
            with_integer_binary<T>(kind, o.rounding(), o.overflow(), [&](auto f) {
                kernel = elementwise_kernel<T, T, T>(f, uniform);
            });
        }
    });
    return kernel;
}

}  // namespace

bool runtime_binary_form(const op::binary& b, const descs& in) {
    return in.size() == 2 && all_f32(in) && b.alpha() == 1.0f && b.beta() == 1.0f && !b.uses_c();
}

std::unique_ptr<step> typed_binary_step(const op::binary& o, const build_context& b) {
    const node_view& v = b.node;
    const bool with_c = o.uses_c() && v.in.size() > 2;
    if (with_c) {
        const std::array<tensor_desc, 3> in{v.in[0], v.in[1], v.in[2]};
        return std::make_unique<broadcast_step<3>>(
            v, b.ctx, std::array<int, 3>{v.n.inputs[0], v.n.inputs[1], v.n.inputs[2]}, in,
            [&](const std::array<bool, 3>& u) {
                return real_binary_kernel<3>(o, in, v.out[0], u);
            });
    }
    const std::array<tensor_desc, 2> in{v.in[0], v.in[1]};
    const bool plain =
        o.alpha() == 1.0f && o.beta() == 1.0f && plain_values(in[0]) && plain_values(in[1]);
    return std::make_unique<broadcast_step<2>>(
        v, b.ctx, std::array<int, 2>{v.n.inputs[0], v.n.inputs[1]}, in,
        [&](const std::array<bool, 2>& u) {
            run_kernel<2> kernel;
            if (plain) kernel = plain_binary_kernel(o, in[0].type(), u);
            if (!kernel) kernel = real_binary_kernel<2>(o, in, v.out[0], u);
            return kernel;
        });
}

}  // namespace tessera::plugins::cpu
