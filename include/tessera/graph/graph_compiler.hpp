// tessera/graph/graph_compiler.hpp: graph_compiler, which turns a verified graph and a config
// string into a compiled_graph: backend resolution, placement, layout negotiation, partitions,
// transfers and the memory plan. See compiled_graph.hpp for the contract.
#pragma once

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tessera/config.hpp"
#include "tessera/graph/compiled_graph.hpp"
#include "tessera/graph/compiled_graph_state.hpp"
#include "tessera/log.hpp"
#include "tessera/plugin/backend.hpp"
#include "tessera/plugin/registry.hpp"

namespace tessera {

class graph_compiler {
  public:
    graph_compiler(graph& g, const std::string& config_text)
        : g_(g), result_(std::make_unique<compiled_graph::state>()), out_(*result_) {
        out_.config_text_ = config_text;
    }

    compiled_graph run() {
        const auto& order = g_.verify();
        resolve_backends(config::parse(out_.config_text_));
        for (int n : order) place_node(g_.nodes()[static_cast<std::size_t>(n)]);
        close_partition();
        for (std::size_t i = 0; i < g_.tensors().size(); ++i) {
            const auto& t = g_.tensors()[i];
            if (!t.is_output) continue;
            const int s = producer_slot(static_cast<graph::tensor_id>(i));
            out_.slots_[s].last_tick = std::max(out_.slots_[s].last_tick, tick_++);
            out_.fetches_.push_back({t.name, *t.desc, s});
        }
        compile_partitions();
        plan_memory();
        upload_constants();
        return compiled_graph(std::move(result_));
    }

  private:
    struct pending_node {
        op_desc op;
        std::string name;
        std::vector<int> inputs;   // slots
        std::vector<int> outputs;  // slots
        int tick = -1;             // its place in the run order, for the memory plan
    };

