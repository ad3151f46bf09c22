// tessera/graph/compiled_graph.hpp: a graph placed on backends for one config string, ready to
// run many times with new inputs. compile() asks the chain's backends about each op in order
// (first that accepts wins, strict elements forbid falling back), lets each backend choose
// layouts for "any", inserts a reorder or a host transfer only where neighbours disagree, groups
// consecutive ops of one backend into partitions the backend compiles as a whole, and plans
// memory so intermediate buffers are reused once their last reader has run.
#pragma once

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/config.hpp"
#include "tessera/graph/graph.hpp"
#include "tessera/log.hpp"
#include "tessera/plugin/backend.hpp"

namespace tessera {

/// Where one node runs, and why the backends before it declined.
struct node_placement {
    std::string node;
    std::string op;
    std::string backend;
    tsr_support_level level = TSR_SUPPORT_NONE;
    std::vector<std::string> declined;  ///< "backend: reason (code)" in chain order
    bool inserted = false;              ///< a reorder the compiler added
    std::string description;            ///< the op with its mode, e.g. "pooling(max)"
};

/// One partition: the backend that compiled it, its nodes in order, and what the backend made of
/// them (empty when the plugin reports no compile statistics).
struct partition_report {
    std::string backend;
    std::vector<std::string> nodes;
    std::optional<compile_stats> stats;
};

/// Memory the plan uses against what one buffer per tensor would have used.
struct memory_plan_stats {
    std::int64_t planned_bytes = 0;
    std::int64_t unshared_bytes = 0;
    int buffers = 0;
    int tensors = 0;
};

/// A pending asynchronous run.
/// Thread safety: wait(), ready() and get() may be called from several threads at once (a
/// shared future); each get() returns the same outputs.
class run_event {
  public:
    explicit run_event(std::shared_future<std::map<std::string, tensor>> f) : f_(std::move(f)) {}
    void wait() const { f_.wait(); }
    bool ready() const { return f_.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }
    /// The outputs; rethrows the run's error.
    std::map<std::string, tensor> get() const { return f_.get(); }

  private:
    std::shared_future<std::map<std::string, tensor>> f_;
};

/// Thread safety: run() and run_async() may be called from any number of threads at once; the
/// runs of one compiled graph are serialised by an internal mutex (each gets its own outputs),
/// so for runs in parallel compile the graph once per thread. The const accessors
/// (placements(), memory(), backends(), placement_report()) may be called concurrently with
/// runs. Moving or destroying a compiled graph while a run or a run_async event is pending is
/// not allowed. Separate compiled graphs, also of one graph and one plugin, run concurrently.
class compiled_graph {
  public:
    compiled_graph(const compiled_graph&) = delete;
    compiled_graph& operator=(const compiled_graph&) = delete;
    compiled_graph(compiled_graph&&) = default;

    /// Runs with the named inputs; returns the named outputs as row-major host tensors. Inputs
    /// may have any addressable layout (tensor_desc.hpp); those not dense with non-negative
    /// strides and no offset are packed to row-major before a backend reads them. Runs of one
    /// compiled graph are serialised; compile twice for concurrent runs.
    std::map<std::string, tensor> run(const std::map<std::string, tensor>& inputs) {
        std::lock_guard<std::mutex> lock(*run_mutex_);
        for (const auto& [name, t] : inputs) {
            if (!feeds_by_name_.count(name))
                throw error(status::invalid_argument, "'" + name + "' is not a graph input",
                            {"", "", name});
        }
        for (const auto& f : feeds_) {
            auto it = inputs.find(f.name);
            if (it == inputs.end())
                throw error(status::invalid_argument, "input '" + f.name + "' was not given",
                            {"", "", f.name});
            const tensor& t = it->second;
            if (t.dims() != f.logical.dims() || t.type() != f.logical.type()) {
                throw error(status::invalid_argument,
                            "input is " + t.desc().to_string() + ", the graph expects " +
                                f.logical.to_string(),
                            {"", "", f.name});
            }
            // Backends read plain host layouts only: reversed and padded views are packed here.
            const tensor fed = graph::is_plain(t.desc()) ? t : t.clone();
            buffer_of(f.slot).copy_from_host(fed, slots_[f.slot].desc);
        }
        for (const auto& s : steps_) {
            if (s.kind == step_kind::execute) {
                const auto& p = partitions_[s.index];
                std::vector<tsr_buffer> bufs;
                for (int slot : p.slots) bufs.push_back(buffer_of(slot).handle());
                p.compiled.execute(bufs);
            } else {
                const auto& t = transfers_[s.index];
                buffer_of(t.from).copy_to_host(slots_[t.from].desc, t.staging);
                buffer_of(t.to).copy_from_host(t.staging, slots_[t.to].desc);
            }
        }
        std::map<std::string, tensor> outputs;
        for (const auto& o : fetches_) {
            tensor out(o.logical.with_layout(layout::row_major()).with_offset(0));
            buffer_of(o.slot).copy_to_host(slots_[o.slot].desc, out);
            outputs.emplace(o.name, out);
        }
        return outputs;
    }

