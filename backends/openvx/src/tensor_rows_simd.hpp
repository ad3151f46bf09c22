// tensor_rows_simd.hpp: the int16 row kernels of the pooling layer and the element-wise tensor
// nodes, written once over xsimd batches and instantiated by each q78_arch_*.cpp for its
// instruction set (next to q78_simd.hpp). All of them are exact integer operations, so they equal
// the scalar kernels bit for bit:
// - add / subtract: int16 lanes, wrapping (+, -) or saturating (sadd, ssub);
// - multiply by a power-of-two scale: the exact product x * y (|x * y| <= 2^30) in int32 lanes,
//   shifted right by 0..30 with rounding toward zero or to nearest even, narrowed to int16; by
//   another scale (an odd mantissa m of up to 24 bits): x * y * m exactly in int64 lanes,
//   shifted by 0..62 the same way;
// - pooling: the maximum or the int32 sum of a window, first down the window's rows, then along
//   them.
// Included only by the q78_arch_*.cpp files; everything has internal linkage.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdint>

#include "q78_kernels.hpp"

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#if defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace openvx::q78 {
namespace {

// int16 <-> int32 lane conversions (xsimd 8 converts through memory).
#if defined(__AVX512BW__)
/// 16 int16 values sign-extended to an int32 batch.
inline xsimd::batch<std::int32_t, xsimd::avx512bw> load_widened(
    const std::int16_t* p, xsimd::batch<std::int32_t, xsimd::avx512bw>*) {
    return _mm512_cvtepi16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}
/// An int32 batch whose lanes are already in the int16 range, stored as int16 values.
inline void store_narrowed(const xsimd::batch<std::int32_t, xsimd::avx512bw>& v, std::int16_t* p) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi32_epi16(v));
}
#endif
#if defined(__AVX2__)
inline xsimd::batch<std::int32_t, xsimd::avx2> load_widened(
    const std::int16_t* p, xsimd::batch<std::int32_t, xsimd::avx2>*) {
    return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline void store_narrowed(const xsimd::batch<std::int32_t, xsimd::avx2>& v, std::int16_t* p) {
    // The lanes are in range, so the saturating pack is exact; lanes 0..3 and 8..11 hold them.
    const __m256i packed = _mm256_packs_epi32(v, v);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p),
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(packed, 0x08)));
}
#endif
#if defined(__ARM_NEON) && defined(__aarch64__)
inline xsimd::batch<std::int32_t, xsimd::neon64> load_widened(
    const std::int16_t* p, xsimd::batch<std::int32_t, xsimd::neon64>*) {
    return vmovl_s16(vld1_s16(p));
}
inline void store_narrowed(const xsimd::batch<std::int32_t, xsimd::neon64>& v, std::int16_t* p) {
    vst1_s16(p, vmovn_s32(v));
}
#endif

// int16 <-> int64 lane conversions for the multiply by a scale that is not a power of two.
#if defined(__AVX512BW__)
inline xsimd::batch<std::int64_t, xsimd::avx512bw> load_widened(
    const std::int16_t* p, xsimd::batch<std::int64_t, xsimd::avx512bw>*) {
    return _mm512_cvtepi16_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline void store_narrowed(const xsimd::batch<std::int64_t, xsimd::avx512bw>& v, std::int16_t* p) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi64_epi16(v));
}
#endif
#if defined(__AVX2__)
inline xsimd::batch<std::int64_t, xsimd::avx2> load_widened(
    const std::int16_t* p, xsimd::batch<std::int64_t, xsimd::avx2>*) {
    return _mm256_cvtepi16_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
#endif
#if defined(__ARM_NEON) && defined(__aarch64__)
inline xsimd::batch<std::int64_t, xsimd::neon64> load_widened(
    const std::int16_t* p, xsimd::batch<std::int64_t, xsimd::neon64>*) {
    const std::int64_t values[2] = {p[0], p[1]};
    return vld1q_s64(values);
}
#endif
/// Lanes already in the int16 range stored as int16 values (where no single instruction does).
template <class B>
inline void store_narrowed(const B& v, std::int16_t* p) {
    alignas(64) typename B::value_type lanes[B::size];
    v.store_aligned(lanes);
    for (std::size_t i = 0; i < B::size; ++i) p[i] = static_cast<std::int16_t>(lanes[i]);
}

/// A batch of a row: consecutive values, or one value repeated (step 0: a broadcast operand).
template <class B, class T>
inline B row_batch(const T* p, std::size_t step, std::size_t i) {
    return step == 0 ? B(p[0]) : B::load_unaligned(p + i);
}

/// add_row_fn: out[i] = a[i * a_step] +- b[i * b_step], wrapped or saturated to int16.
template <class Arch>
void add_row(const std::int16_t* a, std::size_t a_step, const std::int16_t* b, std::size_t b_step,
             std::size_t count, bool subtract, bool saturate, std::int16_t* out) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    std::size_t i = 0;
    for (; i + i16::size <= count; i += i16::size) {
        const i16 x = row_batch<i16>(a, a_step, i), y = row_batch<i16>(b, b_step, i);
        i16 r;
        if (saturate) {
            r = subtract ? xsimd::ssub(x, y) : xsimd::sadd(x, y);
        } else {
            r = subtract ? x - y : x + y;
        }
        r.store_unaligned(out + i);
    }
    for (; i < count; ++i) {
        const std::int32_t x = a[i * a_step], y = b[i * b_step];
        const std::int32_t r = subtract ? x - y : x + y;
        out[i] = saturate ? static_cast<std::int16_t>(r < -32768 ? -32768 : (r > 32767 ? 32767 : r))
                          : static_cast<std::int16_t>(static_cast<std::uint16_t>(r));
    }
}

