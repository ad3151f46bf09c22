// Softmax / LogSoftmax along the last dimension of a plain f32 tensor: exp(beta*(x - max)) / sum.
#pragma once

#include <memory>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class Softmax final : public IFunction {
  public:
    explicit Softmax(const Context& ctx);
    ~Softmax() override;
    void configure(const ITensor& src, ITensor& dst, float beta = 1.0f, bool log = false);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
