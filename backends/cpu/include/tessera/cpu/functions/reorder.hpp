// Reorder: copies a tensor into another layout and/or data type (nchw <-> nhwc <-> nchw16c,
// f32 <-> f16/bf16). Also the way to bring user data into (and out of) the blocked layout.
#pragma once

#include <memory>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class Reorder final : public IFunction {
  public:
    explicit Reorder(const Context& ctx);
    ~Reorder() override;
    void configure(const ITensor& src, ITensor& dst);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
