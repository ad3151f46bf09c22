// Helpers shared by the operations: operand validation, element-wise map drivers and result
// storage with range-violation reporting.
#pragma once

#include <cmath>
#include <initializer_list>

#include "dense_io.hpp"
#include "status.hpp"
#include "tensor_checks.hpp"

namespace tessera::zdnn {

// Validates each operand as a DLFLOAT16 4DFEATURE tensor; returns the first failure.
zdnn_status check_operands(std::initializer_list<const zdnn_ztensor*> operands);
// Validates operands and that all have the dims of the first.
zdnn_status check_same_shape(std::initializer_list<const zdnn_ztensor*> operands);
// Stores the result and reports ZDNN_ELEMENT_RANGE_VIOLATION / ZDNN_OK for `where`.
zdnn_status finish(zdnn_ztensor* output, const DenseTensor& result, const char* where);

// out = f(in) element-wise.
template <class F>
zdnn_status unary_map(const char* where, const zdnn_ztensor* input, zdnn_ztensor* output, F f) {
  return guarded(where, [&] {
    if (zdnn_status s = check_same_shape({input, output}); s != ZDNN_OK) return report(s, where);
    DenseTensor values = load_dense(*input);
    for (float& v : values.data) v = f(v);
    return finish(output, values, where);
  });
}

// out = f(a, b) element-wise.
template <class F>
zdnn_status binary_map(const char* where, const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* output, F f) {
  return guarded(where, [&] {
    if (zdnn_status s = check_same_shape({a, b, output}); s != ZDNN_OK) return report(s, where);
    DenseTensor x = load_dense(*a);
    const DenseTensor y = load_dense(*b);
    for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = f(x.data[i], y.data[i]);
    return finish(output, x, where);
  });
}

// Dims (dim4, dim3, dim2, dim1) of a ztensor's transformed descriptor equal the given ones.
inline bool has_dims(const zdnn_ztensor* t, uint32_t d4, uint32_t d3, uint32_t d2, uint32_t d1) {
  const zdnn_tensor_desc& d = *t->transformed_desc;
  return d.dim4 == d4 && d.dim3 == d3 && d.dim2 == d2 && d.dim1 == d1;
}

// A save area / work area given by the caller must be 4K aligned.
inline bool misaligned(const void* area) {
  return area && (reinterpret_cast<uintptr_t>(area) % 4096) != 0;
}

}  // namespace tessera::zdnn
