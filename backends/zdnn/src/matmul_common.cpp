// Matmul shape rules, dense products (through the packed GEMM) and fused epilogues.
#include "matmul_common.hpp"

#include <vector>

#include "gemm_kernel.hpp"

namespace tessera::zdnn {

zdnn_status matmul_shape(const zdnn_tensor_desc& a, const zdnn_tensor_desc& b, const zdnn_tensor_desc& c,
                         const zdnn_tensor_desc& out, bool transpose_a, bool transpose_b, bool allow_broadcast,
                         MatmulShape& shape) {
  if (a.dim3 != 1 || b.dim3 != 1 || c.dim3 != 1 || out.dim3 != 1 || c.dim2 != 1) return ZDNN_INVALID_SHAPE;
  const uint32_t m = transpose_a ? a.dim1 : a.dim2, n = transpose_a ? a.dim2 : a.dim1;
  const uint32_t bn = transpose_b ? b.dim1 : b.dim2, p = transpose_b ? b.dim2 : b.dim1;
  if (n != bn || c.dim1 != p || out.dim2 != m || out.dim1 != p) return ZDNN_INVALID_SHAPE;
  const uint32_t s = out.dim4;
  const bool same = a.dim4 == s && b.dim4 == s && c.dim4 == s;
  const bool bcast23 = a.dim4 == s && b.dim4 == 1 && c.dim4 == 1;
  const bool bcast1 = a.dim4 == 1 && b.dim4 == s && c.dim4 == s;
  if (!same && !(allow_broadcast && (bcast23 || bcast1))) return ZDNN_INVALID_SHAPE;
  shape = MatmulShape{s, m, n, p, a.dim4 == s, b.dim4 == s, c.dim4 == s};
  return ZDNN_OK;
}

void apply_matmul_op(int op, float* dot, const float* c, uint32_t m, uint32_t p) {
  for (uint32_t i = 0; i < m; ++i) {
    float* row = dot + static_cast<size_t>(i) * p;
    switch (op) {
    case MATMUL_OP_ADDITION:
      for (uint32_t j = 0; j < p; ++j) row[j] += c[j];
      break;
    case MATMUL_OP_GREATER:
      for (uint32_t j = 0; j < p; ++j) row[j] = row[j] > c[j] ? 1.0f : 0.0f;
      break;
    case MATMUL_OP_GREATER_EQUAL:
      for (uint32_t j = 0; j < p; ++j) row[j] = row[j] >= c[j] ? 1.0f : 0.0f;
      break;
    case MATMUL_OP_EQUAL:
      for (uint32_t j = 0; j < p; ++j) row[j] = row[j] == c[j] ? 1.0f : 0.0f;
      break;
    case MATMUL_OP_NOT_EQUAL:
      for (uint32_t j = 0; j < p; ++j) row[j] = row[j] != c[j] ? 1.0f : 0.0f;
      break;
    case MATMUL_OP_LESSER_EQUAL:
      for (uint32_t j = 0; j < p; ++j) row[j] = row[j] <= c[j] ? 1.0f : 0.0f;
      break;
    case MATMUL_OP_LESSER:
      for (uint32_t j = 0; j < p; ++j) row[j] = row[j] < c[j] ? 1.0f : 0.0f;
      break;
    default: break;
    }
  }
}

namespace {

std::vector<float> transposed(const float* src, uint32_t rows, uint32_t cols) {
  std::vector<float> out(static_cast<size_t>(rows) * cols);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t q = 0; q < cols; ++q) out[static_cast<size_t>(q) * rows + r] = src[static_cast<size_t>(r) * cols + q];
  return out;
}

}  // namespace

void matmul_product(const MatmulShape& shape, const zdnn_ztensor& a, const zdnn_ztensor& b, const DenseTensor& c,
                    bool transpose_a, bool transpose_b, int op, DenseTensor& result) {
  result = DenseTensor(shape.stacks, 1, shape.m, shape.p);
  const FeatureGeometry ga = feature_geometry(*a.transformed_desc), gb = feature_geometry(*b.transformed_desc);
  // Transposed operands are unstickified and transposed first; the others are read from sticks.
  const DenseTensor a_dense = transpose_a ? load_dense(a) : DenseTensor();
  const DenseTensor b_dense = transpose_b ? load_dense(b) : DenseTensor();
  for (uint32_t s = 0; s < shape.stacks; ++s) {
    const uint32_t sa = shape.a_stacked ? s : 0, sb = shape.b_stacked ? s : 0;
    std::vector<float> at, bt;
    MatrixView av = MatrixView::sticks(a.buffer, ga, sa), bv = MatrixView::sticks(b.buffer, gb, sb);
    if (transpose_a) {
      at = transposed(a_dense.data.data() + size_t(sa) * shape.m * shape.n, shape.n, shape.m);
      av = MatrixView::dense(at.data(), shape.n);
    }
    if (transpose_b) {
      bt = transposed(b_dense.data.data() + size_t(sb) * shape.n * shape.p, shape.p, shape.n);
      bv = MatrixView::dense(bt.data(), shape.p);
    }
    float* out = result.data.data() + static_cast<size_t>(s) * shape.m * shape.p;
    sgemm(shape.m, shape.p, shape.n, av, bv, out, shape.p);
    const float* c_s = c.data.data() + (shape.c_stacked ? s : 0) * static_cast<size_t>(shape.p);
    apply_matmul_op(op, out, c_s, shape.m, shape.p);
  }
}

}  // namespace tessera::zdnn
