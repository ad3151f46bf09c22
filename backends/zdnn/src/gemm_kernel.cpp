// Packed GEMM: B panels (KC x NC) packed in 16-column slivers, A blocks (MC x KC) in 6-row
// slivers (both converted straight from DLFLOAT16 sticks when the operands are ztensors), a 6x16 register-tile micro-kernel (AVX2+FMA when available), TBB over row blocks.
#include "gemm_kernel.hpp"

#include <immintrin.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "aligned_buffer.hpp"
#include "dlfloat_rows.hpp"
#include "parallel_rows.hpp"

namespace tessera::zdnn {
namespace {

constexpr size_t kMr = 6, kNr = 16;
constexpr size_t kMc = 48, kKc = 384, kNc = 2048;

// Packs rows [0, mc) x cols [0, kc) of the A block at (i_base, p_base) into 6-row slivers:
// sliver s, k -> 6 consecutive values.
void pack_a(const MatrixView& a, size_t i_base, size_t p_base, size_t mc, size_t kc, float* out) {
  alignas(64) float rows_buffer[kMr * kKc];
  for (size_t i0 = 0; i0 < mc; i0 += kMr) {
    const size_t rows = std::min(kMr, mc - i0);
    a.read_block(i_base + i0, rows, p_base, kc, rows_buffer, kKc);
    for (size_t p = 0; p < kc; ++p) {
      for (size_t r = 0; r < rows; ++r) out[r] = rows_buffer[r * kKc + p];
      for (size_t r = rows; r < kMr; ++r) out[r] = 0.0f;
      out += kMr;
    }
  }
}

// Packs the 16-column sliver starting at column j_base (cols <= 16 valid) of the B panel rows
// [p_base, p_base + kc).
void pack_b_sliver(const MatrixView& b, size_t p_base, size_t kc, size_t j_base, size_t cols, float* out) {
  b.read_block(p_base, kc, j_base, cols, out, kNr);
  if (cols < kNr)
    for (size_t p = 0; p < kc; ++p) std::fill(out + p * kNr + cols, out + p * kNr + kNr, 0.0f);
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
      const size_t slivers = (nc + kNr - 1) / kNr;
      for_rows(slivers, kc * nc, [&](size_t begin, size_t end) {
        for (size_t s = begin; s < end; ++s)
          pack_b_sliver(b, pc, kc, jc + s * kNr, std::min(kNr, nc - s * kNr), bp + s * kNr * kc);
      });
      const size_t blocks = (m + kMc - 1) / kMc;
      tbb::parallel_for(size_t{0}, blocks, [&](size_t blk) {
        const size_t ic = blk * kMc;
        const size_t mc = std::min(kMc, m - ic);
        alignas(64) static thread_local float packed_a[kMc * kKc];
        pack_a(a, ic, pc, mc, kc, packed_a);
        block_multiply(kernel, mc, nc, kc, packed_a, bp, c + ic * ldc + jc, ldc, pc != 0);
      });
    }
  }
}

}  // namespace tessera::zdnn
