// Source-to-transformed row mapping for every pre-transformed layout.
#include "layout_mapping.hpp"

namespace tessera::zdnn {

LayoutMapping::LayoutMapping(const zdnn_tensor_desc& pre, const zdnn_tensor_desc& tfrmd) : pre_(pre), tfrmd_(tfrmd) {
  geometry_ = feature_geometry(tfrmd);
  ok_ = true;
  if (tfrmd.format == ZDNN_FORMAT_4DKERNEL) {
    geometry_ = FeatureGeometry{1, tfrmd.dim4 * tfrmd.dim3, tfrmd.dim2, tfrmd.dim1, 64};
    kind_ = Kind::contiguous;
    ok_ = pre.layout == ZDNN_HWCK;
  } else if (is_concatenated_layout(tfrmd.layout)) {
    kind_ = Kind::concatenated;
    sources_ = gates_of_layout(tfrmd.layout);
  } else if (pre.layout == ZDNN_NCHW) {
    kind_ = Kind::nchw;
  } else if (pre.layout == ZDNN_4DS && pre.dim3 > 1) {
    kind_ = Kind::four_ds_dirs;
  } else {
    kind_ = Kind::contiguous;
  }
}

void LayoutMapping::row_segments(uint32_t n, uint32_t h, uint32_t w, std::vector<RowSegment>& out) const {
  out.clear();
  const FeatureGeometry& g = geometry_;
  switch (kind_) {
  case Kind::contiguous: out.push_back({0, 0, g.c, ((static_cast<uint64_t>(n) * g.h + h) * g.w + w) * g.c, 1}); return;
  case Kind::nchw: {
    // pre (N, C, H, W) -> transformed (N, H, W, C)
    const uint64_t C = pre_.dim3, H = pre_.dim2, W = pre_.dim1;
    out.push_back({0, 0, g.c, (static_cast<uint64_t>(n) * C * H + h) * W + w, H * W});
    return;
  }
  case Kind::four_ds_dirs: {
    // pre (T, D, B, S) -> transformed (T, 1, B, D * PADDED(S))
    const uint64_t D = pre_.dim3, B = pre_.dim2, S = pre_.dim1;
    for (uint32_t dir = 0; dir < D; ++dir)
      out.push_back({0, static_cast<uint32_t>(dir * padded64(pre_.dim1)), static_cast<uint32_t>(S),
                     ((static_cast<uint64_t>(n) * D + dir) * B + w) * S, 1});
    return;
  }
  case Kind::concatenated: {
    // Each gate: pre 3DS (dirs, rows, S) or 2DS (dirs, S); gate g occupies cells [g*PADDED(S), +S).
    const bool bias = pre_.layout == ZDNN_2DS;
    const uint64_t S = pre_.dim1;
    const uint64_t rows = bias ? 1 : pre_.dim2;
    uint64_t src_row = w;
    if (tfrmd_.layout == ZDNN_BIDIR_FICO || tfrmd_.layout == ZDNN_BIDIR_ZRH) {
      const uint32_t half = pre_.dim2 / 2, half_padded = padded64(half);
      if (w < half_padded) {
        if (w >= half) return;
        src_row = w;
      } else {
        if (w - half_padded >= half) return;
        src_row = half + (w - half_padded);
      }
    }
    for (uint32_t gate = 0; gate < sources_; ++gate)
      out.push_back({gate, gate * padded64(pre_.dim1), static_cast<uint32_t>(S),
                     (static_cast<uint64_t>(n) * rows + src_row) * S, 1});
    return;
  }
  }
}

}  // namespace tessera::zdnn
