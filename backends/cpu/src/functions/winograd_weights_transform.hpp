// WinogradWeightsTransform: OIHW 3x3 weights (optionally scaled by folded batch-norm) transformed
// into U = G g G^T and packed as the Winograd products read them (WinogradPlan::u_offset).
#pragma once

#include <string>
#include <vector>

#include "functions/conv_weights_transform.hpp"
#include "kernels/winograd_conv_kernels.hpp"
#include "tessera/cpu/weights_manager.hpp"

namespace tessera::cpu {

class WinogradWeightsTransform final : public ITransformWeights {
  public:
    WinogradWeightsTransform(const ITensor& weights, const WinogradPlan& plan,
                             OutputChannelScale scale)
        : weights_(weights), plan_(plan), scale_(std::move(scale)) {}
    std::string uid() const override;
    TensorInfo result_info() const override;
    void run(Tensor& result) const override;

  private:
    const ITensor& weights_;
    const WinogradPlan& plan_;
    OutputChannelScale scale_;
};

}  // namespace tessera::cpu
