// Packed GEMM: B panels (KC x NC) packed in 16-column slivers, A blocks (MC x KC) in 6-row
// slivers, a 6x16 register-tile micro-kernel (AVX2+FMA when available), TBB over row blocks.
#include "gemm_kernel.hpp"

#include <immintrin.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "aligned_buffer.hpp"

namespace tessera::zdnn {
namespace {

constexpr size_t kMr = 6, kNr = 16;
constexpr size_t kMc = 48, kKc = 256, kNc = 2048;

// Packs rows [0, mc) x cols [0, kc) of A into 6-row slivers: sliver s, k -> 6 consecutive values.
void pack_a(const float* a, size_t lda, size_t mc, size_t kc, float* out) {
  for (size_t i0 = 0; i0 < mc; i0 += kMr) {
    const size_t rows = std::min(kMr, mc - i0);
    for (size_t p = 0; p < kc; ++p) {
      for (size_t r = 0; r < rows; ++r) out[r] = a[(i0 + r) * lda + p];
      for (size_t r = rows; r < kMr; ++r) out[r] = 0.0f;
      out += kMr;
    }
  }
}

// Packs rows [0, kc) x cols [0, nc) of B into 16-column slivers.
void pack_b(const float* b, size_t ldb, size_t kc, size_t nc, float* out) {
  for (size_t j0 = 0; j0 < nc; j0 += kNr) {
    const size_t cols = std::min(kNr, nc - j0);
    for (size_t p = 0; p < kc; ++p) {
      const float* src = b + p * ldb + j0;
      if (cols == kNr) {
        std::memcpy(out, src, kNr * sizeof(float));
      } else {
        for (size_t j = 0; j < cols; ++j) out[j] = src[j];
        for (size_t j = cols; j < kNr; ++j) out[j] = 0.0f;
      }
      out += kNr;
    }
  }
}

__attribute__((target("avx2,fma"))) void micro_avx2(size_t kc, const float* ap, const float* bp, float* c,
                                                     size_t ldc, bool accumulate) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(),
         c11 = _mm256_setzero_ps(), c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(),
         c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps(), c40 = _mm256_setzero_ps(),
         c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (size_t p = 0; p < kc; ++p, ap += kMr, bp += kNr) {
    const __m256 b0 = _mm256_load_ps(bp), b1 = _mm256_load_ps(bp + 8);
    __m256 a = _mm256_broadcast_ss(ap + 0);
    c00 = _mm256_fmadd_ps(a, b0, c00); c01 = _mm256_fmadd_ps(a, b1, c01);
    a = _mm256_broadcast_ss(ap + 1);
    c10 = _mm256_fmadd_ps(a, b0, c10); c11 = _mm256_fmadd_ps(a, b1, c11);
    a = _mm256_broadcast_ss(ap + 2);
    c20 = _mm256_fmadd_ps(a, b0, c20); c21 = _mm256_fmadd_ps(a, b1, c21);
    a = _mm256_broadcast_ss(ap + 3);
    c30 = _mm256_fmadd_ps(a, b0, c30); c31 = _mm256_fmadd_ps(a, b1, c31);
    a = _mm256_broadcast_ss(ap + 4);
    c40 = _mm256_fmadd_ps(a, b0, c40); c41 = _mm256_fmadd_ps(a, b1, c41);
    a = _mm256_broadcast_ss(ap + 5);
    c50 = _mm256_fmadd_ps(a, b0, c50); c51 = _mm256_fmadd_ps(a, b1, c51);
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

void micro_generic(size_t kc, const float* ap, const float* bp, float* c, size_t ldc, bool accumulate) {
  float acc[kMr][kNr] = {};
  for (size_t p = 0; p < kc; ++p, ap += kMr, bp += kNr)
    for (size_t r = 0; r < kMr; ++r)
      for (size_t j = 0; j < kNr; ++j) acc[r][j] += ap[r] * bp[j];
  for (size_t r = 0; r < kMr; ++r)
    for (size_t j = 0; j < kNr; ++j) c[r * ldc + j] = accumulate ? c[r * ldc + j] + acc[r][j] : acc[r][j];
}

using MicroKernel = void (*)(size_t, const float*, const float*, float*, size_t, bool);

MicroKernel pick_kernel() {
  __builtin_cpu_init();
  return (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ? micro_avx2 : micro_generic;
}

// Multiplies one packed A block (mc x kc) by the packed B panel (kc x nc) into C.
void block_multiply(MicroKernel kernel, size_t mc, size_t nc, size_t kc, const float* ap, const float* bp, float* c,
                    size_t ldc, bool accumulate) {
  alignas(32) float tile[kMr * kNr];
  for (size_t j0 = 0; j0 < nc; j0 += kNr) {
    const size_t cols = std::min(kNr, nc - j0);
    for (size_t i0 = 0; i0 < mc; i0 += kMr) {
      const size_t rows = std::min(kMr, mc - i0);
      const float* a_sliver = ap + i0 * kc;
      const float* b_sliver = bp + j0 * kc;
      float* dst = c + i0 * ldc + j0;
      if (rows == kMr && cols == kNr) {
        kernel(kc, a_sliver, b_sliver, dst, ldc, accumulate);
      } else {
        kernel(kc, a_sliver, b_sliver, tile, kNr, false);
        for (size_t r = 0; r < rows; ++r)
          for (size_t j = 0; j < cols; ++j)
            dst[r * ldc + j] = accumulate ? dst[r * ldc + j] + tile[r * kNr + j] : tile[r * kNr + j];
      }
    }
  }
}

}  // namespace

void sgemm(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb, float* c,
           size_t ldc) {
  static const MicroKernel kernel = pick_kernel();
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (size_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
    return;
  }
  const size_t nc_max = std::min(kNc, (n + kNr - 1) / kNr * kNr);
  AlignedBuffer packed_b = make_aligned_buffer(kKc * nc_max * sizeof(float), false);
  for (size_t jc = 0; jc < n; jc += kNc) {
    const size_t nc = std::min(kNc, n - jc);
    for (size_t pc = 0; pc < k; pc += kKc) {
      const size_t kc = std::min(kKc, k - pc);
      auto* bp = reinterpret_cast<float*>(packed_b.get());
      pack_b(b + pc * ldb + jc, ldb, kc, nc, bp);
      const size_t blocks = (m + kMc - 1) / kMc;
      tbb::parallel_for(size_t{0}, blocks, [&](size_t blk) {
        const size_t ic = blk * kMc;
        const size_t mc = std::min(kMc, m - ic);
        alignas(64) static thread_local float packed_a[kMc * kKc];
        pack_a(a + ic * lda + pc, lda, mc, kc, packed_a);
        block_multiply(kernel, mc, nc, kc, packed_a, bp, c + ic * ldc + jc, ldc, pc != 0);
      });
    }
  }
}

}  // namespace tessera::zdnn
