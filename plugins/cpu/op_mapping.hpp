// op_mapping.hpp: which Tessera ops the cpu runtime runs natively (and in which layout), and
// which run through the reference kernels inside the plugin. The decision depends only on the op
// and its tensors' shapes and dtypes, so query() and compile() always agree.
#pragma once

#include <string>
#include <vector>

#include <tessera/cpu/functions/pooling.hpp>
#include <tessera/cpu/types.hpp>
#include <tessera/sdk/backend.hpp>

namespace tessera::cpu_plugin {

enum class route {
    native_blocked,  ///< runtime function; activations in nchw16c, parameters row-major
    native_plain,    ///< runtime function on row-major tensors
    reference,       ///< the reference kernel, run by this plugin on row-major tensors
    declined,
};

struct route_choice {
    route how = route::declined;
    tsr_reason reason = TSR_REASON_NONE;
    std::string why;  ///< for reference/declined: what the runtime lacks
};

/// Decides how `op` runs for these input descriptors (layouts are not consulted, except for
/// reorder, which exists to change them).
route_choice choose_route(const op_desc& op, const std::vector<tensor_desc>& inputs,
                          const std::vector<tensor_desc>& outputs);

/// How many leading inputs are activations (kept blocked); the rest are parameters.
int activation_inputs(const op_desc& op);

/// A convolution's geometry (padding resolved, groups counted) for the runtime.
cpu::Conv2dGeometry runtime_geometry(const op::conv2d& c, const tensor_desc& src,
                                     const tensor_desc& weights);

/// A pooling's mode and window (padding resolved) for the runtime.
cpu::PoolingInfo runtime_pooling(const op::pooling& p, const tensor_desc& src);

/// Tessera activation -> runtime activation; false when the runtime has no equivalent.
bool to_runtime(const tsr_activation_spec& spec, cpu::ActivationInfo& out);

/// The capability answer with the layouts of the chosen route.
sdk::support answer_query(const sdk::op_query& q);

}  // namespace tessera::cpu_plugin
