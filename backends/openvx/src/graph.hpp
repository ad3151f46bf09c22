// graph.hpp: the graph object: its nodes, parameters, verification state and the execution
// order verify computes.
#pragma once

#include <future>
#include <vector>

#include "node.hpp"
#include "object.hpp"

struct _vx_graph : _vx_reference {
    explicit _vx_graph(vx_context owner) : _vx_reference(VX_TYPE_GRAPH, owner) {}
    void release_children() override;

    std::vector<_vx_node*> nodes;            // internal references
    std::vector<_vx_parameter*> parameters;  // internal references (graph parameters)
    std::vector<_vx_node*> order;            // execution order, valid while verified
    /// The order split into levels whose nodes do not depend on each other (run concurrently).
    std::vector<std::vector<_vx_node*>> levels;
    bool verified = false;
    vx_enum state = VX_GRAPH_STATE_UNVERIFIED;
    vx_perf_t perf{};
    std::future<vx_status> scheduled;
};

namespace openvx {

/// Marks a graph unverified (a node added or a parameter changed).
void unverify(vx_graph graph);

/// Verifies the graph (the lock is held).
vx_status verify_graph(vx_graph graph);

/// Runs a verified graph's nodes in order (without the lock).
vx_status execute_graph(vx_graph graph);

/// Verify's optimisations of a validated graph in execution order (graph_plan.cpp): fuses
/// activations into the convolution / fully connected node writing their virtual input, splits
/// the order into levels of independent nodes, and lets virtual tensors whose lifetimes do not
/// overlap share memory. Each is logged (status VX_SUCCESS) with what it did.
void plan_graph(vx_graph graph, const std::vector<_vx_node*>& order);

/// Undoes plan_graph's fusion and memory sharing (a graph being verified again).
void unplan_graph(vx_graph graph);

/// Creates a node of `kind` in `graph` with `params` (references are retained internally) after
/// validating what is known now; nullptr (and a log entry) when the arguments are invalid.
vx_node create_node(vx_graph graph, kernel_kind kind, std::vector<node_parameter> params,
                    const node_config& config);

}  // namespace openvx
