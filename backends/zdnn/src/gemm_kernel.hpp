// Cache-blocked, packed single-precision GEMM used by the matmul operations: C = A * B with
// row-major A (m x k), B (k x n), C (m x n). AVX2+FMA micro-kernel chosen at run time, portable
// fallback otherwise; parallel over row blocks with oneTBB.
#pragma once

#include <cstddef>

namespace tessera::zdnn {

void sgemm(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb, float* c,
           size_t ldc);

}  // namespace tessera::zdnn
