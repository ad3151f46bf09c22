// elementwise_math.cpp: the array loops of elementwise_math.hpp. The plugin is compiled for the
// baseline ISA; on x86-64 these loops are also compiled for AVX2 and AVX-512 and the loader
// picks the widest the CPU has (GCC/Clang function multi-versioning).
#include "elementwise_math.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TESSERA_CPU_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TESSERA_CPU_VECTOR_CLONES
#endif
// The loop lambdas inside them are inlined into each clone (an out-of-line lambda would be
// compiled once, for the baseline).
#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_CPU_INLINE_LOOP __attribute__((always_inline))
#else
#define TESSERA_CPU_INLINE_LOOP
#endif

namespace tessera::plugins::cpu {

TESSERA_CPU_VECTOR_CLONES void apply_unary(unary_kind k, float epsilon, const float* src,
                                           float* dst, std::int64_t count) {
    const auto each = [&](auto f) TESSERA_CPU_INLINE_LOOP {
        for (std::int64_t i = 0; i < count; ++i) dst[i] = f(src[i]);
    };
    switch (k) {
        case unary_kind::erf:
            return each([](float x) { return fast_erf(x); });
        case unary_kind::sqrt:
            return each([](float x) { return std::sqrt(x); });
        case unary_kind::rsqrt:
            return each([epsilon](float x) { return 1.0f / std::sqrt(x + epsilon); });
        case unary_kind::neg:
            return each([](float x) { return -x; });
        case unary_kind::abs:
            return each([](float x) { return std::fabs(x); });
        case unary_kind::reciprocal:
            return each([](float x) { return 1.0f / x; });
        case unary_kind::log:
            return each([](float x) { return std::log(x); });
        case unary_kind::exp:
            return each([](float x) { return std::exp(x); });
        case unary_kind::floor:
            return each([](float x) { return std::floor(x); });
        case unary_kind::ceil:
            return each([](float x) { return std::ceil(x); });
        case unary_kind::round:  // half to even (the default rounding mode), as the reference
            return each([](float x) { return std::nearbyint(x); });
        case unary_kind::sign:
            return each([](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); });
        case unary_kind::sin:
            return each([](float x) { return std::sin(x); });
        case unary_kind::cos:
            return each([](float x) { return std::cos(x); });
        case unary_kind::tan:
            return each([](float x) { return std::tan(x); });
        case unary_kind::asin:
            return each([](float x) { return std::asin(x); });
        case unary_kind::acos:
            return each([](float x) { return std::acos(x); });
        case unary_kind::atan:
            return each([](float x) { return std::atan(x); });
        case unary_kind::sinh:
            return each([](float x) { return std::sinh(x); });
        case unary_kind::cosh:
            return each([](float x) { return std::cosh(x); });
        case unary_kind::asinh:
            return each([](float x) { return std::asinh(x); });
        case unary_kind::acosh:
            return each([](float x) { return std::acosh(x); });
        case unary_kind::atanh:
            return each([](float x) { return std::atanh(x); });
    }
}

TESSERA_CPU_VECTOR_CLONES void apply_binary(binary_kind k, array_operand a, array_operand b,
                                            float* dst, std::int64_t count) {
    const auto each = [&](auto f) TESSERA_CPU_INLINE_LOOP {
        if (a.uniform && b.uniform) {
            const float v = f(a.data[0], b.data[0]);
            for (std::int64_t i = 0; i < count; ++i) dst[i] = v;
        } else if (b.uniform) {
            const float y = b.data[0];
            for (std::int64_t i = 0; i < count; ++i) dst[i] = f(a.data[i], y);
        } else if (a.uniform) {
            const float x = a.data[0];
            for (std::int64_t i = 0; i < count; ++i) dst[i] = f(x, b.data[i]);
        } else {
            for (std::int64_t i = 0; i < count; ++i) dst[i] = f(a.data[i], b.data[i]);
        }
    };
    if (k == binary_kind::pow && b.uniform && b.data[0] == 2.0f)
        return each([](float x, float) { return x * x; });
    with_binary_kind(k, each);
}

TESSERA_CPU_VECTOR_CLONES void apply_channel_block(binary_kind k, const float* x, const float* s,
                                                   bool scales_first, float* dst,
                                                   std::int64_t pixels) {
    constexpr std::int64_t lanes = 16;
    float scale[lanes];
    std::copy_n(s, lanes, scale);
    with_binary_kind(k, [&](auto f) TESSERA_CPU_INLINE_LOOP {
        if (scales_first)
            for (std::int64_t p = 0; p < pixels; ++p, x += lanes, dst += lanes)
                for (std::int64_t l = 0; l < lanes; ++l) dst[l] = f(scale[l], x[l]);
        else
            for (std::int64_t p = 0; p < pixels; ++p, x += lanes, dst += lanes)
                for (std::int64_t l = 0; l < lanes; ++l) dst[l] = f(x[l], scale[l]);
    });
}

}  // namespace tessera::plugins::cpu

#undef TESSERA_CPU_VECTOR_CLONES
#undef TESSERA_CPU_INLINE_LOOP
