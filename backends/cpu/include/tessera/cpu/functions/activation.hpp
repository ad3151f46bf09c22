// Activation: dst = act(src) element-wise on f32 tensors of any layout (in place allowed).
#pragma once

#include <memory>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class Activation final : public IFunction {
  public:
    explicit Activation(const Context& ctx);
    ~Activation() override;
    void configure(const ITensor& src, ITensor& dst, const ActivationInfo& act);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
