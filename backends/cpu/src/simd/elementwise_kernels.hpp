// Element-wise xsimd kernels: activations, binary operators, per-channel scale/shift on the
// blocked layout, softmax rows. Tails go through a vector-sized buffer so every element is computed
// by the same instructions wherever a thread split falls.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <type_traits>

#include <xsimd/xsimd.hpp>

#include "simd/kernel_table.hpp"

namespace tessera::cpu::simd {

/// max(x, lo) that keeps NaN (xsimd::max follows the ISA, e.g. x86 maxps returns the second
/// operand when either is NaN, which would turn relu(NaN) into 0).
template <class Arch>
inline xsimd::batch<float, Arch> at_least(xsimd::batch<float, Arch> x,
                                          xsimd::batch<float, Arch> lo) {
    return xsimd::select(x < lo, lo, x);
}

/// min(x, hi) that keeps NaN.
template <class Arch>
inline xsimd::batch<float, Arch> at_most(xsimd::batch<float, Arch> x,
                                         xsimd::batch<float, Arch> hi) {
    return xsimd::select(x > hi, hi, x);
}

template <class Arch, ActivationKind K>
inline xsimd::batch<float, Arch> activate(xsimd::batch<float, Arch> x, float a, float b) {
    using V = xsimd::batch<float, Arch>;
    const V zero(0.0f), one(1.0f);
    if constexpr (K == ActivationKind::identity) {
        return x;
    } else if constexpr (K == ActivationKind::relu) {
        return at_least(x, zero);
    } else if constexpr (K == ActivationKind::relu6) {
        return at_most(at_least(x, zero), V(6.0f));
    } else if constexpr (K == ActivationKind::bounded_relu) {
        return at_most(at_least(x, zero), V(a));
    } else if constexpr (K == ActivationKind::lu_bounded_relu) {
        return at_most(at_least(x, V(b)), V(a));
    } else if constexpr (K == ActivationKind::leaky_relu) {
        return xsimd::select(x > zero, x, x * V(a));
    } else if constexpr (K == ActivationKind::elu) {
        return xsimd::select(x > zero, x, V(a) * xsimd::expm1(x));
    } else if constexpr (K == ActivationKind::tanh) {
        return V(a) * xsimd::tanh(V(b) * x);
    } else if constexpr (K == ActivationKind::sigmoid) {
        return one / (one + xsimd::exp(-x));
    } else if constexpr (K == ActivationKind::soft_relu) {
        return xsimd::select(x > V(20.0f), x, xsimd::log1p(xsimd::exp(x)));
    } else if constexpr (K == ActivationKind::abs) {
        return xsimd::abs(x);
    } else if constexpr (K == ActivationKind::square) {
        return x * x;
    } else if constexpr (K == ActivationKind::sqrt) {
        return xsimd::sqrt(x);
    } else if constexpr (K == ActivationKind::linear) {
        return xsimd::fma(V(a), x, V(b));
    } else if constexpr (K == ActivationKind::gelu) {
        return V(0.5f) * x * (one + xsimd::erf(x * V(0.70710678118654752f)));
    } else if constexpr (K == ActivationKind::hard_sigmoid) {
        return at_most(at_least(xsimd::fma(V(a), x, V(b)), zero), one);
    } else if constexpr (K == ActivationKind::hard_swish) {
        return x * at_most(at_least(xsimd::fma(V(a), x, V(b)), zero), one);
    } else if constexpr (K == ActivationKind::mish) {
        const V softplus = xsimd::select(x > V(20.0f), x, xsimd::log1p(xsimd::exp(x)));
        return x * xsimd::tanh(softplus);
    } else if constexpr (K == ActivationKind::selu) {
        return xsimd::select(x > zero, V(b) * x, V(b * a) * xsimd::expm1(x));
    } else if constexpr (K == ActivationKind::thresholded_relu) {
        return xsimd::select(x <= V(a), zero, x);  // NaN stays NaN
    } else if constexpr (K == ActivationKind::softsign) {
        return x / (one + xsimd::abs(x));
    } else {  // clip
        return at_most(at_least(x, V(a)), V(b));
    }
}

/// Whether activate_registers applies `kind` (the piecewise-linear kinds, a few instructions per
/// vector); the others run as a pass over the stored row (activation).
constexpr bool activation_in_registers(ActivationKind kind) {
    switch (kind) {
        case ActivationKind::relu:
        case ActivationKind::relu6:
        case ActivationKind::bounded_relu:
        case ActivationKind::lu_bounded_relu:
        case ActivationKind::leaky_relu:
        case ActivationKind::clip:
        case ActivationKind::hard_sigmoid:
        case ActivationKind::hard_swish:
            return true;
        default:
            return false;
    }
}

/// Calls f(std::integral_constant<ActivationKind, kind>{}): a run-time kind as a compile-time one.
template <class F>
inline void with_activation_kind(ActivationKind kind, F&& f) {
    using K = ActivationKind;
    switch (kind) {
        case K::identity:
            return f(std::integral_constant<K, K::identity>{});
        case K::relu:
            return f(std::integral_constant<K, K::relu>{});
        case K::relu6:
            return f(std::integral_constant<K, K::relu6>{});
        case K::bounded_relu:
            return f(std::integral_constant<K, K::bounded_relu>{});
        case K::lu_bounded_relu:
            return f(std::integral_constant<K, K::lu_bounded_relu>{});
        case K::leaky_relu:
            return f(std::integral_constant<K, K::leaky_relu>{});
        case K::elu:
            return f(std::integral_constant<K, K::elu>{});
        case K::tanh:
            return f(std::integral_constant<K, K::tanh>{});
        case K::sigmoid:
            return f(std::integral_constant<K, K::sigmoid>{});
        case K::soft_relu:
            return f(std::integral_constant<K, K::soft_relu>{});
        case K::abs:
            return f(std::integral_constant<K, K::abs>{});
        case K::square:
            return f(std::integral_constant<K, K::square>{});
        case K::sqrt:
            return f(std::integral_constant<K, K::sqrt>{});
        case K::linear:
            return f(std::integral_constant<K, K::linear>{});
        case K::gelu:
            return f(std::integral_constant<K, K::gelu>{});
        case K::clip:
            return f(std::integral_constant<K, K::clip>{});
        case K::hard_sigmoid:
            return f(std::integral_constant<K, K::hard_sigmoid>{});
        case K::hard_swish:
            return f(std::integral_constant<K, K::hard_swish>{});
        case K::mish:
            return f(std::integral_constant<K, K::mish>{});
        case K::selu:
            return f(std::integral_constant<K, K::selu>{});
        case K::thresholded_relu:
            return f(std::integral_constant<K, K::thresholded_relu>{});
        case K::softsign:
            return f(std::integral_constant<K, K::softsign>{});
    }
}

/// v[i] = act(v[i]) for i < N, for a kind activation_in_registers takes (else v is unchanged):
/// a kernel's results before they are stored, with the same activate<> as the separate pass.
template <class Arch, int N>
inline void activate_registers(xsimd::batch<float, Arch> (&v)[N], const ActivationInfo& act) {
    with_activation_kind(act.kind, [&v, a = act.a, b = act.b](auto kind) {
        constexpr ActivationKind K = decltype(kind)::value;
        if constexpr (activation_in_registers(K)) {
#pragma GCC unroll 8
            for (int i = 0; i < N; ++i) v[i] = activate<Arch, K>(v[i], a, b);
        }
    });
}

/// Applies `op(batch) -> batch` to n contiguous floats.
template <class Arch, class Op>
inline void map_row(const float* s, float* d, int64_t n, Op op) {
    using V = xsimd::batch<float, Arch>;
    constexpr int64_t W = V::size;
    int64_t i = 0;
    for (; i + W <= n; i += W) op(V::load_unaligned(s + i)).store_unaligned(d + i);
    if (i < n) {
        alignas(64) float buf[W] = {};
        std::memcpy(buf, s + i, static_cast<std::size_t>(n - i) * sizeof(float));
        op(V::load_aligned(buf)).store_aligned(buf);
        std::memcpy(d + i, buf, static_cast<std::size_t>(n - i) * sizeof(float));
    }
}

template <class Arch, ActivationKind K>
void activation_loop(const float* s, float* d, int64_t n, float a, float b) {
    map_row<Arch>(s, d, n,
                  [a, b](xsimd::batch<float, Arch> x) { return activate<Arch, K>(x, a, b); });
}

template <class Arch>
void activation(const float* s, float* d, int64_t n, const ActivationInfo& act) {
    if (act.kind == ActivationKind::identity) {
        if (s != d) std::memmove(d, s, static_cast<std::size_t>(n) * sizeof(float));
        return;
    }
    with_activation_kind(act.kind, [&, a = act.a, b = act.b](auto kind) {
        activation_loop<Arch, decltype(kind)::value>(s, d, n, a, b);
    });
}

template <class Arch, BinaryOp Op>
inline xsimd::batch<float, Arch> binary_one(xsimd::batch<float, Arch> x,
                                            xsimd::batch<float, Arch> y) {
    if constexpr (Op == BinaryOp::add)
        return x + y;
    else if constexpr (Op == BinaryOp::sub)
        return x - y;
    else if constexpr (Op == BinaryOp::mul)
        return x * y;
    else if constexpr (Op == BinaryOp::div)
        return x / y;
    else if constexpr (Op == BinaryOp::min)
        return xsimd::min(x, y);
    else if constexpr (Op == BinaryOp::max)
        return xsimd::max(x, y);
    else if constexpr (Op == BinaryOp::pow)
        return xsimd::pow(x, y);
    else
        return (x - y) * (x - y);
}

template <class Arch, BinaryOp Op>
void binary_loop(const float* a, int64_t a_inc, const float* b, int64_t b_inc, float* d,
                 int64_t n) {
    using V = xsimd::batch<float, Arch>;
    constexpr int64_t W = V::size;
    if (a_inc == 0) {
        const V av(a[0]);
        map_row<Arch>(b, d, n, [av](V y) { return binary_one<Arch, Op>(av, y); });
    } else if (b_inc == 0) {
        const V bv(b[0]);
        map_row<Arch>(a, d, n, [bv](V x) { return binary_one<Arch, Op>(x, bv); });
    } else {
        int64_t i = 0;
        for (; i + W <= n; i += W)
            binary_one<Arch, Op>(V::load_unaligned(a + i), V::load_unaligned(b + i))
                .store_unaligned(d + i);
        if (i < n) {
            alignas(64) float x[W] = {}, y[W] = {};
            const std::size_t rest = static_cast<std::size_t>(n - i) * sizeof(float);
            std::memcpy(x, a + i, rest);
            std::memcpy(y, b + i, rest);
            binary_one<Arch, Op>(V::load_aligned(x), V::load_aligned(y)).store_aligned(x);
            std::memcpy(d + i, x, rest);
        }
    }
}

template <class Arch>
void binary(BinaryOp op, const float* a, int64_t a_inc, const float* b, int64_t b_inc, float* d,
            int64_t n) {
    switch (op) {
        case BinaryOp::add:
            return binary_loop<Arch, BinaryOp::add>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::sub:
            return binary_loop<Arch, BinaryOp::sub>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::mul:
            return binary_loop<Arch, BinaryOp::mul>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::div:
            return binary_loop<Arch, BinaryOp::div>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::min:
            return binary_loop<Arch, BinaryOp::min>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::max:
            return binary_loop<Arch, BinaryOp::max>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::pow:
            return binary_loop<Arch, BinaryOp::pow>(a, a_inc, b, b_inc, d, n);
        case BinaryOp::squared_diff:
            return binary_loop<Arch, BinaryOp::squared_diff>(a, a_inc, b, b_inc, d, n);
    }
}

template <class Arch>
void scale_shift_block(const float* s, float* d, int64_t pixels, const float* scale,
                       const float* shift, const ActivationInfo& act) {
    using V = xsimd::batch<float, Arch>;
    constexpr int NVEC = 16 / static_cast<int>(V::size);
    V sc[NVEC], sh[NVEC];
    for (int v = 0; v < NVEC; ++v) {
        sc[v] = V::load_unaligned(scale + v * V::size);
        sh[v] = V::load_unaligned(shift + v * V::size);
    }
    for (int64_t p = 0; p < pixels; ++p)
        for (int v = 0; v < NVEC; ++v) {
            const int64_t o = p * 16 + v * static_cast<int64_t>(V::size);
            xsimd::fma(V::load_unaligned(s + o), sc[v], sh[v]).store_unaligned(d + o);
        }
    if (act.enabled()) activation<Arch>(d, d, pixels * 16, act);
}

template <class Arch>
void softmax_row(const float* s, float* d, int64_t n, float beta, bool log) {
    using V = xsimd::batch<float, Arch>;
    constexpr int64_t W = V::size;
    float mx = -INFINITY;
    {
        V m(-INFINITY);
        int64_t i = 0;
        for (; i + W <= n; i += W) m = xsimd::max(m, V::load_unaligned(s + i));
        alignas(64) float lanes[W];
        m.store_aligned(lanes);
        for (int64_t j = 0; j < W; ++j) mx = std::max(mx, lanes[j]);
        for (; i < n; ++i) mx = std::max(mx, s[i]);
    }
    const V vb(beta), vmax(mx);
    // d = exp(beta * (x - max)); sum
    V acc(0.0f);
    int64_t i = 0;
    for (; i + W <= n; i += W) {
        const V e = xsimd::exp(vb * (V::load_unaligned(s + i) - vmax));
        acc += e;
        e.store_unaligned(d + i);
    }
    float sum = xsimd::hadd(acc);
    if (i < n) {
        alignas(64) float buf[W];
        for (int64_t j = 0; j < W; ++j) buf[j] = i + j < n ? s[i + j] : mx;
        const V e = xsimd::exp(vb * (V::load_aligned(buf) - vmax));
        e.store_aligned(buf);
        for (int64_t j = 0; i + j < n; ++j) {
            d[i + j] = buf[j];
            sum += buf[j];
        }
    }
    if (log) {
        const float lsum = std::log(sum);
        map_row<Arch>(s, d, n, [vb, vmax, lsum](V x) { return vb * (x - vmax) - V(lsum); });
    } else {
        const V inv(1.0f / sum);
        map_row<Arch>(d, d, n, [inv](V x) { return x * inv; });
    }
}

}  // namespace tessera::cpu::simd
