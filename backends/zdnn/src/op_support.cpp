// Operand validation and result storage shared by all operations.
#include "op_support.hpp"

namespace tessera::zdnn {

zdnn_status check_operands(std::initializer_list<const zdnn_ztensor*> operands) {
  for (const zdnn_ztensor* t : operands)
    if (zdnn_status s = check_dlfloat_operand(t); s != ZDNN_OK) return s;
  return ZDNN_OK;
}

zdnn_status check_same_shape(std::initializer_list<const zdnn_ztensor*> operands) {
  if (zdnn_status s = check_operands(operands); s != ZDNN_OK) return s;
  const zdnn_tensor_desc& first = *(*operands.begin())->transformed_desc;
  for (const zdnn_ztensor* t : operands)
    if (!same_dims(first, *t->transformed_desc)) return ZDNN_INVALID_SHAPE;
  return ZDNN_OK;
}

zdnn_status finish(zdnn_ztensor* output, const DenseTensor& result, const char* where) {
  const zdnn_status s = store_dense(*output, result.data.data());
  return s == ZDNN_OK ? ZDNN_OK : report(s, where, "result outside DLFLOAT16 range");
}

}  // namespace tessera::zdnn
