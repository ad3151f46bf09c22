// graph_plan.cpp: what vxVerifyGraph does to a valid graph to run it faster, each step logged
// with status VX_SUCCESS and a count:
// - fusion: an activation whose input is a virtual int16 tensor that one convolution or fully
//   connected node writes (as a whole) and nothing else reads is computed by that node, through
//   a table of the activation of every int16 value (the activation kernel's own arithmetic, so
//   results are unchanged); the activation node then does nothing at run time;
// - levels: the execution order split into levels of nodes that do not depend on each other,
//   run concurrently (oneTBB);
// - memory: virtual tensors written as a whole by one node share memory when their lifetimes
//   (first to last level using them) do not overlap.
// Views need no copies: a node writing a view writes its root's memory in place, so results
// merged through views of one tensor (and layers split through views) are never copied.
#include <algorithm>
#include <string>

#include "graph.hpp"
#include "kernels.hpp"
#include "tensor.hpp"

namespace openvx {

namespace {

std::vector<_vx_tensor_t*> tensors_with(const _vx_node* n, vx_enum direction) {
    std::vector<_vx_tensor_t*> out;
    for (const node_parameter& p : n->params) {
        if (p.type == VX_TYPE_TENSOR && p.ref && p.direction == direction) {
            out.push_back(static_cast<_vx_tensor_t*>(p.ref));
        }
    }
    return out;
}

bool reads_overlapping(const _vx_node* n, const _vx_tensor_t* t) {
    for (_vx_tensor_t* in : tensors_with(n, VX_INPUT))
        if (overlaps(*in, *t)) return true;
    return false;
}

bool writes_overlapping(const _vx_node* n, const _vx_tensor_t* t) {
    for (_vx_tensor_t* out : tensors_with(n, VX_OUTPUT))
        if (overlaps(*out, *t)) return true;
    return false;
}

/// Fuses activations into their producers; returns how many.
int fuse_activations(const std::vector<_vx_node*>& order) {
    int fused = 0;
    for (_vx_node* act : order) {
        if (act->kind != kernel_kind::activation) continue;
        auto* t = static_cast<_vx_tensor_t*>(act->params[0].ref);
        const auto* act_out = static_cast<const _vx_tensor_t*>(act->params[1].ref);
        if (!t->is_virtual || t->root != t || t->data_type != VX_TYPE_INT16 ||
            act_out->data_type != VX_TYPE_INT16) {
            continue;
        }
        _vx_node* producer = nullptr;
        bool other_use = false;
        for (_vx_node* n : order) {
            if (n == act) continue;
            const bool layer =
                n->kind == kernel_kind::convolution || n->kind == kernel_kind::fully_connected;
            if (layer && n->params[3].ref == t) {
                producer = n;
            } else if (writes_overlapping(n, t)) {
                other_use = true;
            }
            if (reads_overlapping(n, t)) other_use = true;
        }
        if (producer == nullptr || other_use || producer->fused_activation != nullptr) continue;
        producer->activation_table.resize(65536);
        for (std::int64_t raw = -32768; raw <= 32767; ++raw) {
            producer->activation_table[static_cast<std::size_t>(raw + 32768)] =
                static_cast<std::int16_t>(activation_raw(*act, raw));
        }
        producer->fused_activation = act;
        act->fused = true;
        ++fused;
    }
    return fused;
}

/// Levels: a node's level is one more than the highest level of the nodes it depends on.
std::vector<std::vector<_vx_node*>> split_levels(const std::vector<_vx_node*>& order) {
    std::vector<std::size_t> level(order.size(), 0);
    std::vector<std::vector<_vx_node*>> levels;
    for (std::size_t i = 0; i < order.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            bool depends = false;
            for (_vx_tensor_t* out : tensors_with(order[j], VX_OUTPUT))
                depends = depends || reads_overlapping(order[i], out);
            if (depends) level[i] = std::max(level[i], level[j] + 1);
        }
        if (levels.size() <= level[i]) levels.resize(level[i] + 1);
        levels[level[i]].push_back(order[i]);
    }
    return levels;
}

struct lifetime {
    _vx_tensor_t* tensor;
    std::size_t first, last, bytes;
};

/// Shares memory between virtual tensors; logs the counts.
void plan_memory(vx_graph graph, const std::vector<std::vector<_vx_node*>>& levels) {
    std::vector<lifetime> lives;
    for (std::size_t l = 0; l < levels.size(); ++l)
        for (_vx_node* n : levels[l])
            for (const node_parameter& p : n->params) {
                if (p.type != VX_TYPE_TENSOR || p.ref == nullptr) continue;
                _vx_tensor_t* root = static_cast<_vx_tensor_t*>(p.ref)->root;
                if (!root->is_virtual) continue;
                auto it = std::find_if(lives.begin(), lives.end(),
                                       [&](const lifetime& x) { return x.tensor == root; });
                if (it == lives.end()) {
                    lives.push_back({root, l, l, root->num_elements() * root->element_size});
                } else {
                    it->first = std::min(it->first, l);
                    it->last = std::max(it->last, l);
                }
            }
    // Only tensors one node writes as a whole: every run rewrites all their elements before
    // anything reads them, so what another tensor left in the memory never shows.
    lives.erase(std::remove_if(lives.begin(), lives.end(),
                               [&](const lifetime& x) {
                                   int writers = 0;
                                   bool whole = false;
                                   for (const auto& level : levels)
                                       for (_vx_node* n : level)
                                           for (_vx_tensor_t* out : tensors_with(n, VX_OUTPUT))
                                               if (out->root == x.tensor) {
                                                   ++writers;
                                                   whole = out == x.tensor;
                                               }
                                   return writers != 1 || !whole;
                               }),
                lives.end());
    if (lives.empty()) return;
    std::stable_sort(lives.begin(), lives.end(),
                     [](const lifetime& a, const lifetime& b) { return a.first < b.first; });
    struct buffer {
        std::size_t free_after, bytes;
        std::vector<_vx_tensor_t*> tensors;
    };
    std::vector<buffer> buffers;
    std::size_t separate = 0;
    for (const lifetime& x : lives) {
        separate += x.bytes;
        buffer* best = nullptr;
        for (buffer& b : buffers)
            if (b.free_after < x.first && (best == nullptr || b.bytes > best->bytes)) best = &b;
        if (best == nullptr) {
            buffers.push_back({x.last, 0, {}});
            best = &buffers.back();
        }
        best->free_after = x.last;
        best->bytes = std::max(best->bytes, x.bytes);
        best->tensors.push_back(x.tensor);
    }
    std::size_t shared = 0;
    for (const buffer& b : buffers) {
        auto memory = std::make_shared<std::vector<std::uint8_t>>(b.bytes, 0);
        shared += b.bytes;
        for (_vx_tensor_t* t : b.tensors) {
            t->memory.clear();
            t->memory.shrink_to_fit();
            t->planned = memory;
            t->mark_written();
        }
    }
    log(graph, VX_SUCCESS,
        "vxVerifyGraph: " + std::to_string(lives.size()) + " virtual tensors in " +
            std::to_string(buffers.size()) + " buffers (" + std::to_string(shared) + " of " +
            std::to_string(separate) + " bytes)");
}

}  // namespace

