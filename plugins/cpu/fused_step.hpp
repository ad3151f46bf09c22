// fused_step.hpp: a conv -> batchnorm -> activation chain (fusion.hpp) run as one runtime
// convolution: batch-norm folded into the weights and bias, the activation in the epilogue.
#pragma once

#include <memory>

#include "fusion.hpp"
#include "native_step.hpp"

namespace tessera::cpu_plugin {

/// Builds the step running `chain` of partition `p`; its result lands in the chain's last output.
std::unique_ptr<step> make_fused_step(const sdk::partition& p, const conv_chain& chain,
                                      const cpu::Context& ctx,
                                      const std::shared_ptr<cpu::MemoryManager>& memory);

}  // namespace tessera::cpu_plugin
