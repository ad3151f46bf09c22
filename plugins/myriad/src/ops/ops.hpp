// ops/ops.hpp: what the op files share. Each Tessera op the plugin runs becomes one Myriad layer
// request: the layer type the bindings are searched for (the VPU IR's type name), its IR
// parameters as strings, which node inputs are the layer's ports and which are blobs (`Data
// source="weights"`). The query answers by creating the layer on the plugin's runtime (binding
// choice and kernel compilation), so an op is accepted exactly when a binding serves it.
#pragma once

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../backend.hpp"
#include "../layer_request.hpp"
#include "myriad/runtime.h"
#include "tessera/c/plugin.h"
#include "tessera/ops/op_desc.hpp"
#include "tessera/sdk/backend.hpp"
#include "tessera/sdk/op_router.hpp"

namespace tessera::plugins::myriad {

/// The myriad router: a query rule gets the query and the backend (which tries the layer on its
/// runtime), a build rule the node's input and output descriptors and gives the layer request.
using router =
    sdk::op_router<sdk::support(const sdk::op_query& q, const myriad_backend& backend),
                   std::unique_ptr<layer_request>(const std::vector<tensor_desc>& inputs,
                                                  const std::vector<tensor_desc>& outputs)>;

/// A float as an IR parameter value ("%.9g": reads back as the same float).
inline std::string ir_number(float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
    return text;
}

/// The router with every op file's ops stated; the others are declined with TSR_REASON_OP_KIND.
const router& op_routes();

/// States an op whose layer request `describe` builds (throwing op_declined when it has none):
/// the query tries the layer on the backend's runtime, the build returns the request.
template <typename Op>
void state_layer(router& r, layer_request (*describe)(const Op&, const std::vector<tensor_desc>&,
                                                      const std::vector<tensor_desc>&)) {
    r.state<Op>(
        [describe](const Op& o, const sdk::op_query& q, const myriad_backend& backend) {
            try {
                return backend.answer(q, describe(o, q.inputs, q.outputs));
            } catch (const op_declined& e) {
                return sdk::support::declined(e.reason, e.what());
            }
        },
        [describe](const Op& o, const std::vector<tensor_desc>& in,
                   const std::vector<tensor_desc>& out) {
            return std::make_unique<layer_request>(describe(o, in, out));
        });
}

// One function per op file (op_routes() calls them all once).
void state_custom(router& r);          // custom: layer type, attributes, inputs
void state_conv2d(router& r);          // conv2d as Convolution (weights and biases as blobs)
void state_activation(router& r);      // activation as ReLU, Sigmoid, TanH, ELU, Clamp
void state_binary(router& r);          // binary as Eltwise
void state_normalization(router& r);   // layer_norm as MVN, lrn as GRN
void state_resize(router& r);          // resize_bilinear as Resample LINEAR
void state_convert(router& r);         // element-type reorder as Convert
void state_depth_to_space(router& r);  // depth_to_space as DepthToSpace
void state_softmax(router& r);         // softmax as SoftMax

}  // namespace tessera::plugins::myriad
