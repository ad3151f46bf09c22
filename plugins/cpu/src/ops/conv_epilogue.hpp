// ops/conv_epilogue.hpp: the parts of a convolution's epilogue the runtime's Conv2d does not
// take as they are: a per-location bias [O, OH, OW] (given to Conv2d as its residual, laid out
// nchw16c and repeated over the batch) and fused activations the runtime lacks (PReLU, ...),
// applied to the convolution's nchw16c output afterwards as the reference applies them.
#pragma once

#include <memory>

#include "ops.hpp"

namespace tessera::plugins::cpu {

/// A per-location bias [O, OH, OW] as Conv2d's residual: an nchw16c tensor of the output's shape
/// filled from the bias (times the folded batch-norm scale, when one is fused) before each run.
class location_bias_residual {
  public:
    /// `output`: the convolution's output [N, O, OH, OW] in nchw16c.
    explicit location_bias_residual(const tensor_desc& output);

    const runtime::Tensor& tensor() const { return residual_; }
    /// Lays `bias` out over the batch; with `bn`, scaled by gamma / sqrt(var + epsilon).
    void fill(const runtime::Tensor& bias, const runtime::BatchNormFold* bn);

  private:
    runtime::Tensor residual_;
};

/// A convolution step followed by the fused activation `act` (with the PReLU slope tensor
/// `slope`, -1 without one) on its nchw16c output, in double as the reference computes it.
std::unique_ptr<step> with_activation_after(std::unique_ptr<step> conv, const node_view& v,
                                            const activation_spec& act, int slope,
                                            const runtime::Context& ctx);

}  // namespace tessera::plugins::cpu
