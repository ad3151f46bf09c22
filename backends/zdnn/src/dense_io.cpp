// Unstickify / stickify between DLFLOAT16 4DFEATURE buffers and dense fp32 arrays.
#include "dense_io.hpp"

#include <algorithm>
#include <cstring>

#include "dlfloat_rows.hpp"
#include "stick_layout.hpp"

namespace tessera::zdnn {

DenseTensor load_dense(const zdnn_ztensor& t) {
  const zdnn_tensor_desc& d = *t.transformed_desc;
  DenseTensor out(d.dim4, d.dim3, d.dim2, d.dim1);
  const FeatureGeometry g = feature_geometry(d);
  const auto* base = static_cast<const unsigned char*>(t.buffer);
  for (uint32_t n = 0; n < d.dim4; ++n)
    for (uint32_t h = 0; h < d.dim3; ++h)
      for (uint32_t w = 0; w < d.dim2; ++w)
        for (uint32_t c0 = 0; c0 < d.dim1; c0 += 64) {
          const uint32_t count = std::min<uint32_t>(64, d.dim1 - c0);
          dlf16_row_to_fp32(reinterpret_cast<const uint16_t*>(base + g.stick_offset(n, h, w, c0)),
                            &out.at(n, h, w, c0), count);
        }
  return out;
}

zdnn_status store_dense(zdnn_ztensor& t, const float* values) {
  const zdnn_tensor_desc& d = *t.transformed_desc;
  const FeatureGeometry g = feature_geometry(d);
  auto* base = static_cast<unsigned char*>(t.buffer);
  bool range_violation = false;
  const uint32_t w_padded = static_cast<uint32_t>(g.w_pages() * kSticksPerPage);
  for (uint32_t n = 0; n < d.dim4; ++n)
    for (uint32_t c0 = 0; c0 < d.dim1; c0 += 64)
      for (uint32_t h = 0; h < d.dim3; ++h) {
        const uint32_t count = std::min<uint32_t>(64, d.dim1 - c0);
        for (uint32_t w = 0; w < d.dim2; ++w) {
          auto* stick = reinterpret_cast<uint16_t*>(base + g.stick_offset(n, h, w, c0));
          const float* row = values + ((static_cast<size_t>(n) * d.dim3 + h) * d.dim2 + w) * d.dim1 + c0;
          range_violation |= fp32_row_to_dlf16(row, stick, count, false);
          if (count < 64) std::memset(stick + count, 0, (64 - count) * 2);
        }
        if (w_padded > d.dim2)
          std::memset(base + g.stick_offset(n, h, d.dim2, c0), 0, (w_padded - d.dim2) * kStickBytes);
      }
  t.is_transformed = true;
  return range_violation ? ZDNN_ELEMENT_RANGE_VIOLATION : ZDNN_OK;
}

}  // namespace tessera::zdnn
