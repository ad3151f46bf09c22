// Dense binary32 views of DLFLOAT16 4DFEATURE ztensors: operations unstickify their inputs into
// row-major (dim4, dim3, dim2, dim1) arrays, compute in fp32 and stickify the results, rounding to
// DLFLOAT16 as the accelerator does.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"

namespace tessera::zdnn {

struct DenseTensor {
  uint32_t n = 0, h = 0, w = 0, c = 0;  // transformed dims dim4..dim1
  std::vector<float> data;
  DenseTensor() = default;
  DenseTensor(uint32_t n_, uint32_t h_, uint32_t w_, uint32_t c_, float fill = 0.0f)
      : n(n_), h(h_), w(w_), c(c_), data(static_cast<size_t>(n_) * h_ * w_ * c_, fill) {}
  size_t index(uint32_t in, uint32_t ih, uint32_t iw, uint32_t ic) const {
    return ((static_cast<size_t>(in) * h + ih) * w + iw) * c + ic;
  }
  float& at(uint32_t in, uint32_t ih, uint32_t iw, uint32_t ic) { return data[index(in, ih, iw, ic)]; }
  float at(uint32_t in, uint32_t ih, uint32_t iw, uint32_t ic) const { return data[index(in, ih, iw, ic)]; }
};

// Reads a DLFLOAT16 4DFEATURE tensor (caller validated it).
DenseTensor load_dense(const zdnn_ztensor& t);
// Writes values with the tensor's transformed dims into its buffer (pad cells zeroed) and marks it
// transformed. Returns ZDNN_ELEMENT_RANGE_VIOLATION when a value became NINF, else ZDNN_OK.
zdnn_status store_dense(zdnn_ztensor& t, const float* values);

}  // namespace tessera::zdnn
