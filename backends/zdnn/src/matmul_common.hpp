// Shared machinery of the matmul family: shape validation for the unstacked / stacked / bcast1 /
// bcast23 forms, the dense product and the fused addition / comparison epilogue.
#pragma once

#include "dense_io.hpp"

namespace tessera::zdnn {

// Geometry of a validated matmul call: `stacks` results of (m x n) * (n x p).
struct MatmulShape {
  uint32_t stacks = 1, m = 0, n = 0, p = 0;
  bool a_stacked = false, b_stacked = false, c_stacked = false;
};

// Validates transformed dims of a (s,1,m,n)/(s,1,n,m), b (s,1,n,p)/(s,1,p,n), c (s,1,1,p) and
// output (s,1,m,p). `allow_broadcast` admits bcast1 (a unstacked) and bcast23 (b, c unstacked).
zdnn_status matmul_shape(const zdnn_tensor_desc& a, const zdnn_tensor_desc& b, const zdnn_tensor_desc& c,
                         const zdnn_tensor_desc& out, bool transpose_a, bool transpose_b, bool allow_broadcast,
                         MatmulShape& shape);

// True when `op` is one of MATMUL_OP_ADDITION .. MATMUL_OP_LESSER.
inline bool valid_matmul_op(int op) {
  return op >= MATMUL_OP_ADDITION && op <= MATMUL_OP_LESSER;
}

// Applies the fused operation of `op` between dot products and c (per column) in place.
void apply_matmul_op(int op, float* dot, const float* c, uint32_t m, uint32_t p);

// Products for all stacks: result (stacks x m x p) = op(A_s * B_s, c_s), A and B read from their
// DLFLOAT16 sticks (unstickified first when transposed).
void matmul_product(const MatmulShape& shape, const zdnn_ztensor& a, const zdnn_ztensor& b, const DenseTensor& c,
                    bool transpose_a, bool transpose_b, int op, DenseTensor& result);

}  // namespace tessera::zdnn
