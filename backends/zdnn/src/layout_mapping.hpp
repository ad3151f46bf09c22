// Where each transformed row (n, h, w) of a 4DFEATURE-addressed tensor comes from in the caller's
// pre-transformed data, for every layout: contiguous layouts, NCHW (transposed), 4DS with two
// directions, HWCK kernels and the FICO/ZRH(/BIDIR) gate concatenations.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"
#include "stick_layout.hpp"

namespace tessera::zdnn {

// One run of a transformed row copied from the source: cells [dst_c, dst_c+count) of the row
// take source elements src_index, src_index+stride, ... of source buffer `source`.
struct RowSegment {
  uint32_t source;  // which data pointer (gate index for concatenations)
  uint32_t dst_c;
  uint32_t count;
  uint64_t src_index;  // element index
  uint64_t stride;     // element stride
};

class LayoutMapping {
 public:
  // Builds the mapping for a (pre, transformed) descriptor pair; `ok` false if unsupported.
  LayoutMapping(const zdnn_tensor_desc& pre, const zdnn_tensor_desc& tfrmd);
  bool ok() const { return ok_; }
  // Geometry used to address the transformed buffer (kernel tensors use (1, H*W, C, K)).
  const FeatureGeometry& geometry() const { return geometry_; }
  // Segments of transformed row (n, h, w); cells not covered are padding (zero).
  void row_segments(uint32_t n, uint32_t h, uint32_t w, std::vector<RowSegment>& out) const;
  // Number of source data pointers (1, or the gate count).
  uint32_t sources() const { return sources_; }
  // True when every row is one contiguous run of the single source (fast paths).
  bool contiguous() const { return kind_ == Kind::contiguous; }

 private:
  enum class Kind { contiguous, nchw, four_ds_dirs, concatenated };
  Kind kind_ = Kind::contiguous;
  bool ok_ = false;
  FeatureGeometry geometry_{};
  uint32_t sources_ = 1;
  zdnn_tensor_desc pre_{};
  zdnn_tensor_desc tfrmd_{};
};

}  // namespace tessera::zdnn
