// Unstickify / stickify between DLFLOAT16 4DFEATURE buffers and dense fp32 arrays.
#include "dense_io.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "dlfloat_rows.hpp"
#include "parallel_rows.hpp"
#include "stick_layout.hpp"

namespace tessera::zdnn {

DenseTensor load_dense(const zdnn_ztensor& t) {
  const zdnn_tensor_desc& d = *t.transformed_desc;
  DenseTensor out(d.dim4, d.dim3, d.dim2, d.dim1);
  const FeatureGeometry g = feature_geometry(d);
  const auto* base = static_cast<const unsigned char*>(t.buffer);
  // One row = all W sticks of one (n, h); rows are independent.
  for_rows(size_t(d.dim4) * d.dim3, out.data.size(), [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      const uint32_t n = static_cast<uint32_t>(row / d.dim3), h = static_cast<uint32_t>(row % d.dim3);
      for (uint32_t c0 = 0; c0 < d.dim1; c0 += 64) {
        const uint32_t count = std::min<uint32_t>(64, d.dim1 - c0);
        const auto* stick = reinterpret_cast<const uint16_t*>(base + g.stick_offset(n, h, 0, c0));
        float* dst = &out.at(n, h, 0, c0);
        sticks_to_fp32_rows(stick, dst, d.dim1, d.dim2, count);
      }
    }
  });
  return out;
}

zdnn_status store_dense(zdnn_ztensor& t, const float* values) {
  const zdnn_tensor_desc& d = *t.transformed_desc;
  const FeatureGeometry g = feature_geometry(d);
  auto* base = static_cast<unsigned char*>(t.buffer);
  const uint32_t w_padded = static_cast<uint32_t>(g.w_pages() * kSticksPerPage);
  std::atomic<bool> range_violation{false};
  for_rows(size_t(d.dim4) * d.dim3, size_t(d.dim4) * d.dim3 * d.dim2 * d.dim1, [&](size_t begin, size_t end) {
    bool violation = false;
    for (size_t row = begin; row < end; ++row) {
      const uint32_t n = static_cast<uint32_t>(row / d.dim3), h = static_cast<uint32_t>(row % d.dim3);
      for (uint32_t c0 = 0; c0 < d.dim1; c0 += 64) {
        const uint32_t count = std::min<uint32_t>(64, d.dim1 - c0);
        auto* stick = reinterpret_cast<uint16_t*>(base + g.stick_offset(n, h, 0, c0));
        if (count < 64)
          std::memset(stick, 0, size_t(w_padded) * kStickBytes);
        else if (w_padded > d.dim2)
          std::memset(stick + size_t(d.dim2) * 64, 0, size_t(w_padded - d.dim2) * kStickBytes);
        const float* src = values + (static_cast<size_t>(row) * d.dim2) * d.dim1 + c0;
        violation |= fp32_rows_to_sticks(src, d.dim1, stick, d.dim2, count, false);
      }
    }
    if (violation) range_violation = true;
  });
  t.is_transformed = true;
  return range_violation ? ZDNN_ELEMENT_RANGE_VIOLATION : ZDNN_OK;
}

}  // namespace tessera::zdnn
