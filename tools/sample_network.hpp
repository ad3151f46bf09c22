// sample_network.hpp: the small network the `tessera` tool compiles to show what each backend
// makes of a graph (its placement report and compile statistics): conv2d -> batchnorm -> relu ->
// max pooling -> fully connected -> softmax on a 1x8x16x16 f32 input.
#pragma once

#include <tessera/tessera.hpp>

namespace tessera::cli {

/// The network, with constant weights; its one input is "x", its one output the softmax.
graph sample_network();

/// One line naming the network's ops, for the tool's output.
inline constexpr const char* sample_network_ops =
    "conv2d, batchnorm, relu, max pooling, fully connected, softmax";

}  // namespace tessera::cli
