// Row-wise neighbourhood kernels on the blocked layout: DepthwiseConvKernel and PoolingKernel.
// Window: one collapsed dimension of plane rows, (batch, channel block, output row) in memory
// order, so that a split gives each thread one contiguous stretch of the tensors. The kernels
// compute the output rectangle [oh_begin, oh_end) x [ow_begin, ow_end). Pooling reads an input
// padded and bordered by the function; depthwise convolution either does too or treats taps
// outside the image as zeros.
#pragma once

#include <algorithm>
#include <vector>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// Output rectangle a neighbourhood kernel computes.
struct OutputRect {
    int64_t oh_begin = 0, oh_end = 0, ow_begin = 0, ow_end = 0;
};

/// The rows [oh_begin, oh_end) of one 16-channel plane (batch n, channel block cb).
struct PlaneRows {
    int64_t n = 0, cb = 0, oh_begin = 0, oh_end = 0;
};

/// The plane rows of dst's output rectangle, collapsed into dimension 0 of a window.
class BlockedRows {
  public:
    BlockedRows() = default;
    BlockedRows(const TensorInfo& dst, const OutputRect& rect);

    Window window() const;
    /// Calls fn(PlaneRows) for each plane's stretch of the collapsed range [begin, end).
    template <class Fn>
    void for_each_plane(const Window::Dimension& range, Fn&& fn) const {
        for (int64_t r = range.start(); r < range.end();) {
            const int64_t plane = r / rows_, row = r % rows_;
            const int64_t count = std::min(rows_ - row, range.end() - r);
            fn(PlaneRows{plane / blocks_, plane % blocks_, oh_begin_ + row,
                         oh_begin_ + row + count});
            r += count;
        }
    }

  private:
    int64_t batches_ = 0, blocks_ = 1, rows_ = 1, oh_begin_ = 0;
};

class DepthwiseConvKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "DepthwiseConvKernel"; }
    /// `zero_border`: taps outside src's image read as zeros (src needs no padding); otherwise
    /// src is padded and bordered by the geometry's padding.
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                   const Conv2dGeometry& g, int64_t kh, int64_t kw, const OutputRect& rect,
                   const ActivationInfo& act, bool zero_border);
    /// packed: [channel blocks][kh][kw][16]; bias: [channel blocks * 16] or null.
    void set_weights(const float* packed, const float* bias) {
        weights_ = packed;
        bias_ = bias;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    /// Taps [begin, end) of a kernel extent whose input coordinate `origin + tap * dilation` lies
    /// inside [0, extent) (all taps when the input is padded).
    struct TapRange {
        int64_t begin = 0, end = 0;
    };
    TapRange valid_taps(int64_t origin, int64_t taps, int64_t dilation, int64_t extent) const;

    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    Conv2dGeometry g_;
    int64_t kh_ = 1, kw_ = 1;
    bool zero_border_ = false;
    /// Output columns [interior_begin_, interior_end_) read only columns inside the image.
    int64_t interior_begin_ = 0, interior_end_ = 0;
    /// Rows in one call with zero columns at their ends (DepthwiseRowArgs::zero_left/right).
    bool zero_columns_ = false;
    int64_t zero_left_ = 0, zero_right_ = 0;
    OutputRect rect_;
    BlockedRows rows_;
    ActivationInfo act_;
    const float* weights_ = nullptr;
    const float* bias_ = nullptr;
};

class PoolingKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "PoolingKernel"; }
    /// `divisors`: 1/count per output pixel (OH*OW) or null for 1/(kh*kw). src is read in place:
    /// window positions in the padding are left out, which is what a border of -inf (max) or of
    /// zeros (average) would give.
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst, bool max, int64_t kh,
                   int64_t kw, int64_t stride_h, int64_t stride_w, int64_t pad_top,
                   int64_t pad_left, const float* divisors);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    bool max_ = true;
    int64_t kh_ = 1, kw_ = 1, sh_ = 1, sw_ = 1, pt_ = 0, pl_ = 0;
    const float* divisors_ = nullptr;
    BlockedRows rows_;
};

}  // namespace tessera::cpu
