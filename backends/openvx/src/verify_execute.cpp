// verify_execute.cpp: vxVerifyGraph's checks (single writer with overlapping views counting as
// one object, no cycles, virtual tensors written inside the graph, every node valid with virtual
// shapes inferred in dependency order, virtual memory allocated, then graph_plan.cpp's
// optimisations) and the execution of a verified graph (levels of independent nodes run
// concurrently, performance, completion callbacks in execution order, abandon).
#include <tbb/parallel_for.h>

#include <chrono>
#include <string>

#include "graph.hpp"
#include "kernels.hpp"
#include "validate.hpp"

namespace openvx {

namespace {

vx_status graph_error(vx_graph graph, vx_status status, const std::string& message) {
    log(graph, status, "vxVerifyGraph: " + message);
    return status;
}

std::uint64_t now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

void record(vx_perf_t& perf, std::uint64_t begin, std::uint64_t end) {
    perf.beg = begin;
    perf.end = end;
    perf.tmp = end - begin;
    perf.sum += perf.tmp;
    perf.num += 1;
    perf.avg = perf.sum / perf.num;
    perf.min = perf.num == 1 || perf.tmp < perf.min ? perf.tmp : perf.min;
    perf.max = perf.tmp > perf.max ? perf.tmp : perf.max;
}

std::vector<_vx_tensor_t*> tensors_of(const _vx_node* n, vx_enum direction) {
    std::vector<_vx_tensor_t*> out;
    for (const node_parameter& p : n->params) {
        if (p.type == VX_TYPE_TENSOR && p.ref && p.direction == direction) {
            out.push_back(static_cast<_vx_tensor_t*>(p.ref));
        }
    }
    return out;
}

}  // namespace

vx_status verify_graph(vx_graph graph) {
    unverify(graph);
    unplan_graph(graph);
    const std::vector<_vx_node*>& nodes = graph->nodes;
    if (nodes.empty()) return graph_error(graph, VX_ERROR_INVALID_GRAPH, "the graph has no nodes");
    for (_vx_node* n : nodes) {
        for (const node_parameter& p : n->params) {
            if (p.ref == nullptr ? !p.optional : !is_valid(p.ref, p.type)) {
                return graph_error(graph, VX_ERROR_INVALID_REFERENCE,
                                   std::string(kernel_name(n->kind)) + ": " + p.name +
                                       " is not a valid reference");
            }
        }
    }
    // Writers: one per data object, overlapping views of one tensor being one object.
    const std::size_t count = nodes.size();
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = i + 1; j < count; ++j)
            for (_vx_tensor_t* a : tensors_of(nodes[i], VX_OUTPUT))
                for (_vx_tensor_t* b : tensors_of(nodes[j], VX_OUTPUT))
                    if (overlaps(*a, *b)) {
                        return graph_error(graph, VX_ERROR_MULTIPLE_WRITERS,
                                           std::string(kernel_name(nodes[i]->kind)) + " and " +
                                               kernel_name(nodes[j]->kind) +
                                               " write the same tensor data");
                    }
    // Dependencies: writer -> reader of overlapping data; a node reading its own output is a
    // cycle.
    std::vector<std::vector<std::size_t>> next(count);
    std::vector<std::size_t> incoming(count, 0);
    for (std::size_t r = 0; r < count; ++r) {
        for (_vx_tensor_t* input : tensors_of(nodes[r], VX_INPUT)) {
            bool written = false;
            for (std::size_t w = 0; w < count; ++w)
                for (_vx_tensor_t* output : tensors_of(nodes[w], VX_OUTPUT))
                    if (overlaps(*input, *output)) {
                        written = true;
                        if (w == r) {
                            return graph_error(graph, VX_ERROR_INVALID_GRAPH,
                                               std::string(kernel_name(nodes[r]->kind)) +
                                                   " reads the data it writes (a cycle)");
                        }
                        next[w].push_back(r);
                        ++incoming[r];
                    }
            if (input->is_virtual && !written) {
                return graph_error(graph, VX_ERROR_INVALID_GRAPH,
                                   std::string(kernel_name(nodes[r]->kind)) +
                                       " reads a virtual tensor no node of the graph writes");
            }
        }
    }
    std::vector<_vx_node*> order;
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < count; ++i)
        if (incoming[i] == 0) ready.push_back(i);
    for (std::size_t k = 0; k < ready.size(); ++k) {
        order.push_back(nodes[ready[k]]);
        for (std::size_t m : next[ready[k]])
            if (--incoming[m] == 0) ready.push_back(m);
    }
    if (order.size() != count) {
        return graph_error(graph, VX_ERROR_INVALID_GRAPH, "the graph has a cycle");
    }
    // Virtual tensors whose shape an earlier verify inferred are inferred again (inputs or
    // parameters may have changed since).
    for (_vx_node* n : order)
        for (const node_parameter& p : n->params) {
            auto* t = p.type == VX_TYPE_TENSOR ? static_cast<_vx_tensor_t*>(p.ref) : nullptr;
            if (t && t->is_virtual && t->root == t && t->dims != t->declared_dims) {
                t->set_shape(t->declared_dims);
                t->memory.clear();
            }
        }
    for (_vx_node* n : order) {
        const vx_status s = validator(*n, true).run();
        if (s != VX_SUCCESS) {
            n->status = s;
            return s;
        }
        for (const node_parameter& p : n->params) {
            if (p.type == VX_TYPE_TENSOR && p.ref)
                static_cast<_vx_tensor_t*>(p.ref)->root->allocate();
        }
    }
    plan_graph(graph, order);
    for (_vx_node* n : order) prepare_weighted_q78(*n);
    graph->order = std::move(order);
    graph->verified = true;
    graph->state = VX_GRAPH_STATE_VERIFIED;
    return VX_SUCCESS;
}

vx_status execute_graph(vx_graph graph) {
    graph->state = VX_GRAPH_STATE_RUNNING;
    const std::uint64_t begin = now_ns();
    for (const std::vector<_vx_node*>& level : graph->levels) {
        // The nodes of a level do not depend on each other: they run concurrently; then, in
        // execution order, their results are recorded and their callbacks run.
        std::vector<const char*> paths(level.size(), nullptr);
        std::vector<std::uint64_t> starts(level.size()), ends(level.size());
        const auto run_one = [&](std::size_t i) {
            starts[i] = now_ns();
            // A fused activation was computed by the layer before it.
            if (!level[i]->fused) paths[i] = run_node(*level[i]);
            ends[i] = now_ns();
        };
        if (level.size() == 1) {
            run_one(0);
        } else {
            tbb::parallel_for(std::size_t{0}, level.size(), run_one);
        }
        for (std::size_t i = 0; i < level.size(); ++i) {
            _vx_node* n = level[i];
            if (paths[i] != nullptr && paths[i] != n->kernel_path) {
                n->kernel_path = paths[i];
                log(n, VX_SUCCESS,
                    std::string(kernel_name(n->kind)) + ": runs the " + paths[i] + " kernel");
            }
            for (_vx_tensor_t* output : tensors_of(n, VX_OUTPUT)) output->mark_written();
            record(n->perf, starts[i], ends[i]);
            n->status = VX_SUCCESS;
            if (n->callback && n->callback(n) == VX_ACTION_ABANDON) {
                graph->state = VX_GRAPH_STATE_ABANDONED;
                record(graph->perf, begin, now_ns());
                return VX_ERROR_GRAPH_ABANDONED;
            }
        }
    }
    record(graph->perf, begin, now_ns());
    graph->state = VX_GRAPH_STATE_COMPLETED;
    return VX_SUCCESS;
}

}  // namespace openvx
