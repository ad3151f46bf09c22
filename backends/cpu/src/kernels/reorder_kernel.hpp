// ReorderKernel: copies a 4-D tensor between layouts (nchw, nhwc, nchw16c) and/or data types
// (f32, f16, bf16 -> f32 or f32 -> f16/bf16), honouring padding on both sides. Padded channel lanes
// of a blocked destination are written with zeros.
#pragma once

#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class ReorderKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "ReorderKernel"; }
    void configure(const ITensor& src, ITensor& dst);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    /// Row (n, h) of f32 tensors: pointers from the strides, channel by channel.
    void reorder_f32_row(int64_t n, int64_t h, int64_t c_total) const;

    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
};

/// Element conversions used by reorders and casts.
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bf16_to_float(uint16_t b);
uint16_t float_to_bf16(float f);

}  // namespace tessera::cpu
