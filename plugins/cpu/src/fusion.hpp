// fusion.hpp: which nodes of a cpu partition fold into the node before them. Each op states its
// part with its rules (a fusion_role, the router's trait rule): a convolution may head a chain,
// an inference batch-norm may be folded into the head's weights and bias, an activation into
// the head's epilogue. A head that takes a residual also absorbs an unscaled f32 add of its
// (batch-normed) result and a blocked tensor of the same shape computed before the head (a
// ResNet or MobileNetV2 skip connection), added before the activation. A chain head ->
// batchnorm -> residual add -> activation runs as one step when the tensors between them have
// no other reader, inside or after the partition.
#pragma once

#include <functional>
#include <vector>

#include <tessera/cpu/types.hpp>
#include <tessera/sdk/backend.hpp>

#include "layouts.hpp"

namespace tessera::plugins::cpu {

/// The part a node can play in a fused chain.
enum class fusion_stage {
    none,           ///< runs on its own
    head,           ///< starts a chain; its build rule builds the whole chain's step
    normalization,  ///< folded into the head's weights and bias (inference batch-norm)
    epilogue,       ///< applied in the head's epilogue (an activation)
};

/// A node's answer to "may you be fused, and with what": what its op states as the router's
/// trait rule. Ops without one run on their own.
struct fusion_role {
    fusion_stage stage = fusion_stage::none;
    /// The activation the stage applies (identity when none).
    runtime::ActivationInfo activation;
    /// A normalization with its own activation ends the chain: no epilogue follows it.
    bool closes_chain = false;
    /// normalization: the batch-norm epsilon.
    float epsilon = 0.0f;
    /// head: its step can add a residual tensor before the activation.
    bool takes_residual = false;
};

/// One fused chain: node indices of the partition, -1 where the chain has no such stage, and
/// what its folded stages apply.
struct fusion_chain {
    int head = -1;
    int normalization = -1;
    int residual = -1;        ///< the residual add node
    int residual_input = -1;  ///< partition tensor id of the add's other operand
    int epilogue = -1;
    fusion_role normalization_role;
    fusion_role epilogue_role;

    /// The chain's nodes in execution order.
    std::vector<int> nodes() const;
    /// The node whose output is the chain's result.
    int last() const {
        return epilogue >= 0        ? epilogue
               : residual >= 0      ? residual
               : normalization >= 0 ? normalization
                                    : head;
    }
};

/// For every node of `p`: the chain it heads (with at least one node folded into it), the chain
/// it was folded into (the same chain, for the folded nodes), or nothing (head == -1).
/// `role_of(i)` is node i's fusion role.
std::vector<fusion_chain> plan_fusion(const sdk::partition& p,
                                      const std::function<fusion_role(int)>& role_of);

}  // namespace tessera::plugins::cpu