    // ---- backends -------------------------------------------------------------------------
    void resolve_backends(const config& cfg) {
        auto& registry = plugin_registry::instance();
        if (cfg.is_auto) {
            std::vector<std::pair<int, backend>> found;
            for (const auto& p : registry.plugins()) {
                try {
                    backend b(p.api);
                    found.emplace_back(rank_for_auto(b), std::move(b));
                } catch (const error& e) {
                    log::warn("graph",
                              std::string("auto: skipping '") + p.api->name + "': " + e.what());
                }
            }
            std::stable_sort(found.begin(), found.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            for (auto& f : found) {
                out_.backends_.push_back(std::move(f.second));
                strict_.push_back(false);
            }
            return;
        }
        for (const auto& req : cfg.chain) {
            const tsr_plugin_api* api = registry.find(req.name);
            if (!api) {
                if (req.optional) {
                    log::info("graph", "optional backend '" + req.name + "' is not available");
                    continue;
                }
                throw error(status::not_found,
                            "config \"" + out_.config_text_ + "\" names backend '" + req.name +
                                "', which no plugin provides (mark it optional with '" + req.name +
                                "?').\nLoader report:\n" + registry.report_text(),
                            {req.name, "", ""});
            }
            try {
                out_.backends_.emplace_back(api, req);
                strict_.push_back(req.strict);
            } catch (const error& e) {
                if (!req.optional) throw;
                log::info("graph",
                          "optional backend '" + req.name + "' failed to start: " + e.what());
            }
        }
        if (out_.backends_.empty())
            throw error(status::not_found,
                        "config \"" + out_.config_text_ + "\" leaves no usable backend");
    }

    /// auto's priority: GPUs and accelerators, then CPUs, then emulators, the reference last.
    static int rank_for_auto(const backend& b) {
        if (b.name() == "reference") return 3;
        const auto devices = b.devices();
        const std::string kind = devices.empty() ? "cpu" : devices.front().kind;
        if (kind == "gpu" || kind == "accelerator") return 0;
        if (kind == "emulator") return 2;
        return 1;
    }

    // ---- placement ------------------------------------------------------------------------
    void place_node(const graph::node_info& n) {
        node_placement placement{n.name, std::string(n.op.name()), {}, TSR_SUPPORT_NONE, {},
                                 false,  n.op.describe(),          {}};
        std::vector<tensor_desc> outputs_any;
        for (auto id : n.outputs) outputs_any.push_back(g_.desc(id).with_layout(layout::any()));
        for (std::size_t b = 0; b < out_.backends_.size(); ++b) {
            std::vector<tensor_desc> requested;
            for (auto id : n.inputs) requested.push_back(offered_desc(id, static_cast<int>(b)));
            const op_support s = out_.backends_[b].query(n.op, requested, outputs_any, n.name);
            if (!s.supported()) {
                placement.declined.push_back(out_.backends_[b].name() + ": " + s.text + " (" +
                                             reason_name(s.reason) + ")");
                if (strict_[b]) {
                    throw error(status::unsupported,
                                "strict backend '" + out_.backends_[b].name() +
                                    "' declined: " + s.text + " (" + reason_name(s.reason) + ")",
                                {out_.backends_[b].name(),
                                 n.name + " (" + std::string(n.op.name()) + ")", ""});
                }
                continue;
            }
            placement.backend = out_.backends_[b].name();
            placement.level = s.level;
            if (s.level == TSR_SUPPORT_NATIVE) placement.note = s.text;
            out_.placements_.push_back(placement);
            emit_node(static_cast<int>(b), n, s);
            return;
        }
        std::string why;
        for (const auto& d : placement.declined) why += "\n  " + d;
        throw error(status::unsupported,
                    "no backend in \"" + out_.config_text_ + "\" runs it:" + why,
                    {"", n.name + " (" + std::string(n.op.name()) + ")", ""});
    }

    static std::string reason_name(tsr_reason r) {
        switch (r) {
            case TSR_REASON_NONE:
                return "none";
            case TSR_REASON_OP_KIND:
                return "op kind";
            case TSR_REASON_DTYPE:
                return "dtype";
            case TSR_REASON_LAYOUT:
                return "layout";
            case TSR_REASON_SHAPE:
                return "shape";
            case TSR_REASON_ATTRIBUTE:
                return "attribute";
            case TSR_REASON_DEVICE:
                return "device";
            case TSR_REASON_INVALID:
                return "invalid";
        }
        return "unknown";
    }

    /// The layout a tensor can be offered in to backend b without conversion: the producer's
    /// own layout when the producer runs on b, else the tensor's descriptor, made row-major
    /// when it is not plain (graph::is_plain; run() packs such inputs).
    tensor_desc offered_desc(graph::tensor_id id, int b) const {
        auto it = producer_.find(id);
        if (it != producer_.end() && out_.slots_[it->second].backend == b)
            return out_.slots_[it->second].desc;
        return plain_desc(id);
    }

    /// The tensor's descriptor, row-major when it is not plain (graph::is_plain).
    tensor_desc plain_desc(graph::tensor_id id) const {
        const tensor_desc& d = g_.desc(id);
        return graph::is_plain(d) ? d : d.with_layout(layout::row_major()).with_offset(0);
    }

    void emit_node(int b, const graph::node_info& n, const op_support& s) {
        pending_node p{n.op, n.name, {}, {}};
        for (std::size_t i = 0; i < n.inputs.size(); ++i) {
            const tensor_desc wanted = i < s.inputs.size() ? s.inputs[i] : plain_desc(n.inputs[i]);
            p.inputs.push_back(slot_for(n.inputs[i], b, wanted));
        }
        const int t = tick_++;  // after the conversions slot_for may have emitted
        p.tick = t;
        for (int in : p.inputs) out_.slots_[in].last_tick = std::max(out_.slots_[in].last_tick, t);
        for (std::size_t i = 0; i < n.outputs.size(); ++i) {
            const tensor_desc d = i < s.outputs.size() && !s.outputs[i].is_any()
                                      ? s.outputs[i]
                                      : g_.desc(n.outputs[i]);
            const int slot = new_slot(b, d, n.outputs[i], t);
            out_.slots_[slot].last_tick = t;  // unread outputs die at once
            producer_[n.outputs[i]] = slot;
            copies_[n.outputs[i]].push_back(slot);
            p.outputs.push_back(slot);
        }
        add_to_partition(b, std::move(p));
    }

    /// A slot holding tensor `id` on backend b in layout `wanted`, converting if needed.
    int slot_for(graph::tensor_id id, int b, const tensor_desc& wanted) {
        for (int s : copies_[id])
            if (out_.slots_[s].backend == b && out_.slots_[s].desc == wanted) return s;
        const auto& info = g_.tensors()[static_cast<std::size_t>(id)];
        if (info.role == graph::tensor_role::input) {
            const int s = new_slot(b, wanted, id, -1);
            out_.slots_[s].persistent = true;
            out_.feeds_by_name_[info.name] = static_cast<int>(out_.feeds_.size());
            out_.feeds_.push_back({info.name, *info.desc, s});
            copies_[id].push_back(s);
            return s;
        }
        if (info.role == graph::tensor_role::constant) {
            const int s = new_slot(b, wanted, id, -1);
            out_.slots_[s].persistent = true;
            constant_uploads_.emplace_back(s, info.value);
            copies_[id].push_back(s);
            return s;
        }
        const int from = producer_slot(id);
        if (out_.slots_[from].backend == b) {  // same backend, other layout: try its reorder
            op::reorder r(wanted);
            const op_support rs =
                out_.backends_[b].query(r, {out_.slots_[from].desc}, {wanted}, "reorder");
            if (rs.supported()) {
                const int t = tick_++;
                out_.slots_[from].last_tick = std::max(out_.slots_[from].last_tick, t);
                const int s = new_slot(b, wanted, id, t);
                out_.placements_.push_back(
                    {"reorder(" + info.name + ")",
                     "reorder",
                     out_.backends_[b].name(),
                     rs.level,
                     {out_.slots_[from].desc.to_string() + " -> " + wanted.to_string()},
                     true,
                     "reorder",
                     {}});
                add_to_partition(b, pending_node{r, "reorder(" + info.name + ")", {from}, {s}, t});
                copies_[id].push_back(s);
                return s;
            }
        }
        // Through the host: the producer writes a plain copy, the consumer reads it in.
        close_partition();
        const int t = tick_++;
        out_.slots_[from].last_tick = std::max(out_.slots_[from].last_tick, t);
        const int s = new_slot(b, wanted, id, t);
        const std::string label = "'" + info.name + "' " +
                                  out_.backends_[out_.slots_[from].backend].name() + " [" +
                                  out_.slots_[from].desc.to_string() + "] -> " +
                                  out_.backends_[b].name() + " [" + wanted.to_string() + "]";
        out_.steps_.push_back({compiled_graph::state::step_kind::transfer, out_.transfers_.size()});
        out_.transfers_.push_back(
            {from, s, tensor(info.desc->with_layout(layout::row_major())), label});
        copies_[id].push_back(s);
        return s;
    }

    int producer_slot(graph::tensor_id id) {
        auto it = producer_.find(id);
        if (it == producer_.end()) {  // inputs and constants read back directly
            auto c = copies_.find(id);
            if (c != copies_.end() && !c->second.empty()) return c->second.front();
            // Not read by any node (an identity graph): held on the first backend as given.
            const auto role = g_.tensors()[static_cast<std::size_t>(id)].role;
            if (role != graph::tensor_role::intermediate) return slot_for(id, 0, plain_desc(id));
            throw error(status::invalid_graph, "graph output '" +
                                                   g_.tensors()[static_cast<std::size_t>(id)].name +
                                                   "' is never computed");
        }
        return it->second;
    }

    int new_slot(int b, const tensor_desc& d, graph::tensor_id id, int def_tick) {
        compiled_graph::state::slot s;
        s.backend = b;
        s.desc = d;
        s.tensor = id;
        s.def_tick = def_tick;
        s.last_tick = def_tick;
        out_.slots_.push_back(s);
        return static_cast<int>(out_.slots_.size() - 1);
    }

    // ---- partitions -----------------------------------------------------------------------
    void add_to_partition(int b, pending_node n) {
        if (current_backend_ != b) close_partition();
        current_backend_ = b;
        current_.push_back(std::move(n));
    }

    void close_partition() {
        if (current_.empty()) return;
        open_partitions_.push_back({current_backend_, std::move(current_)});
        out_.steps_.push_back(
            {compiled_graph::state::step_kind::execute, open_partitions_.size() - 1});
        current_.clear();
        current_backend_ = -1;
    }

    void compile_partitions() {
        // Who reads each slot: the partitions whose nodes read it (-1: a transfer or the caller).
        std::map<int, std::vector<int>> readers;
        for (std::size_t k = 0; k < open_partitions_.size(); ++k)
            for (const auto& n : open_partitions_[k].second)
                for (int s : n.inputs) readers[s].push_back(static_cast<int>(k));
        for (const auto& t : out_.transfers_) readers[t.from].push_back(-1);
        for (const auto& f : out_.fetches_) readers[f.slot].push_back(-1);
        for (std::size_t k = 0; k < open_partitions_.size(); ++k) {
            auto& [b, nodes] = open_partitions_[k];
            std::map<int, int> local;  // slot -> partition tensor id
            std::vector<int> slots;
            auto id_of = [&](int slot) {
                auto it = local.find(slot);
                if (it != local.end()) return it->second;
                local[slot] = static_cast<int>(slots.size());
                slots.push_back(slot);
                return static_cast<int>(slots.size() - 1);
            };
            std::deque<std::vector<int>> ids;  // stable storage for the C arrays
            std::deque<std::vector<tsr_tensor_desc>> io;
            std::vector<tsr_node> c_nodes;
            for (auto& n : nodes) {
                auto& in_ids = ids.emplace_back();
                auto& out_ids = ids.emplace_back();
                auto& in_d = io.emplace_back();
                auto& out_d = io.emplace_back();
                for (int s : n.inputs) {
                    in_ids.push_back(id_of(s));
                    in_d.push_back(out_.slots_[s].desc.c_desc());
                }
                for (int s : n.outputs) {
                    out_ids.push_back(id_of(s));
                    out_d.push_back(out_.slots_[s].desc.c_desc());
                }
                tsr_node c{};
                c.struct_size = sizeof c;
                c.op.struct_size = sizeof c.op;
                c.op.kind = n.op.kind();
                c.op.params = n.op.c_params();
                c.op.name = n.name.c_str();
                c.op.num_inputs = static_cast<std::int32_t>(in_d.size());
                c.op.inputs = in_d.data();
                c.op.num_outputs = static_cast<std::int32_t>(out_d.size());
                c.op.outputs = out_d.data();
                c.input_ids = in_ids.data();
                c.output_ids = out_ids.data();
                c_nodes.push_back(c);
            }
            std::vector<tsr_tensor_desc> tensors;
            std::vector<std::uint8_t> flags;
            for (int s : slots) {
                tensors.push_back(out_.slots_[s].desc.c_desc());
                const auto& r = readers[s];
                const bool later = std::any_of(
                    r.begin(), r.end(), [&](int reader) { return reader != static_cast<int>(k); });
                const bool constant =
                    std::any_of(constant_uploads_.begin(), constant_uploads_.end(),
                                [&](const auto& upload) { return upload.first == s; });
                flags.push_back(static_cast<std::uint8_t>((later ? TSR_TENSOR_READ_LATER : 0) |
                                                          (constant ? TSR_TENSOR_CONSTANT : 0)));
            }
            tsr_partition p{};
            p.struct_size = sizeof p;
            p.num_tensors = static_cast<std::int32_t>(tensors.size());
            p.tensors = tensors.data();
            p.num_nodes = static_cast<std::int32_t>(c_nodes.size());
            p.nodes = c_nodes.data();
            p.tensor_flags = flags.data();
            out_.partitions_.push_back({b, slots, compile_partition(b, p, nodes)});
            const compiled_partition& compiled = out_.partitions_.back().compiled;
            widen_lifetimes_to_steps(nodes, compiled.node_steps(static_cast<int>(nodes.size())));
            const std::vector<int> aliases =
                compiled.tensor_aliases(static_cast<int>(slots.size()));
            for (std::size_t id = 0; id < aliases.size(); ++id)
                if (aliases[id] >= 0)
                    out_.slots_[slots[id]].alias = slots[static_cast<std::size_t>(aliases[id])];
            partition_report report{
                out_.backends_[b].name(), {}, out_.partitions_.back().compiled.stats()};
            for (const auto& n : nodes) report.nodes.push_back(n.name);
            out_.partition_reports_.push_back(std::move(report));
        }
    }

    /// Nodes the backend runs as one step (`steps`: the step of each node, empty when each is its
    /// own) may write their outputs before reading all their inputs: every tensor they touch is
    /// made live from the step's first node to its last, so the memory plan never gives a
    /// step's output the buffer of a tensor the same step still reads.
    void widen_lifetimes_to_steps(const std::vector<pending_node>& nodes,
                                  const std::vector<int>& steps) {
        if (steps.size() != nodes.size()) return;
        std::map<int, std::pair<int, int>> span;  // step -> first and last tick of its nodes
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            if (steps[i] < 0) continue;
            auto [it, added] = span.try_emplace(steps[i], nodes[i].tick, nodes[i].tick);
            if (!added) {
                it->second.first = std::min(it->second.first, nodes[i].tick);
                it->second.second = std::max(it->second.second, nodes[i].tick);
            }
        }
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            if (steps[i] < 0) continue;
            const auto [first, last] = span[steps[i]];
            for (int s : nodes[i].inputs)
                out_.slots_[s].last_tick = std::max(out_.slots_[s].last_tick, last);
            for (int s : nodes[i].outputs) {
                out_.slots_[s].def_tick = std::min(out_.slots_[s].def_tick, first);
                out_.slots_[s].last_tick = std::max(out_.slots_[s].last_tick, last);
            }
        }
    }

