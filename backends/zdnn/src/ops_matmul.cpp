// zdnn_matmul_op, zdnn_matmul_bcast_op and zdnn_matmul_transpose_op.
#include "matmul_common.hpp"
#include "op_support.hpp"

using namespace tessera::zdnn;

namespace {

zdnn_status matmul(const char* where, const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c,
                   bool transpose_a, bool transpose_b, int op, bool allow_broadcast, zdnn_ztensor* out) {
  if (zdnn_status s = check_operands({a, b, c, out}); s != ZDNN_OK) return report(s, where);
  MatmulShape shape;
  if (zdnn_status s = matmul_shape(*a->transformed_desc, *b->transformed_desc, *c->transformed_desc,
                                   *out->transformed_desc, transpose_a, transpose_b, allow_broadcast, shape);
      s != ZDNN_OK)
    return report(s, where);
  if (!valid_matmul_op(op)) return report(ZDNN_FUNC_RC_F000, where, "invalid op_type");
  DenseTensor result;
  matmul_product(shape, *a, *b, load_dense(*c), transpose_a, transpose_b, op, result);
  return finish(out, result, where);
}

}  // namespace

extern "C" {

zdnn_status zdnn_matmul_op(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c, zdnn_matmul_ops op_type,
                           zdnn_ztensor* output) {
  return guarded("zdnn_matmul_op",
                 [&] { return matmul("zdnn_matmul_op", a, b, c, false, false, op_type, false, output); });
}

zdnn_status zdnn_matmul_bcast_op(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c,
                                 zdnn_matmul_bcast_ops op_type, zdnn_ztensor* output) {
  return guarded("zdnn_matmul_bcast_op",
                 [&] { return matmul("zdnn_matmul_bcast_op", a, b, c, false, false, op_type, true, output); });
}

zdnn_status zdnn_matmul_transpose_op(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c,
                                     bool transpose_a, bool transpose_b, zdnn_matmul_ops op_type,
                                     zdnn_ztensor* output) {
  return guarded("zdnn_matmul_transpose_op", [&] {
    return matmul("zdnn_matmul_transpose_op", a, b, c, transpose_a, transpose_b, op_type, true, output);
  });
}

}  // extern "C"
