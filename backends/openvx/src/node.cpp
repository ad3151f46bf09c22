// node.cpp: node and parameter objects: release, query, callbacks, parameter access.
#include <string>

#include "graph.hpp"
#include "node.hpp"

using namespace openvx;

void _vx_node::release_children() {
    for (node_parameter& p : params) {
        release_internal(p.ref);
        p.ref = nullptr;
    }
}

void _vx_parameter::release_children() {
    release_internal(node);
    node = nullptr;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseNode(vx_node* node) {
    return release_external(reinterpret_cast<_vx_reference**>(node), VX_TYPE_NODE);
}

VX_API_ENTRY vx_status VX_API_CALL vxRemoveNode(vx_node* node) {
    api_lock lock(api_mutex());
    if (node == nullptr || !is_valid(*node, VX_TYPE_NODE)) return VX_ERROR_INVALID_REFERENCE;
    _vx_node* n = *node;
    vx_graph g = n->graph;
    if (!n->removed && is_valid(g, VX_TYPE_GRAPH)) {
        for (auto it = g->nodes.begin(); it != g->nodes.end(); ++it) {
            if (*it == n) {
                g->nodes.erase(it);
                break;
            }
        }
        n->removed = true;
        unverify(g);
        ++n->external_count;  // keep it alive for the release below
        release_internal(n);
        --n->external_count;
    }
    return release_external(reinterpret_cast<_vx_reference**>(node), VX_TYPE_NODE);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryNode(vx_node node, vx_enum attribute, void* ptr,
                                               vx_size size) {
    api_lock lock(api_mutex());
    auto* n = checked<_vx_node>(node, VX_TYPE_NODE);
    if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_NODE_STATUS:
            return put<vx_status>(ptr, size, n->status);
        case VX_NODE_PERFORMANCE:
            return put<vx_perf_t>(ptr, size, n->perf);
        case VX_NODE_PARAMETERS:
            return put<vx_uint32>(ptr, size, static_cast<vx_uint32>(n->params.size()));
        case VX_NODE_LOCAL_DATA_SIZE:
            return put<vx_size>(ptr, size, 0);
        case VX_NODE_IS_REPLICATED:
            return put<vx_bool>(ptr, size, vx_false_e);
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_status VX_API_CALL vxAssignNodeCallback(vx_node node, vx_nodecomplete_f callback) {
    api_lock lock(api_mutex());
    auto* n = checked<_vx_node>(node, VX_TYPE_NODE);
    if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
    if (callback != nullptr && n->callback != nullptr) return VX_ERROR_NOT_SUPPORTED;
    n->callback = callback;
    return VX_SUCCESS;
}

VX_API_ENTRY vx_nodecomplete_f VX_API_CALL vxRetrieveNodeCallback(vx_node node) {
    api_lock lock(api_mutex());
    auto* n = checked<_vx_node>(node, VX_TYPE_NODE);
    return n ? n->callback : nullptr;
}

VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByIndex(vx_node node, vx_uint32 index,
                                                         vx_reference value) {
    api_lock lock(api_mutex());
    auto* n = checked<_vx_node>(node, VX_TYPE_NODE);
    if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
    if (index >= n->params.size()) {
        log(n, VX_ERROR_INVALID_PARAMETERS,
            "vxSetParameterByIndex: index " + std::to_string(index) + " is out of range");
        return VX_ERROR_INVALID_PARAMETERS;
    }
    node_parameter& p = n->params[index];
    if (value == nullptr ? !p.optional : !is_valid(value, p.type)) {
        log(n, VX_ERROR_INVALID_TYPE,
            std::string("vxSetParameterByIndex: value for ") + p.name +
                " is not a valid reference of the parameter's type");
        return VX_ERROR_INVALID_TYPE;
    }
    retain_internal(value);
    release_internal(p.ref);
    p.ref = value;
    unverify(n->graph);
    return VX_SUCCESS;
}

VX_API_ENTRY vx_parameter VX_API_CALL vxGetParameterByIndex(vx_node node, vx_uint32 index) {
    api_lock lock(api_mutex());
    auto* n = checked<_vx_node>(node, VX_TYPE_NODE);
    if (n == nullptr || index >= n->params.size()) return nullptr;
    auto* p = new _vx_parameter(n->context);
    p->node = n;
    p->index = index;
    retain_internal(n);
    register_object(p);
    return p;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseParameter(vx_parameter* param) {
    return release_external(reinterpret_cast<_vx_reference**>(param), VX_TYPE_PARAMETER);
}

VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByReference(vx_parameter parameter,
                                                             vx_reference value) {
    api_lock lock(api_mutex());
    auto* p = checked<_vx_parameter>(parameter, VX_TYPE_PARAMETER);
    if (p == nullptr) return VX_ERROR_INVALID_REFERENCE;
    return vxSetParameterByIndex(p->node, p->index, value);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryParameter(vx_parameter parameter, vx_enum attribute,
                                                    void* ptr, vx_size size) {
    api_lock lock(api_mutex());
    auto* p = checked<_vx_parameter>(parameter, VX_TYPE_PARAMETER);
    if (p == nullptr) return VX_ERROR_INVALID_REFERENCE;
    const node_parameter& np = p->node->params[p->index];
    switch (attribute) {
        case VX_PARAMETER_INDEX:
            return put<vx_uint32>(ptr, size, p->index);
        case VX_PARAMETER_DIRECTION:
            return put<vx_enum>(ptr, size, np.direction);
        case VX_PARAMETER_TYPE:
            return put<vx_enum>(ptr, size, np.type);
        case VX_PARAMETER_STATE:
            return put<vx_enum>(
                ptr, size, np.optional ? VX_PARAMETER_STATE_OPTIONAL : VX_PARAMETER_STATE_REQUIRED);
        case VX_PARAMETER_REF: {
            // The caller owns the returned reference (release it).
            const vx_status s = put<vx_reference>(ptr, size, np.ref);
            if (s == VX_SUCCESS && np.ref) ++np.ref->external_count;
            return s;
        }
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}
