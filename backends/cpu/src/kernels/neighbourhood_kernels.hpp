// Row-wise neighbourhood kernels on the blocked layout: DepthwiseConvKernel and PoolingKernel.
// Window: dim 0 channel blocks, dim 1 output rows, dim 2 batch. The kernels compute the output
// rectangle [oh_begin, oh_end) x [ow_begin, ow_end). Pooling reads an input padded and bordered by
// the function; depthwise convolution either does too or treats taps outside the image as zeros.
#pragma once

#include <vector>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// Output rectangle a neighbourhood kernel computes.
struct OutputRect {
    int64_t oh_begin = 0, oh_end = 0, ow_begin = 0, ow_end = 0;
};

/// The kernel window shared by both kernels.
Window blocked_rows_window(const TensorInfo& dst, const OutputRect& rect);

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
    ActivationInfo act_;
    const float* weights_ = nullptr;
    const float* bias_ = nullptr;
};

class PoolingKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "PoolingKernel"; }
    /// `divisors`: 1/count per output pixel (OH*OW) or null for 1/(kh*kw).
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
};

}  // namespace tessera::cpu
