// FillBorderKernel: writes the spatial border (padding) of a 4-D f32 tensor with a constant or by
// replicating the nearest edge pixel, so neighbourhood kernels can read past the image edges.
#pragma once

#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class FillBorderKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "FillBorderKernel"; }
    /// `border` must lie within tensor.info().padding(); mode must be constant or replicate.
    void configure(ITensor& tensor, const PaddingSize& border, BorderMode mode, float value = 0.0f);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    ITensor* tensor_ = nullptr;
    PaddingSize border_;
    BorderMode mode_ = BorderMode::constant;
    float value_ = 0.0f;
};

}  // namespace tessera::cpu
