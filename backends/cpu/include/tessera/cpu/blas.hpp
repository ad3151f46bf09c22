// Plain BLAS-style entry points of the CPU runtime (row-major), for other backends to link.
#pragma once

#include <cstdint>

namespace tessera::cpu {

class Context;

/// C = alpha * op(A) * op(B) + beta * C, row-major. op(A) is m x k, op(B) is k x n.
/// A is m x k (lda >= k) or, with trans_a, k x m (lda >= m); likewise B. When beta == 0, C is not
/// read. Runs on ctx's scheduler; results do not depend on the thread count.
/// Throws InvalidArgument on negative sizes, short leading dimensions or null pointers.
void sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc,
           const Context& ctx);

/// y[j] = sum_i x[i] * w[j * ldw + i] for j < n: n rows of W, k wide (ldw >= k), against one
/// vector x (a fully connected layer or a GEMM with op(B) transposed, at batch 1). Rows are split
/// over ctx's threads; each is summed in one fixed order, so results do not depend on the thread
/// count. Throws InvalidArgument on negative sizes, a short ldw or null pointers.
void sdot_rows(int64_t n, int64_t k, const float* x, const float* w, int64_t ldw, float* y,
               const Context& ctx);

}  // namespace tessera::cpu
