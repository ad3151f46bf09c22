// fusion.hpp: which nodes of a cpu partition fold into the convolution before them. A chain
// conv -> batchnorm (inference) -> activation runs as one runtime convolution (batch-norm folded
// into its weights and bias, activation in its epilogue) when the tensors between them have no
// other reader, inside or after the partition.
#pragma once

#include <vector>

#include <tessera/sdk/backend.hpp>

namespace tessera::cpu_plugin {

/// One fused chain: node indices of the partition, -1 where the chain has no such node.
struct conv_chain {
    int conv = -1;
    int batchnorm = -1;
    int activation = -1;

    /// The chain's nodes in execution order.
    std::vector<int> nodes() const;
    /// The node whose output is the chain's result.
    int last() const { return activation >= 0 ? activation : batchnorm >= 0 ? batchnorm : conv; }
};

/// For every node of `p`: the chain it starts (conv with at least one node folded into it), the
/// chain it was folded into (the same chain, for the folded nodes), or nothing (conv == -1).
std::vector<conv_chain> plan_fusion(const sdk::partition& p);

}  // namespace tessera::cpu_plugin
