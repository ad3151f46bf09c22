// elementwise_math.hpp: the element-wise arithmetic of the cpu plugin's own loops (unary ops,
// fused element-wise chains, per-channel broadcasts in nchw16c) over f32 arrays: which unary
// kinds join fused chains, erf as a rational approximation, the binary kinds, and the array loops
// (elementwise_math.cpp: compiled for AVX-512, AVX2 and the baseline, chosen at load time).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <tessera/ops/kinds.hpp>

namespace tessera::plugins::cpu {

/// erf(x) as x P(x²) / Q(x²) on x clamped to [-4, 4] (the f32 approximation of Eigen and XLA):
/// within 4e-7 of erf, NaN kept (the clamp keeps it), ±1 at the infinities.
inline float fast_erf(float v) {
    const float x = std::min(std::max(v, -4.0f), 4.0f);
    const float x2 = x * x;
    float p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
    p = x2 * p + -2.10102402082508e-06f;
    p = x2 * p + -5.69250639462346e-05f;
    p = x2 * p + -7.34990630326855e-04f;
    p = x2 * p + -2.95459980854025e-03f;
    p = x2 * p + -1.60960333262415e-02f;
    float q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
    q = x2 * q + -1.68282697438203e-03f;
    q = x2 * q + -7.37332916720468e-03f;
    q = x2 * q + -1.42647390514189e-02f;
    return x * p / q;
}

/// Whether unary kind `k` joins fused element-wise chains (elementwise_chain.hpp); apply_unary
/// computes every kind.
constexpr bool native_unary(unary_kind k) {
    return k == unary_kind::erf || k == unary_kind::sqrt || k == unary_kind::rsqrt ||
           k == unary_kind::neg || k == unary_kind::abs || k == unary_kind::reciprocal;
}

/// dst[i] = k(src[i]) in f32 (`epsilon`: rsqrt's 1 / sqrt(x + epsilon)); round is half to
/// even and sign keeps NaN and signed zeros, as the reference.
void apply_unary(unary_kind k, float epsilon, const float* src, float* dst, std::int64_t count);

/// One operand of an element-wise binary loop: an array, or one value for every element.
struct array_operand {
    const float* data = nullptr;
    bool uniform = false;  ///< data[0] for every element
};

/// Calls `body(f)` with f(x, y) the f32 binary kind `k`: add, sub, mul, div, min, max (NaN if
/// either is NaN) and pow (in double, as the reference computes it). Always inlined, so that
/// the loops of `body` are compiled for the instruction set of the function calling it (each
/// clone of elementwise_math.cpp's loops), not once for the baseline.
template <typename Body>
[[gnu::always_inline]] inline void with_binary_kind(binary_kind k, Body&& body) {
    switch (k) {
        case binary_kind::add:
            return body([](float x, float y) { return x + y; });
        case binary_kind::sub:
            return body([](float x, float y) { return x - y; });
        case binary_kind::mul:
            return body([](float x, float y) { return x * y; });
        case binary_kind::div:
            return body([](float x, float y) { return x / y; });
        case binary_kind::min:
            return body([](float x, float y) {
                return std::isnan(x) || std::isnan(y) ? x + y : (y < x ? y : x);  // NaN kept
            });
        case binary_kind::max:
            return body([](float x, float y) {
                return std::isnan(x) || std::isnan(y) ? x + y : (y > x ? y : x);
            });
        case binary_kind::pow:
            return body([](float x, float y) {
                return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
            });
    }
}

/// dst[i] = a[i] k b[i] (with_binary_kind); a uniform exponent 2 of pow as a product (what
/// std::pow gives for it).
void apply_binary(binary_kind k, array_operand a, array_operand b, float* dst, std::int64_t count);

/// Over `pixels` pixels of 16 channel lanes each (nchw16c): dst[p][l] = x[p][l] k s[l], or
/// s[l] k x[p][l] when `scales_first` (a per-channel operand broadcast over a block's pixels).
void apply_channel_block(binary_kind k, const float* x, const float* s, bool scales_first,
                         float* dst, std::int64_t pixels);

}  // namespace tessera::plugins::cpu
