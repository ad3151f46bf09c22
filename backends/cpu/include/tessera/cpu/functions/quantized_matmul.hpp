// QuantizedMatmul: int8 matrix product dst[M, N] (s32) = sum_k (a[m,k] - a_offset) * (b[k,n] -
// b_offset) with a u8 [M, K] and b s8 [K, N] (constant: packed once; otherwise packed on every
// run). Uses AVX512-VNNI (vpdpbusd) when the CPU has it, a portable path otherwise; both are
// exact while the true sums fit in s32.
#pragma once

#include <memory>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class QuantizedMatmul final : public IFunction {
  public:
    explicit QuantizedMatmul(const Context& ctx,
                             std::shared_ptr<MemoryManager> memory_manager = nullptr);
    ~QuantizedMatmul() override;
    /// Offsets come from the tensors' QuantizationInfo. `b_is_constant`: b is packed once, on the
    /// first run (weights manager); otherwise on every run, so b's memory may change between runs.
    void configure(const ITensor& a, const ITensor& b, ITensor& dst, bool b_is_constant = true);
    void prepare() override;
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
