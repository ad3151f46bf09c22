// BatchNormalization (inference): dst = (src - mean) / sqrt(var + eps) * gamma + beta per channel,
// then activation, for 4-D f32 tensors of any layout (src and dst alike; in place allowed).
#pragma once

#include <memory>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class BatchNormalization final : public IFunction {
  public:
    explicit BatchNormalization(const Context& ctx);
    ~BatchNormalization() override;
    /// gamma/beta may be null (1 and 0). Parameters are read at prepare() (first run).
    void configure(const ITensor& src, ITensor& dst, const ITensor& mean, const ITensor& var,
                   const ITensor* gamma, const ITensor* beta, float epsilon,
                   const ActivationInfo& act = {});
    void prepare() override;
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
