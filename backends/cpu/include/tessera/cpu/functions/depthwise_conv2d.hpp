// DepthwiseConv2d: per-channel 2-D convolution (channel multiplier 1) on the blocked layout, with
// bias, activation and a border mode: constant (zero padding by default), replicate, or undefined
// (only outputs whose window lies inside the image are computed; dst's valid region says which).
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

struct DepthwiseConv2dInfo {
    Conv2dGeometry geometry;  ///< groups is ignored (= channels)
    ActivationInfo activation;
    BorderMode border_mode = BorderMode::constant;
    float border_value = 0.0f;
};

class DepthwiseConv2d final : public IFunction {
  public:
    explicit DepthwiseConv2d(const Context& ctx,
                             std::shared_ptr<MemoryManager> memory_manager = nullptr);
    ~DepthwiseConv2d() override;
    /// src: nchw16c (f32/f16/bf16); weights: f32 [C, 1, KH, KW]; bias: f32 [C] or null;
    /// dst: f32 nchw16c [N, C, OH, OW].
    void configure(ITensor& src, const ITensor& weights, const ITensor* bias, ITensor& dst,
                   const DepthwiseConv2dInfo& info);
    void prepare() override;
    void run() override;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
