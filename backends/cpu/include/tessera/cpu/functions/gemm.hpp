// Gemm and FullyConnected: tensor-level matrix products on the packed GEMM kernel. A constant B
// (weights) is packed once through the Context's weights manager; packing workspace is a managed
// temporary, recycled across functions sharing a memory manager.
#pragma once

#include <memory>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

struct GemmInfo {
    bool trans_a = false, trans_b = false;
    float alpha = 1.0f, beta = 0.0f;
    bool b_is_constant = false;  ///< pack B once (weights manager) instead of every run
    ActivationInfo activation;   ///< relu/relu6/bounded/leaky/clip fused, others applied after
};

/// c = alpha * op(a) * op(b) + beta * c (+ bias per column) for plain f32 2-D tensors.
class Gemm final : public IFunction {
  public:
    explicit Gemm(const Context& ctx, std::shared_ptr<MemoryManager> memory_manager = nullptr);
    ~Gemm() override;
    void configure(const ITensor& a, const ITensor& b, const ITensor* bias, ITensor& c,
                   const GemmInfo& info);
    void prepare() override;
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// dst[N, OUT] = src[N, IN...] x weights[OUT, IN]^T + bias[OUT], then activation. src may have any
/// rank >= 2 (flattened after the first dimension); f16/bf16 src is converted.
class FullyConnected final : public IFunction {
  public:
    explicit FullyConnected(const Context& ctx,
                            std::shared_ptr<MemoryManager> memory_manager = nullptr);
    ~FullyConnected() override;
    void configure(const ITensor& src, const ITensor& weights, const ITensor* bias, ITensor& dst,
                   const ActivationInfo& activation = {});
    void prepare() override;
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
