// Plain BLAS-style entry points of the CPU runtime (row-major), for other backends to link.
#pragma once

#include <cstdint>
#include <vector>

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

/// A constant matrix W (n x k) packed for products with one vector at a time (a classifier at
/// batch 1): panels of 16 rows, each reduction step of a panel one 64-byte line, so that a
/// product reads W as one sequential stream (sdot_rows reads four rows at once, four short
/// streams that the hardware prefetchers pick up late).
class DotPanels {
  public:
    /// Packs W, whose element (j, i) is w[j * row_stride + i * col_stride]: the rows of a
    /// transposed B (row_stride ldw, col_stride 1) or the columns of an upright one (1, ldb).
    /// Throws InvalidArgument on negative sizes or a null w with n, k > 0.
    DotPanels(int64_t n, int64_t k, const float* w, int64_t row_stride, int64_t col_stride);
    int64_t n() const { return n_; }
    int64_t k() const { return k_; }
    /// y[j] = sum_i x[i] * W(j, i) for j < n. Panels are split over ctx's threads; each output
    /// is summed in one fixed order, so results do not depend on the thread count. Throws
    /// InvalidArgument on a null x (k > 0) or y (n > 0).
    void multiply(const float* x, float* y, const Context& ctx) const;

  private:
    int64_t n_ = 0, k_ = 0;
    std::vector<float> packed_;
};

}  // namespace tessera::cpu
