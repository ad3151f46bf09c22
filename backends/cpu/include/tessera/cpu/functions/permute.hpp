// Permute: dst dimension i = src dimension perm[i] for dense plain tensors of any element type
// (transpose is the 2-D case).
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class Permute final : public IFunction {
  public:
    explicit Permute(const Context& ctx);
    ~Permute() override;
    static std::vector<int64_t> output_shape(const TensorInfo& src, const std::vector<int>& perm);
    void configure(const ITensor& src, ITensor& dst, const std::vector<int>& perm);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