    /// Starts a run on another thread. The compiled graph must outlive the event.
    run_event run_async(std::map<std::string, tensor> inputs) {
        return run_event(std::async(std::launch::async, [this, in = std::move(inputs)] {
                             return run(in);
                         }).share());
    }

    const std::vector<node_placement>& placements() const { return placements_; }
    /// The partitions in run order, with each backend's compile statistics.
    const std::vector<partition_report>& partitions() const { return partition_reports_; }
    memory_plan_stats memory() const { return stats_; }
    std::vector<std::string> backends() const {
        std::vector<std::string> names;
        for (const auto& b : backends_) names.push_back(b.name());
        return names;
    }

    /// Which backend runs each op and why the others declined, plus inserted conversions. A line
    /// reads "  relu1 [activation] -> cpu: activation(relu)" (the op, then its mode by name).
    /// Then one line per partition with the backend's compile statistics, e.g.
    /// "  partition 1 on cpu: 3 nodes in 1 step, 2 fused, 0 emulated, 0 reorders".
    std::string placement_report() const {
        std::string s = "placement for \"" + config_text_ + "\" (chain:";
        for (const auto& b : backends_) s += " " + b.name();
        s += ")\n";
        for (const auto& p : placements_) {
            s += "  " + p.node + " [" + p.op + "] -> " + p.backend +
                 (p.level == TSR_SUPPORT_EMULATED ? " (emulated)" : "") +
                 (p.inserted ? " (inserted)" : "") +
                 (p.description.empty() || p.description == p.op ? "" : ": " + p.description) +
                 "\n";
            for (const auto& d : p.declined) s += "      declined by " + d + "\n";
        }
        for (std::size_t k = 0; k < partition_reports_.size(); ++k) {
            const partition_report& r = partition_reports_[k];
            s += "  partition " + std::to_string(k + 1) + " on " + r.backend + ": " +
                 (r.stats ? r.stats->to_string()
                          : std::to_string(r.nodes.size()) +
                                (r.nodes.size() == 1 ? " node" : " nodes") +
                                " (the plugin reports no compile statistics)") +
                 "\n";
        }
        for (const auto& t : transfers_) s += "  transfer " + t.label + "\n";
        s += "  memory: " + std::to_string(stats_.buffers) + " buffers, " +
             std::to_string(stats_.planned_bytes) + " bytes for " + std::to_string(stats_.tensors) +
             " tensors needing " + std::to_string(stats_.unshared_bytes) + " bytes unshared\n";
        return s;
    }

  private:
    friend class graph;
    friend class graph_compiler;

    enum class step_kind { execute, transfer };
    struct step {
        step_kind kind;
        std::size_t index;
    };
    struct slot {
        int backend = 0;
        tensor_desc desc;
        graph::tensor_id tensor = -1;
        int def_tick = -1;
        int last_tick = -1;
        bool persistent = false;
        int buffer = -1;
    };
    struct partition_plan {
        int backend = 0;
        std::vector<int> slots;  ///< partition tensor id -> slot
        compiled_partition compiled;
    };
    struct transfer_plan {
        int from = 0;
        int to = 0;
        tensor staging;
        std::string label;
    };
    struct feed {
        std::string name;
        tensor_desc logical;
        int slot = 0;
    };
    struct fetch {
        std::string name;
        tensor_desc logical;
        int slot = 0;
    };

    compiled_graph() : run_mutex_(std::make_unique<std::mutex>()) {}

    const buffer& buffer_of(int slot) const {
        return buffers_[static_cast<std::size_t>(slots_[slot].buffer)];
    }

    std::string config_text_;
    std::vector<backend> backends_;
    std::vector<slot> slots_;
    std::vector<buffer> buffers_;
    std::vector<partition_plan> partitions_;
    std::vector<transfer_plan> transfers_;
    std::vector<step> steps_;
    std::vector<feed> feeds_;
    std::map<std::string, int> feeds_by_name_;
    std::vector<fetch> fetches_;
    std::vector<node_placement> placements_;
    std::vector<partition_report> partition_reports_;
    std::vector<tensor> constants_;
    memory_plan_stats stats_;
    std::unique_ptr<std::mutex> run_mutex_;
};

}  // namespace tessera

#include "tessera/graph/graph_compiler.hpp"
