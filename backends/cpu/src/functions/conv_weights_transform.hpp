// ConvWeightsTransform: packs OIHW weights (optionally scaled by folded batch-norm) into the
// per-block panels DirectConvKernel reads ([steps][block width] per output block).
#pragma once

#include <string>
#include <vector>

#include "kernels/direct_conv_kernel.hpp"
#include "tessera/cpu/weights_manager.hpp"

namespace tessera::cpu {

class ConvWeightsTransform final : public ITransformWeights {
  public:
    ConvWeightsTransform(const ITensor& weights, const ConvChannelPlan& plan, int64_t groups,
                         std::vector<float> oc_scale, std::string scale_id)
        : weights_(weights),
          plan_(plan),
          groups_(groups),
          scale_(std::move(oc_scale)),
          scale_id_(std::move(scale_id)) {}
    std::string uid() const override;
    TensorInfo result_info() const override;
    void run(Tensor& result) const override;

  private:
    const ITensor& weights_;
    const ConvChannelPlan& plan_;
    int64_t groups_;
    std::vector<float> scale_;
    std::string scale_id_;
};

}  // namespace tessera::cpu
