// Element-wise and data-movement kernels: BinaryKernel (numpy broadcasting), SoftmaxKernel,
// BatchNormKernel (per-channel scale/shift), PermuteKernel.
#pragma once

#include <array>
#include <vector>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// dst = a op b. Plain tensors broadcast numpy-style (dims aligned from the right, size-1 dims
/// stretch); 4-D layouts need equal shapes and layouts. Window dim 0: rows of dst.
class BinaryKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "BinaryKernel"; }
    /// Broadcast shape of a and b; throws InvalidArgument when incompatible.
    static std::vector<int64_t> broadcast_shape(const TensorInfo& a, const TensorInfo& b);
    void configure(const KernelTable& table, const ITensor& a, const ITensor& b, ITensor& dst,
                   BinaryOp op);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor *a_ = nullptr, *b_ = nullptr;
    ITensor* dst_ = nullptr;
    BinaryOp op_ = BinaryOp::add;
    bool plain_ = true;
    int rank_ = 0;
    std::array<int64_t, kMaxDims> shape_{}, a_strides_{}, b_strides_{};  // elements; 0 = broadcast
};

/// Softmax / log-softmax along the last dimension of a dense plain f32 tensor.
class SoftmaxKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "SoftmaxKernel"; }
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst, float beta,
                   bool log);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    float beta_ = 1.0f;
    bool log_ = false;
    int64_t row_ = 1;
};

/// dst = src * scale[c] + shift[c], then activation, for 4-D f32 tensors of any layout.
class BatchNormKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "BatchNormKernel"; }
    /// scale/shift: at least channel_blocks*16 values (zero-padded).
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst, const float* scale,
                   const float* shift, const ActivationInfo& act);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    const float *scale_ = nullptr, *shift_ = nullptr;
    ActivationInfo act_;
};

/// dst dim i = src dim perm[i] (dense plain tensors of any element type). Window dim 0: dst rows.
class PermuteKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "PermuteKernel"; }
    void configure(const ITensor& src, ITensor& dst, const std::vector<int>& perm);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    int rank_ = 0;
    std::array<int64_t, kMaxDims> shape_{},
        src_strides_{};  // dst shape; src strides (elements) per dst dim
};

}  // namespace tessera::cpu
