// Packed GEMM: B panels (KC x NC) in Nr-column slivers, A blocks (MC x KC) in Mr-row slivers (both
// converted straight from DLFLOAT16 sticks when the operands are ztensors), register-tile
// micro-kernels chosen at run time (AVX-512 12x32, AVX2+FMA 6x16, portable), TBB over row blocks.
#include "gemm_kernel.hpp"

#include <immintrin.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "aligned_buffer.hpp"
#include "dlfloat_rows.hpp"
#include "parallel_rows.hpp"

namespace tessera::zdnn {
namespace {

// Register-tile geometry of a micro-kernel and the cache blocking that goes with it.
template <size_t Mr, size_t Nr, size_t Kc>
struct Tile {
  static constexpr size_t kMr = Mr, kNr = Nr, kKc = Kc;
  static constexpr size_t kMc = 48;  // multiple of Mr; 22 row blocks for m = 1024 balance two threads
  static constexpr size_t kNc = 2048;
};
using Avx2Tile = Tile<6, 16, 384>;
using Avx512Tile = Tile<12, 32, 256>;

template <class T>
using MicroKernel = void (*)(size_t kc, const float* ap, const float* bp, float* c, size_t ldc, bool accumulate);

// Packs rows [0, mc) x cols [0, kc) of the A block at (i_base, p_base) into Mr-row slivers:
// sliver s, k -> Mr consecutive values.
template <class T>
void pack_a(const MatrixView& a, size_t i_base, size_t p_base, size_t mc, size_t kc, float* out) {
  alignas(64) float rows_buffer[T::kMr * T::kKc];
  for (size_t i0 = 0; i0 < mc; i0 += T::kMr) {
    const size_t rows = std::min(T::kMr, mc - i0);
    a.read_block(i_base + i0, rows, p_base, kc, rows_buffer, T::kKc);
    for (size_t p = 0; p < kc; ++p) {
      for (size_t r = 0; r < rows; ++r) out[r] = rows_buffer[r * T::kKc + p];
      for (size_t r = rows; r < T::kMr; ++r) out[r] = 0.0f;
      out += T::kMr;
    }
  }
}

// Packs the Nr-column sliver starting at column j_base (cols <= Nr valid) of the B panel rows
// [p_base, p_base + kc).
template <class T>
void pack_b_sliver(const MatrixView& b, size_t p_base, size_t kc, size_t j_base, size_t cols, float* out) {
  b.read_block(p_base, kc, j_base, cols, out, T::kNr);
  if (cols < T::kNr)
    for (size_t p = 0; p < kc; ++p) std::fill(out + p * T::kNr + cols, out + p * T::kNr + T::kNr, 0.0f);
}

__attribute__((target("avx2,fma"))) void micro_avx2(size_t kc, const float* ap, const float* bp, float* c, size_t ldc,
                                                    bool accumulate) {
  constexpr size_t kMr = Avx2Tile::kMr, kNr = Avx2Tile::kNr;
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps(),
         c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(), c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps(),
         c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (size_t p = 0; p < kc; ++p, ap += kMr, bp += kNr) {
    const __m256 b0 = _mm256_load_ps(bp), b1 = _mm256_load_ps(bp + 8);
    __m256 a = _mm256_broadcast_ss(ap + 0);
    c00 = _mm256_fmadd_ps(a, b0, c00);
    c01 = _mm256_fmadd_ps(a, b1, c01);
    a = _mm256_broadcast_ss(ap + 1);
    c10 = _mm256_fmadd_ps(a, b0, c10);
    c11 = _mm256_fmadd_ps(a, b1, c11);
    a = _mm256_broadcast_ss(ap + 2);
    c20 = _mm256_fmadd_ps(a, b0, c20);
    c21 = _mm256_fmadd_ps(a, b1, c21);
    a = _mm256_broadcast_ss(ap + 3);
    c30 = _mm256_fmadd_ps(a, b0, c30);
    c31 = _mm256_fmadd_ps(a, b1, c31);
    a = _mm256_broadcast_ss(ap + 4);
    c40 = _mm256_fmadd_ps(a, b0, c40);
    c41 = _mm256_fmadd_ps(a, b1, c41);
    a = _mm256_broadcast_ss(ap + 5);
    c50 = _mm256_fmadd_ps(a, b0, c50);
    c51 = _mm256_fmadd_ps(a, b1, c51);
  }
  const __m256 rows[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  for (size_t r = 0; r < kMr; ++r) {
    float* dst = c + r * ldc;
    __m256 lo = rows[r][0], hi = rows[r][1];
    if (accumulate) {
      lo = _mm256_add_ps(lo, _mm256_loadu_ps(dst));
      hi = _mm256_add_ps(hi, _mm256_loadu_ps(dst + 8));
    }
    _mm256_storeu_ps(dst, lo);
    _mm256_storeu_ps(dst + 8, hi);
  }
}

// 12 x 32 tile: 24 zmm accumulators, two B vectors, A broadcast from memory.
__attribute__((target("avx512f"))) void micro_avx512(size_t kc, const float* ap, const float* bp, float* c, size_t ldc,
                                                     bool accumulate) {
  constexpr size_t kMr = Avx512Tile::kMr, kNr = Avx512Tile::kNr;
  __m512 acc[kMr][2];
#pragma GCC unroll 12
  for (size_t r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (size_t p = 0; p < kc; ++p, ap += kMr, bp += kNr) {
    const __m512 b0 = _mm512_load_ps(bp), b1 = _mm512_load_ps(bp + 16);
#pragma GCC unroll 12
    for (size_t r = 0; r < kMr; ++r) {
      const __m512 a = _mm512_set1_ps(ap[r]);
      acc[r][0] = _mm512_fmadd_ps(a, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(a, b1, acc[r][1]);
    }
  }
#pragma GCC unroll 12
  for (size_t r = 0; r < kMr; ++r) {
    float* dst = c + r * ldc;
    __m512 lo = acc[r][0], hi = acc[r][1];
    if (accumulate) {
      lo = _mm512_add_ps(lo, _mm512_loadu_ps(dst));
      hi = _mm512_add_ps(hi, _mm512_loadu_ps(dst + 16));
    }
    _mm512_storeu_ps(dst, lo);
    _mm512_storeu_ps(dst + 16, hi);
  }
}

template <class T>
void micro_generic(size_t kc, const float* ap, const float* bp, float* c, size_t ldc, bool accumulate) {
  float acc[T::kMr][T::kNr] = {};
  for (size_t p = 0; p < kc; ++p, ap += T::kMr, bp += T::kNr)
    for (size_t r = 0; r < T::kMr; ++r)
      for (size_t j = 0; j < T::kNr; ++j) acc[r][j] += ap[r] * bp[j];
  for (size_t r = 0; r < T::kMr; ++r)
    for (size_t j = 0; j < T::kNr; ++j) c[r * ldc + j] = accumulate ? c[r * ldc + j] + acc[r][j] : acc[r][j];
}

// Multiplies one packed A block (mc x kc) by the packed B panel (kc x nc) into C.
template <class T>
void block_multiply(MicroKernel<T> kernel, size_t mc, size_t nc, size_t kc, const float* ap, const float* bp, float* c,
                    size_t ldc, bool accumulate) {
  alignas(64) float tile[T::kMr * T::kNr];
  for (size_t j0 = 0; j0 < nc; j0 += T::kNr) {
    const size_t cols = std::min(T::kNr, nc - j0);
    for (size_t i0 = 0; i0 < mc; i0 += T::kMr) {
      const size_t rows = std::min(T::kMr, mc - i0);
      const float* a_sliver = ap + i0 * kc;
      const float* b_sliver = bp + j0 * kc;
      float* dst = c + i0 * ldc + j0;
      if (rows == T::kMr && cols == T::kNr) {
        kernel(kc, a_sliver, b_sliver, dst, ldc, accumulate);
      } else {
        kernel(kc, a_sliver, b_sliver, tile, T::kNr, false);
        for (size_t r = 0; r < rows; ++r)
          for (size_t j = 0; j < cols; ++j)
            dst[r * ldc + j] = accumulate ? dst[r * ldc + j] + tile[r * T::kNr + j] : tile[r * T::kNr + j];
      }
    }
  }
}

template <class T>
void sgemm_blocked(MicroKernel<T> kernel, size_t m, size_t n, size_t k, const MatrixView& a, const MatrixView& b,
                   float* c, size_t ldc) {
  const size_t nc_max = std::min(T::kNc, (n + T::kNr - 1) / T::kNr * T::kNr);
  AlignedBuffer packed_b = make_aligned_buffer(T::kKc * nc_max * sizeof(float), false);
  if (!packed_b) throw std::bad_alloc();
  for (size_t jc = 0; jc < n; jc += T::kNc) {
    const size_t nc = std::min(T::kNc, n - jc);
    for (size_t pc = 0; pc < k; pc += T::kKc) {
      const size_t kc = std::min(T::kKc, k - pc);
      auto* bp = reinterpret_cast<float*>(packed_b.get());
      const size_t slivers = (nc + T::kNr - 1) / T::kNr;
      for_rows(slivers, kc * nc, [&](size_t begin, size_t end) {
        for (size_t s = begin; s < end; ++s)
          pack_b_sliver<T>(b, pc, kc, jc + s * T::kNr, std::min(T::kNr, nc - s * T::kNr), bp + s * T::kNr * kc);
      });
      const size_t blocks = (m + T::kMc - 1) / T::kMc;
      tbb::parallel_for(size_t{0}, blocks, [&](size_t blk) {
        const size_t ic = blk * T::kMc;
        const size_t mc = std::min(T::kMc, m - ic);
        alignas(64) static thread_local float packed_a[T::kMc * T::kKc];
        pack_a<T>(a, ic, pc, mc, kc, packed_a);
        block_multiply<T>(kernel, mc, nc, kc, packed_a, bp, c + ic * ldc + jc, ldc, pc != 0);
      });
    }
  }
}

enum class Isa { generic, avx2, avx512 };

Isa detect_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return Isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
  return Isa::generic;
}

}  // namespace

void MatrixView::read_block(size_t r0, size_t rows, size_t c0, size_t cols, float* out, size_t out_ld) const {
  if (dense_) {
    for (size_t r = 0; r < rows; ++r) std::memcpy(out + r * out_ld, dense_ + (r0 + r) * ld_ + c0, cols * sizeof(float));
    return;
  }
  for (size_t c = c0; c < c0 + cols;) {
    const uint32_t in_stick = static_cast<uint32_t>(c % 64);
    const uint32_t count = static_cast<uint32_t>(std::min<size_t>(64 - in_stick, c0 + cols - c));
    // Consecutive rows of one 64-column block are consecutive sticks within a page; walk by page.
    for (size_t r = 0; r < rows;) {
      const size_t row = r0 + r;
      const size_t run = std::min<size_t>(rows - r, kSticksPerPage - row % kSticksPerPage);
      const auto* stick = reinterpret_cast<const uint16_t*>(
          sticks_ + geometry_.stick_offset(stack_, 0, static_cast<uint32_t>(row), static_cast<uint32_t>(c)));
      sticks_to_fp32_rows(stick + in_stick, out + r * out_ld + (c - c0), out_ld, run, count);
      r += run;
    }
    c += count;
  }
}

void sgemm(size_t m, size_t n, size_t k, const MatrixView& a, const MatrixView& b, float* c, size_t ldc) {
  static const Isa isa = detect_isa();
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
    return;
  }
  switch (isa) {
  case Isa::avx512: return sgemm_blocked<Avx512Tile>(micro_avx512, m, n, k, a, b, c, ldc);
  case Isa::avx2: return sgemm_blocked<Avx2Tile>(micro_avx2, m, n, k, a, b, c, ldc);
  case Isa::generic: return sgemm_blocked<Avx2Tile>(micro_generic<Avx2Tile>, m, n, k, a, b, c, ldc);
  }
}

}  // namespace tessera::zdnn
