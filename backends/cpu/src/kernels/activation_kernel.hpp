// ActivationKernel: dst = act(src) element-wise (f32, same shape and layout; in place allowed).
#pragma once

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class ActivationKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "ActivationKernel"; }
    void configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                   const ActivationInfo& act);
    void run(const Window& window, const ThreadInfo& info) override;

  private:
    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    ActivationInfo act_;
};

}  // namespace tessera::cpu