/// round(p / 2^shift) with the rounding (shift 0 .. lane bits - 2; |p| < 2^(lane bits - 2)),
/// narrowed to int16 (int32 or int64 lanes).
template <class B>
inline B round_narrow(const B& p, int shift, bool to_zero, bool saturate) {
    using T = typename B::value_type;
    constexpr int bits = static_cast<int>(sizeof(T) * 8);
    B q = p;
    if (shift > 0) {
        const B mask(static_cast<T>((T{1} << shift) - 1));
        if (to_zero) {
            // Negative values round up: add 2^shift - 1 before the floor shift.
            q = (p + ((p >> (bits - 1)) & mask)) >> shift;
        } else {
            const B floor_q = p >> shift;
            const B rest = p & mask;
            const B half(static_cast<T>(T{1} << (shift - 1)));
            const B one(1);
            const auto up = (rest > half) | ((rest == half) & ((floor_q & one) == one));
            q = xsimd::select(up, floor_q + one, floor_q);
        }
    }
    if (saturate) return xsimd::min(xsimd::max(q, B(T{-32768})), B(T{32767}));
    return (q << (bits - 16)) >> (bits - 16);  // two's complement wrap to 16 bits
}

/// mul_row_fn: out[i] = round(a[i * a_step] * b[i * b_step] / 2^shift) narrowed to int16.
template <class Arch>
void mul_row(const std::int16_t* a, std::size_t a_step, const std::int16_t* b, std::size_t b_step,
             std::size_t count, int shift, bool to_zero, bool saturate, std::int16_t* out) {
    using i32 = xsimd::batch<std::int32_t, Arch>;
    std::size_t i = 0;
    for (; i + i32::size <= count; i += i32::size) {
        const i32 x = a_step == 0 ? i32(a[0]) : load_widened(a + i, static_cast<i32*>(nullptr));
        const i32 y = b_step == 0 ? i32(b[0]) : load_widened(b + i, static_cast<i32*>(nullptr));
        store_narrowed(round_narrow(x * y, shift, to_zero, saturate), out + i);
    }
    for (; i < count; ++i) {
        const std::int32_t p = std::int32_t{a[i * a_step]} * b[i * b_step];
        alignas(64) std::int32_t lanes[i32::size] = {p};
        round_narrow(i32::load_aligned(lanes), shift, to_zero, saturate).store_aligned(lanes);
        out[i] = static_cast<std::int16_t>(lanes[0]);
    }
}

/// row_kernels::multiply_scaled: out[i] = round(a[i a_step] * b[i b_step] * mantissa /
/// 2^shift) narrowed to int16, in int64 lanes (|x * y * mantissa| <= 2^30 * 2^24 < 2^62).
template <class Arch>
void multiply_scaled_row(const std::int16_t* a, std::size_t a_step, const std::int16_t* b,
                         std::size_t b_step, std::size_t count, std::int32_t mantissa, int shift,
                         bool to_zero, bool saturate, std::int16_t* out) {
    using i64 = xsimd::batch<std::int64_t, Arch>;
    const i64 m(std::int64_t{mantissa});
    std::size_t i = 0;
    for (; i + i64::size <= count; i += i64::size) {
        const i64 x =
            a_step == 0 ? i64(std::int64_t{a[0]}) : load_widened(a + i, static_cast<i64*>(nullptr));
        const i64 y =
            b_step == 0 ? i64(std::int64_t{b[0]}) : load_widened(b + i, static_cast<i64*>(nullptr));
        store_narrowed(round_narrow(x * y * m, shift, to_zero, saturate), out + i);
    }
    for (; i < count; ++i) {
        const std::int64_t p = std::int64_t{a[i * a_step]} * b[i * b_step] * mantissa;
        alignas(64) std::int64_t lanes[i64::size] = {p};
        round_narrow(i64::load_aligned(lanes), shift, to_zero, saturate).store_aligned(lanes);
        out[i] = static_cast<std::int16_t>(lanes[0]);
    }
}

