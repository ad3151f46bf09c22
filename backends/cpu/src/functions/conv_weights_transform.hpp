// ConvWeightsTransform: packs OIHW weights (optionally scaled by folded batch-norm) into the
// per-block panels DirectConvKernel reads ([steps][block width] per output block).
// OutputChannelScale: the per-output-channel factors folded into packed weights.
#pragma once

#include <string>
#include <vector>

#include "kernels/direct_conv_kernel.hpp"
#include "tessera/cpu/weights_manager.hpp"

namespace tessera::cpu {

/// Factors multiplied into each output channel's weights when they are packed (a folded batch
/// norm's gamma / sqrt(var + epsilon)), and the id that keeps packings with different factors
/// apart in the weights manager. No values: every factor is 1.
struct OutputChannelScale {
    std::vector<float> values;
    std::string id = "plain";

    float at(int64_t oc) const {
        return values.empty() ? 1.0f : values[static_cast<std::size_t>(oc)];
    }
};

class ConvWeightsTransform final : public ITransformWeights {
  public:
    ConvWeightsTransform(const ITensor& weights, const ConvChannelPlan& plan, int64_t groups,
                         OutputChannelScale scale)
        : weights_(weights), plan_(plan), groups_(groups), scale_(std::move(scale)) {}
    std::string uid() const override;
    TensorInfo result_info() const override;
    void run(Tensor& result) const override;

  private:
    const ITensor& weights_;
    const ConvChannelPlan& plan_;
    int64_t groups_;
    OutputChannelScale scale_;
};

}  // namespace tessera::cpu
