// Row-wise neighbourhood kernels on the blocked layout: DepthwiseConvKernel and PoolingKernel.
// Window: dim 0 channel blocks, dim 1 output rows, dim 2 batch. Inputs are padded and bordered by
// the function; the kernels compute the output rectangle [oh_begin, oh_end) x [ow_begin, ow_end).
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
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                   const Conv2dGeometry& g, int64_t kh, int64_t kw, const OutputRect& rect,
                   const ActivationInfo& act);
    /// packed: [channel blocks][kh][kw][16]; bias: [channel blocks * 16] or null.
    void set_weights(const float* packed, const float* bias) {
        weights_ = packed;
        bias_ = bias;
    }
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    Conv2dGeometry g_;
    int64_t kh_ = 1, kw_ = 1;
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
