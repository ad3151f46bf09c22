// WinogradWeightsTransform: OIHW 3x3 weights (optionally scaled by folded batch-norm) transformed
// into U = G g G^T and packed as the Winograd products read them (WinogradPlan::u_offset).
#pragma once

#include <string>
#include <vector>

#include "kernels/winograd_conv_kernels.hpp"
#include "tessera/cpu/weights_manager.hpp"

namespace tessera::cpu {

class WinogradWeightsTransform final : public ITransformWeights {
  public:
    WinogradWeightsTransform(const ITensor& weights, const WinogradPlan& plan,
                             std::vector<float> oc_scale, std::string scale_id)
        : weights_(weights),
          plan_(plan),
          scale_(std::move(oc_scale)),
          scale_id_(std::move(scale_id)) {}
    std::string uid() const override;
    TensorInfo result_info() const override;
    void run(Tensor& result) const override;

  private:
    const ITensor& weights_;
    const WinogradPlan& plan_;
    std::vector<float> scale_;
    std::string scale_id_;
};

}  // namespace tessera::cpu