    /// Compiles one partition. A backend that reports unsupported here had accepted these
    /// nodes at query time, so it is raised as compile_failed, apart from a placement decline;
    /// other codes pass through as the backend gave them.
    compiled_partition compile_partition(int b, const tsr_partition& p,
                                         const std::vector<pending_node>& nodes) const {
        try {
            return out_.backends_[b].compile(p);
        } catch (const error& e) {
            if (e.code() != status::unsupported) throw;
            std::string names;
            for (const auto& n : nodes) names += (names.empty() ? "" : ", ") + n.name;
            throw error(status::compile_failed,
                        "accepted at query time but failed to compile: " + e.message(),
                        {out_.backends_[b].name(), e.op().empty() ? names : e.op(), e.tensor()});
        }
    }

    // ---- memory ---------------------------------------------------------------------------
    void plan_memory() {
        auto& slots = out_.slots_;
        std::vector<int> order(slots.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return slots[a].def_tick < slots[b].def_tick; });
        struct pooled {
            int backend;
            std::int64_t size;
            int free_after;  // tick after which it is free; -1 in use forever
        };
        std::vector<pooled> pool;
        for (int i : order) {
            auto& s = slots[i];
            const std::int64_t bytes = std::max<std::int64_t>(s.desc.size_bytes(), 1);
            out_.stats_.unshared_bytes += bytes;
            ++out_.stats_.tensors;
            if (const int a = shared_alias_buffer(s); a >= 0) {
                // One buffer for both, live until the last use of either.
                auto& p = pool[static_cast<std::size_t>(a)];
                if (p.free_after >= 0)
                    p.free_after = s.persistent ? -1 : std::max(p.free_after, s.last_tick);
                s.buffer = a;
                continue;
            }
            int chosen = -1;
            if (!s.persistent) {
                for (std::size_t k = 0; k < pool.size(); ++k) {
                    const auto& p = pool[k];
                    if (p.backend != s.backend || p.free_after < 0 || p.free_after >= s.def_tick ||
                        p.size < bytes)
                        continue;
                    if (chosen < 0 || p.size < pool[static_cast<std::size_t>(chosen)].size)
                        chosen = static_cast<int>(k);
                }
            }
            if (chosen < 0) {
                pool.push_back({s.backend, bytes, -1});
                chosen = static_cast<int>(pool.size() - 1);
                out_.buffers_.push_back(out_.backends_[s.backend].allocate(bytes));
                out_.stats_.planned_bytes += bytes;
            }
            pool[static_cast<std::size_t>(chosen)].free_after = s.persistent ? -1 : s.last_tick;
            s.buffer = chosen;
        }
        out_.stats_.buffers = static_cast<int>(out_.buffers_.size());
    }

    /// The buffer slot `s` may share with the slot it aliases: that slot's, once planned, on the
    /// same backend and of the same size; -1 otherwise. The aliased slot is defined before `s`
    /// (its reader defines `s`) and lives at least until then, so no slot planned in between
    /// could have taken its buffer.
    int shared_alias_buffer(const compiled_graph::state::slot& s) const {
        if (s.alias < 0) return -1;
        const auto& a = out_.slots_[static_cast<std::size_t>(s.alias)];
        if (a.buffer < 0 || a.backend != s.backend || a.desc.size_bytes() != s.desc.size_bytes())
            return -1;
        return a.buffer;
    }

    void upload_constants() {
        for (const auto& [slot, value] : constant_uploads_) {
            out_.buffers_[static_cast<std::size_t>(out_.slots_[slot].buffer)].copy_from_host(
                value, out_.slots_[slot].desc);
            out_.constants_.push_back(value);
        }
    }

    graph& g_;
    std::unique_ptr<compiled_graph::state> result_;
    compiled_graph::state& out_;  ///< *result_
    std::vector<bool> strict_;
    std::map<graph::tensor_id, int> producer_;
    std::map<graph::tensor_id, std::vector<int>> copies_;
    std::vector<std::pair<int, tensor>> constant_uploads_;
    std::vector<std::pair<int, std::vector<pending_node>>> open_partitions_;
    std::vector<pending_node> current_;
    int current_backend_ = -1;
    int tick_ = 0;
};

}  // namespace tessera
