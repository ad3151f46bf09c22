// Addressing of the transformed ("stickified") formats: buffer sizes and byte offsets of elements
// for 4DFEATURE (DLFLOAT16 / INT8 / INT32 cells), 4DKERNEL and int8 4DWEIGHTS, per the notes.
#pragma once

#include "common.hpp"

namespace tessera::zdnn {

// Cells of one 128-byte stick for a transformed data type (64 DLFLOAT16, 128 INT8, 32 INT32).
uint32_t cells_per_stick(zdnn_data_types transformed_type);

// Bytes needed for a transformed descriptor (0 for unknown type/format).
uint64_t transformed_size_bytes(const zdnn_tensor_desc& tfrmd);

// 4DFEATURE geometry for transformed dims (N, H, W, C) with `cells` cells per stick.
struct FeatureGeometry {
  uint32_t n, h, w, c, cells;
  uint64_t w_pages() const { return ceil_div(w, kSticksPerPage); }
  uint64_t c_blocks() const { return ceil_div(c, cells); }
  // Index of the page holding (n, h, w, c-block).
  uint64_t page(uint32_t in, uint32_t ih, uint32_t iw, uint32_t ic) const {
    return static_cast<uint64_t>(in) * (w_pages() * h * c_blocks()) +
           static_cast<uint64_t>(ic / cells) * (w_pages() * h) + static_cast<uint64_t>(ih) * w_pages() +
           iw / kSticksPerPage;
  }
  // Byte offset of the stick holding (n, h, w, c-block).
  uint64_t stick_offset(uint32_t in, uint32_t ih, uint32_t iw, uint32_t ic) const {
    return page(in, ih, iw, ic) * kPageBytes + (iw % kSticksPerPage) * kStickBytes;
  }
  // Byte offset of one element, cell size = 128 / cells.
  uint64_t offset(uint32_t in, uint32_t ih, uint32_t iw, uint32_t ic) const {
    return stick_offset(in, ih, iw, ic) + (ic % cells) * (kStickBytes / cells);
  }
  uint64_t size_bytes() const { return static_cast<uint64_t>(n) * h * c_blocks() * w_pages() * kPageBytes; }
};

FeatureGeometry feature_geometry(const zdnn_tensor_desc& tfrmd);

// 4DKERNEL (HWCK) byte offset: K blocks of 64, then H, then W, then C sticks (C padded to 32).
// Equal to a 4DFEATURE tensor of dims (1, H*W, C, K).
uint64_t kernel_offset(const zdnn_tensor_desc& tfrmd, uint32_t h, uint32_t w, uint32_t c, uint32_t k);

// int8 4DWEIGHTS byte offset: rows e2, e2+1 byte-interleaved within a stick.
uint64_t weights_offset(const zdnn_tensor_desc& tfrmd, uint32_t e4, uint32_t e3, uint32_t e2, uint32_t e1);

}  // namespace tessera::zdnn
