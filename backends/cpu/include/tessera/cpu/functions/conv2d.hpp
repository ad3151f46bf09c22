// Conv2d: 2-D convolution (groups, stride, dilation, padding) with fused bias, batch-norm folded
// into the weights, a residual tensor added before the activation, and activation. Output in the
// blocked layout nchw16c; input nchw16c, nchw or nhwc (f32, or f16/bf16 converted on the fly).
// Weights are OIHW f32 [OC, IC/groups, KH, KW].
#pragma once

#include <memory>
#include <vector>

#include "tessera/cpu/context.hpp"
#include "tessera/cpu/function.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// Inference batch-norm applied after the convolution, folded into weights and bias.
struct BatchNormFold {
    const ITensor* mean = nullptr;   ///< [OC] f32
    const ITensor* var = nullptr;    ///< [OC] f32
    const ITensor* gamma = nullptr;  ///< [OC] f32 or null (1)
    const ITensor* beta = nullptr;   ///< [OC] f32 or null (0)
    float epsilon = 1e-5f;
};

/// How Conv2d computes: `automatic` picks Winograd F(2x2, 3x3) for the 3x3 stride-1 layers where
/// it pays (enough channels and tiles; unless ContextOptions::winograd is false) and direct
/// convolution otherwise; `direct` always runs
/// direct convolution; `winograd` asks for Winograd and fails configure() with the reason when the
/// layer cannot run that way. Winograd rounds differently from direct convolution (transformed
/// inputs and weights, 16 products per 2x2 outputs and input channel instead of 36).
enum class ConvMethod { automatic, direct, winograd };

struct Conv2dInfo {
    Conv2dGeometry geometry;
    ActivationInfo activation;
    const BatchNormFold* batch_norm = nullptr;
    /// Added to the (batch-normed) convolution before the activation: f32 nchw16c of the
    /// output's shape, e.g. a residual connection. It may share the output's memory.
    const ITensor* residual = nullptr;
    ConvMethod method = ConvMethod::automatic;
};

class Conv2d final : public IFunction {
  public:
    /// Temporaries come from `memory_manager` when given (shared with other functions).
    explicit Conv2d(const Context& ctx, std::shared_ptr<MemoryManager> memory_manager = nullptr);
    ~Conv2d() override;

    /// Logical output shape [N, OC, OH, OW] for the given input/weights shapes.
    static std::vector<int64_t> output_shape(const TensorInfo& src, const TensorInfo& weights,
                                             const Conv2dGeometry& geometry);

    /// Validates and plans. Grows src's padding when it is still resizable (unallocated);
    /// otherwise a padded copy is made at run time. The (padded) input's layout is then fixed:
    /// functions configured later that need more padding on it make their own copy. dst may
    /// still be padded by functions configured later.
    void configure(ITensor& src, const ITensor& weights, const ITensor* bias, ITensor& dst,
                   const Conv2dInfo& info);
    void prepare() override;
    void run() override;
    /// Whether configure() chose Winograd F(2x2, 3x3) (else direct convolution).
    bool uses_winograd() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::cpu
