// Cache-blocked, packed single-precision GEMM used by the matmul operations and RNNs:
// C = A * B with A (m x k), B (k x n) given as MatrixViews (dense row-major fp32, or DLFLOAT16
// 4DFEATURE sticks read directly while packing) and C dense row-major (m x n). AVX2+FMA
// micro-kernel chosen at run time, portable fallback otherwise; parallel over row blocks (oneTBB).
#pragma once

#include <cstddef>

#include "stick_layout.hpp"

namespace tessera::zdnn {

// A row-major matrix read block by block.
class MatrixView {
 public:
  static MatrixView dense(const float* data, size_t ld) {
    MatrixView v;
    v.dense_ = data;
    v.ld_ = ld;
    return v;
  }
  // Stack `n` of a DLFLOAT16 tensor with transformed dims (N, 1, rows, cols).
  static MatrixView sticks(const void* buffer, const FeatureGeometry& geometry, uint32_t n) {
    MatrixView v;
    v.sticks_ = static_cast<const unsigned char*>(buffer);
    v.geometry_ = geometry;
    v.stack_ = n;
    return v;
  }
  // Rows [r0, r0+rows) x cols [c0, c0+cols) as fp32 into out (row stride out_ld).
  void read_block(size_t r0, size_t rows, size_t c0, size_t cols, float* out, size_t out_ld) const;

 private:
  const float* dense_ = nullptr;
  size_t ld_ = 0;
  const unsigned char* sticks_ = nullptr;
  FeatureGeometry geometry_{};
  uint32_t stack_ = 0;
};

void sgemm(size_t m, size_t n, size_t k, const MatrixView& a, const MatrixView& b, float* c, size_t ldc);

inline void sgemm(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb, float* c,
                  size_t ldc) {
  sgemm(m, n, k, MatrixView::dense(a, lda), MatrixView::dense(b, ldb), c, ldc);
}

}  // namespace tessera::zdnn
