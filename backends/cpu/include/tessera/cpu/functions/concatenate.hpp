// Concatenation along channels (4-D layouts) or the outermost dimension (plain tensors).
// Zero-copy: views() hands out SubTensors of dst that producers write into directly. Copying:
// configure()/run() copy separate inputs into their slices of dst.
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

class Concatenate final : public IFunction {
  public:
    explicit Concatenate(const Context& ctx);
    ~Concatenate() override;
    /// Sub-tensors of dst, one per entry of `sizes` (channels, or outer rows for plain tensors).
    static std::vector<std::unique_ptr<SubTensor>> views(ITensor& dst,
                                                         const std::vector<int64_t>& sizes);
    void configure(const std::vector<const ITensor*>& inputs, ITensor& dst);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
