// Buffer sizes and element offsets of the transformed formats.
#include "stick_layout.hpp"

namespace tessera::zdnn {

uint32_t cells_per_stick(zdnn_data_types t) {
  switch (t) {
  case ZDNN_DLFLOAT16: return 64;
  case ZDNN_BINARY_INT8: return 128;
  case ZDNN_BINARY_INT32:
  case ZDNN_BINARY_FP32: return 32;
  default: return 0;
  }
}

uint64_t transformed_size_bytes(const zdnn_tensor_desc& d) {
  const uint32_t cells = cells_per_stick(d.type);
  if (cells == 0) return 0;
  if (d.format == ZDNN_FORMAT_4DWEIGHTS)
    return static_cast<uint64_t>(d.dim4) * d.dim3 * ceil_div(d.dim2, 64) * ceil_div(d.dim1, 64) * kPageBytes;
  return static_cast<uint64_t>(d.dim4) * d.dim3 * ceil_div(d.dim2, kSticksPerPage) * ceil_div(d.dim1, cells) *
         kPageBytes;
}

FeatureGeometry feature_geometry(const zdnn_tensor_desc& d) {
  return FeatureGeometry{d.dim4, d.dim3, d.dim2, d.dim1, cells_per_stick(d.type)};
}

uint64_t kernel_offset(const zdnn_tensor_desc& d, uint32_t h, uint32_t w, uint32_t c, uint32_t k) {
  const FeatureGeometry g{1, d.dim4 * d.dim3, d.dim2, d.dim1, 64};
  return g.offset(0, h * d.dim3 + w, c, k);
}

uint64_t weights_offset(const zdnn_tensor_desc& d, uint32_t e4, uint32_t e3, uint32_t e2, uint32_t e1) {
  const uint64_t e3n = d.dim3;
  const uint64_t e2l = round_up(d.dim2, 64);
  const uint64_t e1l = round_up(d.dim1, 64);
  return e4 * e3n * e2l * e1l + e3 * e2l * 64 + (e2 / 2) * 128 + (e1 / 64) * e2l * e3n * 64 + (e1 * 2) % 128 + e2 % 2;
}

}  // namespace tessera::zdnn