void unplan_graph(vx_graph graph) {
    for (_vx_node* n : graph->nodes) {
        n->fused_activation = nullptr;
        n->activation_table.clear();
        n->fused = false;
        for (const node_parameter& p : n->params) {
            if (p.type != VX_TYPE_TENSOR || p.ref == nullptr) continue;
            _vx_tensor_t* root = static_cast<_vx_tensor_t*>(p.ref)->root;
            if (root->planned) {
                root->planned.reset();
                root->mark_written();
            }
        }
    }
    graph->levels.clear();
}

void plan_graph(vx_graph graph, const std::vector<_vx_node*>& order) {
    const int fused = fuse_activations(order);
    if (fused > 0) {
        log(graph, VX_SUCCESS,
            "vxVerifyGraph: " + std::to_string(fused) + " activations fused into the layer before");
    }
    graph->levels = split_levels(order);
    std::size_t widest = 0;
    for (const auto& level : graph->levels) widest = std::max(widest, level.size());
    log(graph, VX_SUCCESS,
        "vxVerifyGraph: " + std::to_string(order.size()) + " nodes in " +
            std::to_string(graph->levels.size()) + " levels (up to " + std::to_string(widest) +
            " run concurrently)");
    plan_memory(graph, graph->levels);
}

}  // namespace openvx
