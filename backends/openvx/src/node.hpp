// node.hpp: nodes (one layer or tensor operation with its parameters and configuration) and
// parameter objects.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "object.hpp"

namespace openvx {

enum class kernel_kind {
    convolution,
    fully_connected,
    normalization,
    pooling,
    softmax,
    activation,
    tensor_add,
    tensor_subtract,
    tensor_multiply,
    table_lookup,
    transpose
};

/// Name of a kernel as logs and the README use it.
const char* kernel_name(kernel_kind kind);

/// The non-reference arguments of a node creator, and what verify derives from them.
struct node_config {
    vx_uint32 pad_x = 0, pad_y = 0;
    vx_uint8 accumulator_bits = 0;
    vx_enum overflow_policy = VX_CONVERT_POLICY_SATURATE;
    vx_enum rounding_policy = VX_ROUND_POLICY_TO_ZERO;
    vx_enum size_rounding = 0;  // vx_convolutional_networks_rounding_type_e
    vx_enum norm_type = 0;
    vx_uint32 norm_size = 0;
    vx_float32 alpha = 0, beta = 0;
    vx_enum pool_type = 0;
    vx_uint32 pool_size_x = 0, pool_size_y = 0;
    vx_enum function = 0;
    vx_int32 a = 0, b = 0;
    vx_uint32 dim1 = 0, dim2 = 0;
    // Derived by validation.
    vx_uint32 skip_x = 1, skip_y = 1;
    vx_uint32 core_dims = 1;  // fully connected: input dims of one item (the rest are the batch)
};

struct node_parameter {
    const char* name;
    vx_enum direction;  // VX_INPUT or VX_OUTPUT
    vx_enum type;       // VX_TYPE_TENSOR, VX_TYPE_SCALAR, VX_TYPE_LUT
    bool optional;
    _vx_reference* ref;  // internal reference, or nullptr
};

}  // namespace openvx

struct _vx_node : _vx_reference {
    _vx_node(vx_context owner, vx_graph parent, openvx::kernel_kind k)
        : _vx_reference(VX_TYPE_NODE, owner), graph(parent), kind(k) {}
    void release_children() override;

    vx_graph graph;  // not a reference: the graph owns its nodes
    openvx::kernel_kind kind;
    std::vector<openvx::node_parameter> params;
    openvx::node_config config;
    vx_nodecomplete_f callback = nullptr;
    vx_status status = VX_SUCCESS;
    vx_perf_t perf{};
    bool removed = false;
    /// Kernel data kept between runs (packed weights, scratch), owned by the kernel that set it.
    mutable std::shared_ptr<void> kernel_cache;
    /// The kernel of the last run (run_node's name), logged when it changes.
    const char* kernel_path = nullptr;
    /// Verify's fusion (graph_plan.cpp): a convolution or fully connected node that also computes
    /// the activation node reading its virtual output (the activation of every int16 value in
    /// `activation_table`); that activation node (`fused`) does nothing at run time.
    _vx_node* fused_activation = nullptr;
    std::vector<std::int16_t> activation_table;
    bool fused = false;
};

struct _vx_parameter : _vx_reference {
    explicit _vx_parameter(vx_context owner) : _vx_reference(VX_TYPE_PARAMETER, owner) {}
    void release_children() override;
    _vx_node* node = nullptr;  // internal reference
    vx_uint32 index = 0;
};
