// graph.cpp: graph objects, node creation, and the graph functions (parameters, query,
// process, schedule, wait).
#include "graph.hpp"

#include <string>

#include "context.hpp"
#include "validate.hpp"

using namespace openvx;

void _vx_graph::release_children() {
    if (scheduled.valid()) scheduled.wait();
    for (_vx_parameter* p : parameters) release_internal(p);
    parameters.clear();
    std::vector<_vx_node*> owned;
    owned.swap(nodes);
    for (_vx_node* n : owned) {
        n->removed = true;
        release_internal(n);
    }
    order.clear();
}

namespace openvx {

void unverify(vx_graph graph) {
    if (!is_valid(graph, VX_TYPE_GRAPH)) return;
    graph->verified = false;
    graph->state = VX_GRAPH_STATE_UNVERIFIED;
    graph->order.clear();
}

vx_node create_node(vx_graph graph, kernel_kind kind, std::vector<node_parameter> params,
                    const node_config& config) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return nullptr;
    auto* node = new _vx_node(graph->context, graph, kind);
    node->params = std::move(params);
    node->config = config;
    if (validator(*node, false).run() != VX_SUCCESS) {
        for (node_parameter& p : node->params) p.ref = nullptr;
        delete node;
        return nullptr;
    }
    for (node_parameter& p : node->params) retain_internal(p.ref);
    register_object(node);
    node->internal_count = 1;  // the graph's
    graph->nodes.push_back(node);
    unverify(graph);
    return node;
}

}  // namespace openvx

VX_API_ENTRY vx_graph VX_API_CALL vxCreateGraph(vx_context context) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return nullptr;
    auto* g = new _vx_graph(context);
    register_object(g);
    return g;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseGraph(vx_graph* graph) {
    return release_external(reinterpret_cast<_vx_reference**>(graph), VX_TYPE_GRAPH);
}

VX_API_ENTRY vx_status VX_API_CALL vxVerifyGraph(vx_graph graph) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
    if (graph->scheduled.valid()) return VX_ERROR_GRAPH_SCHEDULED;
    return verify_graph(graph);
}

VX_API_ENTRY vx_bool VX_API_CALL vxIsGraphVerified(vx_graph graph) {
    api_lock lock(api_mutex());
    return is_valid(graph, VX_TYPE_GRAPH) && graph->verified ? vx_true_e : vx_false_e;
}

VX_API_ENTRY vx_status VX_API_CALL vxProcessGraph(vx_graph graph) {
    {
        api_lock lock(api_mutex());
        if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
        if (graph->scheduled.valid()) return VX_ERROR_GRAPH_SCHEDULED;
        if (!graph->verified) {
            const vx_status s = verify_graph(graph);
            if (s != VX_SUCCESS) return s;
        }
    }
    return execute_graph(graph);
}

VX_API_ENTRY vx_status VX_API_CALL vxScheduleGraph(vx_graph graph) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
    if (graph->scheduled.valid()) return VX_ERROR_GRAPH_SCHEDULED;
    if (!graph->verified) {
        const vx_status s = verify_graph(graph);
        if (s != VX_SUCCESS) return s;
    }
    graph->state = VX_GRAPH_STATE_RUNNING;
    graph->scheduled = std::async(std::launch::async, [graph] { return execute_graph(graph); });
    return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxWaitGraph(vx_graph graph) {
    std::future<vx_status> pending;
    {
        api_lock lock(api_mutex());
        if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
        if (!graph->scheduled.valid()) return VX_FAILURE;
        pending = std::move(graph->scheduled);
    }
    return pending.get();
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryGraph(vx_graph graph, vx_enum attribute, void* ptr,
                                                vx_size size) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_GRAPH_NUMNODES:
            return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(graph->nodes.size()));
        case VX_GRAPH_PERFORMANCE:
            return put<vx_perf_t>(ptr, size, graph->perf);
        case VX_GRAPH_NUMPARAMETERS:
            return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(graph->parameters.size()));
        case VX_GRAPH_STATE:
            return put<vx_enum>(ptr, size, graph->state);
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_status VX_API_CALL vxAddParameterToGraph(vx_graph graph, vx_parameter parameter) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
    auto* p = checked<_vx_parameter>(parameter, VX_TYPE_PARAMETER);
    if (p == nullptr || p->node->graph != graph) {
        log(graph, VX_ERROR_INVALID_PARAMETERS,
            "vxAddParameterToGraph: parameter is not a parameter of a node of this graph");
        return VX_ERROR_INVALID_PARAMETERS;
    }
    retain_internal(p);
    graph->parameters.push_back(p);
    return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetGraphParameterByIndex(vx_graph graph, vx_uint32 index,
                                                              vx_reference value) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return VX_ERROR_INVALID_REFERENCE;
    if (index >= graph->parameters.size()) return VX_ERROR_INVALID_PARAMETERS;
    _vx_parameter* p = graph->parameters[index];
    return vxSetParameterByIndex(p->node, p->index, value);
}

VX_API_ENTRY vx_parameter VX_API_CALL vxGetGraphParameterByIndex(vx_graph graph, vx_uint32 index) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH) || index >= graph->parameters.size()) return nullptr;
    _vx_parameter* p = graph->parameters[index];
    return vxGetParameterByIndex(p->node, p->index);
}
