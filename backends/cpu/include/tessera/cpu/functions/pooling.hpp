// Pooling: max / average (padding included or excluded from the divisor) / global pooling on the
// blocked layout nchw16c. The input is read in place (no padded copy, no temporaries).
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

enum class PoolingType { max, average };

struct PoolingInfo {
    PoolingType type = PoolingType::max;
    int64_t kernel_h = 2, kernel_w = 2;
    int64_t stride_h = 2, stride_w = 2;
    int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    bool exclude_padding = true;  ///< average: divide by the in-image element count
    bool global = false;          ///< window = whole image (kernel/stride/pad ignored)
};

class Pooling final : public IFunction {
  public:
    /// `memory_manager` is accepted for symmetry with the other functions; pooling needs none.
    explicit Pooling(const Context& ctx, std::shared_ptr<MemoryManager> memory_manager = nullptr);
    ~Pooling() override;
    static std::vector<int64_t> output_shape(const TensorInfo& src, const PoolingInfo& info);
    void configure(ITensor& src, ITensor& dst, const PoolingInfo& info);
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
