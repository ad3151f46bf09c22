// activation_chain.hpp: a graph of one input through a chain of linear activations (2x + 1),
// whose intermediates a memory plan can share buffers between, and the value its last node gives.
#pragma once

#include <string>

#include <tessera/tessera.hpp>

namespace tessera_test {

/// x -> act0 -> ... -> act{count - 1}, each 2x + 1; returns the last node's output.
inline tessera::graph::tensor_id linear_activation_chain(tessera::graph& g,
                                                         const tessera::tensor_desc& d, int count) {
    auto t = g.input("x", d);
    for (int i = 0; i < count; ++i)
        t = g.apply("act" + std::to_string(i),
                    tessera::op::activation(tessera::activation_kind::linear, 2.0f, 1.0f), {t});
    return t;
}

/// What the chain's last node gives for input v, in f32 as the reference computes it.
inline float linear_activation_chain_value(float v, int count) {
    for (int k = 0; k < count; ++k) v = 2.0f * v + 1.0f;
    return v;
}

}  // namespace tessera_test
