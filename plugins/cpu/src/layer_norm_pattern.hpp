// layer_norm_pattern.hpp: a layer norm as the ONNX exporter writes it below opset 17 (ReduceMean,
// Sub, Pow 2, ReduceMean, Add epsilon, Sqrt, Div, then Mul gamma and Add beta) found among a cpu
// partition's consecutive nodes and run as one step: per row of the last dim, the mean and the
// mean square deviation accumulated in double, then (x - mean) / sqrt(variance + epsilon) *
// gamma + beta in f32 (the epsilon, gamma and beta read from their buffers on every run). The
// nodes' intermediate tensors are never written, so none may be read outside the pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tessera/sdk/backend.hpp>

#include "program.hpp"

namespace tessera::plugins::cpu {

struct decomposed_layer_norm {
    int first = -1;          ///< partition index of the first ReduceMean
    int count = 0;           ///< consecutive nodes the pattern covers (7 to 9)
    int src = -1;            ///< partition tensor ids: the normalised input,
    int epsilon = -1;        ///< the one-element epsilon,
    int gamma = -1;          ///< the scale (-1: none),
    int beta = -1;           ///< the shift (-1: none),
    int output = -1;         ///< the last node's output
    bool gamma_row = false;  ///< gamma holds one value per column (else one value in all)
    bool beta_row = false;
    std::int64_t rows = 1, width = 1;  ///< the input as rows of its last dim
};

/// The decomposed layer norms among the nodes of `p` not marked in `taken`.
std::vector<decomposed_layer_norm> plan_decomposed_layer_norms(const sdk::partition& p,
                                                               const std::vector<bool>& taken);

/// The step computing `norm`, its rows split over the context's threads.
std::unique_ptr<step> decomposed_layer_norm_step(const decomposed_layer_norm& norm,
                                                 const runtime::Context& ctx);

}  // namespace tessera::plugins::cpu
