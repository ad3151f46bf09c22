// TensorRows: a tensor seen as rows of contiguous elements (4-D layouts: one row per (n, plane, h);
// plain tensors: fixed-size chunks of the dense buffer), the unit element-wise kernels iterate
// over.
#pragma once

#include <algorithm>
#include <cstdint>

#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class TensorRows {
  public:
    static constexpr int64_t kPlainChunk = 16384;

    explicit TensorRows(const TensorInfo& info) : info_(&info) {
        if (info.is_4d_layout()) {
            planes_ = info.layout() == DataLayout::nchw16c ? info.channel_blocks()
                      : info.layout() == DataLayout::nchw  ? info.c()
                                                           : 1;
            length_ = info.w() * (info.layout() == DataLayout::nchw16c ? kChannelBlock
                                  : info.layout() == DataLayout::nhwc  ? info.c()
                                                                       : 1);
            count_ = info.n() * planes_ * info.h();
        } else {
            length_ = kPlainChunk;
            count_ = (info.element_count() + kPlainChunk - 1) / kPlainChunk;
        }
    }
    int64_t count() const { return count_; }
    /// Element offset of row `r` from the first element, and its length.
    int64_t offset(int64_t r) const {
        if (!info_->is_4d_layout()) return r * kPlainChunk;
        const int64_t h = r % info_->h(), np = r / info_->h();
        const int64_t plane = np % planes_, n = np / planes_;
        return n * info_->stride_n() +
               plane * (info_->layout() == DataLayout::nhwc ? 0 : info_->stride_c()) +
               h * info_->stride_h();
    }
    int64_t length(int64_t r) const {
        if (!info_->is_4d_layout())
            return std::min(kPlainChunk, info_->element_count() - r * kPlainChunk);
        return length_;
    }

  private:
    const TensorInfo* info_;
    int64_t planes_ = 1, length_ = 0, count_ = 0;
};

/// Whether two tensors have the same shape, layout and row geometry (element-wise compatible).
inline bool same_rows(const TensorInfo& a, const TensorInfo& b) {
    return a.shape() == b.shape() && a.layout() == b.layout();
}

}  // namespace tessera::cpu
