// ElementwiseBinary: dst = a op b (add, sub, mul, div, min, max, pow, squared difference) with
// numpy broadcasting for plain tensors; equal shapes for the 4-D layouts.
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

enum class ElementwiseOp { add, sub, mul, div, min, max, pow, squared_diff };

class ElementwiseBinary final : public IFunction {
  public:
    explicit ElementwiseBinary(const Context& ctx);
    ~ElementwiseBinary() override;
    static std::vector<int64_t> output_shape(const TensorInfo& a, const TensorInfo& b);
    void configure(const ITensor& a, const ITensor& b, ITensor& dst, ElementwiseOp op);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
