// ops/ops.hpp: one function per op file stating its ops on the openvx router (program.cpp calls
// them all once), and what the op files share: the query-rule wrapper, the integer policies of an
// op, and Tessera activations as OpenVX activation layers. An op not stated here is declined: the
// Neural Network extension has no node for it.
#pragma once

#include <optional>
#include <string>

#include "../layouts.hpp"
#include "../program.hpp"

namespace tessera::plugins::openvx {

void state_conv2d(router& r);           // conv2d (vxConvolutionLayer)
void state_fully_connected(router& r);  // fully_connected (vxFullyConnectedLayer)
void state_pooling(router& r);          // pooling (vxPoolingLayer)
void state_lrn(router& r);              // lrn (vxNormalizationLayer)
void state_softmax(router& r);          // softmax (vxSoftmaxLayer)
void state_activation(router& r);       // activation (vxActivationLayer)
void state_binary(router& r);           // binary add, sub, mul (vxTensorAdd/Subtract/MultiplyNode)
void state_table_lookup(router& r);     // table_lookup (vxTensorTableLookupNode)
void state_transpose(router& r);        // transpose, permute (vxTensorTransposeNode)

/// A router query rule running `decide` inside the common frame (layouts.hpp).
template <typename Op>
auto framed_rule(sdk::support (*decide)(const Op&, const descs&, const descs&)) {
    return [decide](const Op& o, const sdk::op_query& q, precision p) {
        return framed(q, p, [&](const descs& in, const descs& out) { return decide(o, in, out); });
    };
}

/// A build rule as a plain function.
template <typename Op>
auto build_rule(std::unique_ptr<step> (*build)(const Op&, const sdk::node&, graph_builder&)) {
    return [build](const Op& o, const sdk::node& n, graph_builder& g) { return build(o, n, g); };
}

/// An op's integer policies as OpenVX enums: its own fields on integer tensors; on f32 tensors
/// held as Q7.8, round to nearest even and saturate.
struct vx_policies {
    vx_enum rounding = VX_ROUND_POLICY_TO_NEAREST_EVEN;
    vx_enum overflow = VX_CONVERT_POLICY_SATURATE;
};
vx_policies policies_of(rounding_policy rounding, overflow_policy overflow, const tensor_desc& src);

/// A Tessera activation as an OpenVX activation function with integer a and b.
struct vx_activation {
    vx_enum function = VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU;
    vx_int32 a = 0, b = 0;
};
/// The OpenVX function computing `act`, or nullopt with the reason in `why`.
std::optional<vx_activation> map_activation(const activation_spec& act, std::string* why);
/// Adds an activation layer from `in` to `out`.
void add_activation(graph_builder& g, vx_tensor in, vx_tensor out, const vx_activation& a);

/// Whether a fused activation stores what a separate OpenVX activation layer stores: OpenVX
/// rounds an activation to nearest even and saturates; the fused epilogue uses the op's
/// policies, which agree when they are those, or when the activation is exact (relu, relu6 and
/// bounded relu with an integer bound never round or overflow).
bool fused_activation_agrees(const activation_spec& act, const vx_policies& p);

/// Why OpenVX's window (same padding both sides, stride derived from the sizes) cannot give
/// Tessera's window in one dimension, or nullopt when it gives exactly that window.
std::optional<std::string> window_mismatch(const char* dim, std::int64_t in,
                                           std::int64_t pad_before, std::int64_t pad_after,
                                           std::int64_t kernel, std::int64_t stride,
                                           std::int64_t out, bool ceil);

}  // namespace tessera::plugins::openvx
