// elementwise_chain.hpp: runs of consecutive element-wise nodes of a cpu partition (native unary
// kinds, unscaled f32 binary ops, row-major) computed as one pass over their output: the Erf
// GELU with its bias add (Add, Div, Erf, Add, Mul, Mul), bias + residual adds, the scaling tail
// of a decomposed layer norm. The values between the chain's nodes stay in a small block of
// registers-in-memory and are never written to their buffers, so each may only be read inside
// the chain. Operands from outside the chain broadcast as a whole tensor, a row (the last dim),
// a column (one value per row) or a scalar.
#pragma once

#include <memory>
#include <vector>

#include <tessera/sdk/backend.hpp>

#include "program.hpp"

namespace tessera::plugins::cpu {

/// Where a chain node's operand comes from.
struct chain_operand {
    enum class source {
        value,   ///< the output of an earlier node of the chain (index into the chain)
        full,    ///< a partition tensor of the chain's shape
        row,     ///< a partition tensor of the last dim's extent, the same for every row
        column,  ///< a partition tensor of one value per row
        scalar,  ///< a partition tensor of one element
    };
    source from = source::value;
    int index = 0;  ///< chain position (value) or partition tensor id
};

/// One node of a chain: a unary kind on operand a, or a binary kind on a and b.
struct chain_node {
    bool is_unary = false;
    unary_kind unary = unary_kind::erf;
    float epsilon = 0.0f;
    binary_kind binary = binary_kind::add;
    chain_operand a, b;
};

struct elementwise_chain {
    int first = -1;  ///< partition index of the chain's first node
    std::vector<chain_node> nodes;
    std::int64_t rows = 1, width = 1;  ///< the output as rows of its last dim
    int output = -1;                   ///< partition tensor id of the last node's output
};

/// The chains of two or more consecutive nodes of `p`, none including a node marked in `taken`.
std::vector<elementwise_chain> plan_elementwise_chains(const sdk::partition& p,
                                                       const std::vector<bool>& taken);

/// The step computing `chain`, split over the context's threads when it is large.
std::unique_ptr<step> elementwise_chain_step(const elementwise_chain& chain,
                                             const runtime::Context& ctx);

}  // namespace tessera::plugins::cpu