// The pooling row kernels end a row with one more whole vector, overlapping the previous one,
// where the row holds one (out never overlaps their inputs, so writing a value twice is
// harmless); only rows shorter than a vector take the scalar loop.

/// Runs vector(x) for x = 0, size, ... while a whole vector fits, then for count - size where
/// the row holds a vector, else scalar(x) for each remaining x.
template <std::size_t Size, class Vector, class Scalar>
inline void over_row(std::size_t count, Vector&& vector, Scalar&& scalar) {
    std::size_t x = 0;
    for (; x + Size <= count; x += Size) vector(x);
    if (x == count) return;
    if (count >= Size) {
        vector(count - Size);
        return;
    }
    for (; x < count; ++x) scalar(x);
}

/// pool_rows_fn: out[x] = max over r < n_rows of rows[r][x] (x < count).
template <class Arch>
void max_rows(const std::int16_t* const* rows, std::size_t n_rows, std::size_t count,
              std::int16_t* out) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    over_row<i16::size>(
        count,
        [&](std::size_t x) {
            i16 best = i16::load_unaligned(rows[0] + x);
            for (std::size_t r = 1; r < n_rows; ++r)
                best = xsimd::max(best, i16::load_unaligned(rows[r] + x));
            best.store_unaligned(out + x);
        },
        [&](std::size_t x) {
            std::int16_t best = rows[0][x];
            for (std::size_t r = 1; r < n_rows; ++r) best = rows[r][x] > best ? rows[r][x] : best;
            out[x] = best;
        });
}

/// pool_window_fn: out[x] = max over j < k of v[x + j] (x < count).
template <class Arch>
void max_window(const std::int16_t* v, std::size_t k, std::size_t count, std::int16_t* out) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    over_row<i16::size>(
        count,
        [&](std::size_t x) {
            i16 best = i16::load_unaligned(v + x);
            for (std::size_t j = 1; j < k; ++j)
                best = xsimd::max(best, i16::load_unaligned(v + x + j));
            best.store_unaligned(out + x);
        },
        [&](std::size_t x) {
            std::int16_t best = v[x];
            for (std::size_t j = 1; j < k; ++j) best = v[x + j] > best ? v[x + j] : best;
            out[x] = best;
        });
}

/// sum_rows_fn: out[x] = sum over r < n_rows of rows[r][x] as int32 (x < count).
template <class Arch>
void sum_rows(const std::int16_t* const* rows, std::size_t n_rows, std::size_t count,
              std::int32_t* out) {
    using i32 = xsimd::batch<std::int32_t, Arch>;
    over_row<i32::size>(
        count,
        [&](std::size_t x) {
            i32 sum(0);
            for (std::size_t r = 0; r < n_rows; ++r)
                sum += load_widened(rows[r] + x, static_cast<i32*>(nullptr));
            sum.store_unaligned(out + x);
        },
        [&](std::size_t x) {
            std::int32_t sum = 0;
            for (std::size_t r = 0; r < n_rows; ++r) sum += rows[r][x];
            out[x] = sum;
        });
}

/// sum_window_fn: out[x] = sum over j < k of v[x + j] (x < count).
template <class Arch>
void sum_window(const std::int32_t* v, std::size_t k, std::size_t count, std::int32_t* out) {
    using i32 = xsimd::batch<std::int32_t, Arch>;
    over_row<i32::size>(
        count,
        [&](std::size_t x) {
            i32 sum = i32::load_unaligned(v + x);
            for (std::size_t j = 1; j < k; ++j) sum += i32::load_unaligned(v + x + j);
            sum.store_unaligned(out + x);
        },
        [&](std::size_t x) {
            std::int32_t sum = 0;
            for (std::size_t j = 0; j < k; ++j) sum += v[x + j];
            out[x] = sum;
        });
}

/// pick_even_fn: out[i] = v[2 i] for i < count (v holds 2 count elements): each pair of int16
/// values read as one int32 lane, its low half sign-extended and narrowed.
template <class Arch>
void pick_even(const std::int16_t* v, std::size_t count, std::int16_t* out) {
    using i16 = xsimd::batch<std::int16_t, Arch>;
    using i32 = xsimd::batch<std::int32_t, Arch>;
    over_row<i32::size>(
        count,
        [&](std::size_t i) {
            const i32 pairs = xsimd::bitwise_cast<i32>(i16::load_unaligned(v + 2 * i));
            store_narrowed((pairs << 16) >> 16, out + i);
        },
        [&](std::size_t i) { out[i] = v[2 * i]; });
}

/// The row kernels of one instruction set.
template <class Arch>
row_kernels make_row_kernels() {
    return row_kernels{&add_row<Arch>,    &mul_row<Arch>,    &multiply_scaled_row<Arch>,
                       &max_rows<Arch>,   &max_window<Arch>, &sum_rows<Arch>,
                       &sum_window<Arch>, &pick_even<Arch>};
}

}  // namespace
}  // namespace openvx::q78
