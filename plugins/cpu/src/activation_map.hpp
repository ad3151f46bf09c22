// activation_map.hpp: Tessera activations as the runtime's activation functions (used by every
// op with an activation or a fused epilogue).
#pragma once

#include <tessera/c/ops.h>
#include <tessera/cpu/types.hpp>

#include "layouts.hpp"

namespace tessera::plugins::cpu {

/// Tessera activation -> runtime activation; false when the runtime has no equivalent (PReLU
/// needs a slope tensor; GELU only in its erf form).
bool to_runtime(const tsr_activation_spec& spec, runtime::ActivationInfo& out);

}  // namespace tessera::plugins::cpu
