// tessera/graph/compiled_graph.hpp: a graph placed on backends for one config string, ready to
// run many times with new inputs. compile() asks the chain's backends about each op in order
// (first that accepts wins, strict elements forbid falling back), lets each backend choose
// layouts for "any", inserts a reorder or a host transfer only where neighbours disagree, groups
// consecutive ops of one backend into partitions the backend compiles as a whole, and plans
// memory so intermediate buffers are reused once their last reader has run.
// The plan itself (backends, buffers, partitions) lives in compiled_graph_state.hpp, out of the
// user-facing include path; the member functions are defined in the runtime library
// (implementation.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tessera/c/plugin.h"
#include "tessera/graph/graph.hpp"
#include "tessera/plugin/compile_stats.hpp"
#include "tessera/plugin/registry.hpp"
#include "tessera/tensor.hpp"

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
    std::string note;  ///< what the backend said when accepting it natively, e.g. a precision mode
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
    struct state;  ///< the shared future (compiled_graph_state.hpp)
    explicit run_event(std::shared_ptr<const state> s) : s_(std::move(s)) {}
    void wait() const;
    bool ready() const;
    /// The outputs; rethrows the run's error.
    std::map<std::string, tensor> get() const;

  private:
    std::shared_ptr<const state> s_;
};

/// Thread safety: run() and run_async() may be called from any number of threads at once; the
/// runs of one compiled graph are serialised by an internal mutex (each gets its own outputs),
/// so for runs in parallel compile the graph once per thread. The const accessors
/// (placements(), memory(), backends(), placement_report()) may be called concurrently with
/// runs. Moving or destroying a compiled graph while a run or a run_async event is pending is
/// not allowed. Separate compiled graphs, also of one graph and one plugin, run concurrently.
class compiled_graph {
  public:
    struct state;  ///< the plan (compiled_graph_state.hpp)

    explicit compiled_graph(std::unique_ptr<state> s);
    compiled_graph(const compiled_graph&) = delete;
    compiled_graph& operator=(const compiled_graph&) = delete;
    compiled_graph(compiled_graph&&) noexcept;
    ~compiled_graph();

    /// Runs with the named inputs; returns the named outputs as row-major host tensors. Inputs
    /// may have any addressable layout (tensor_desc.hpp); those not dense with non-negative
    /// strides and no offset are packed to row-major before a backend reads them. Runs of one
    /// compiled graph are serialised; compile twice for concurrent runs.
    std::map<std::string, tensor> run(const std::map<std::string, tensor>& inputs);

    /// Starts a run on another thread. The compiled graph must outlive the event.
    run_event run_async(std::map<std::string, tensor> inputs);

    const std::vector<node_placement>& placements() const;
    /// The partitions in run order, with each backend's compile statistics.
    const std::vector<partition_report>& partitions() const;
    memory_plan_stats memory() const;
    std::vector<std::string> backends() const;

    /// Which backend runs each op and why the others declined, plus inserted conversions. A line
    /// reads "  relu1 [activation] -> cpu: activation(relu)" (the op, then its mode by name).
    /// Then one line per partition with the backend's compile statistics, e.g.
    /// "  partition 1 on cpu: 3 nodes in 1 step, 2 fused, 0 emulated, 0 reorders".
    std::string placement_report() const;

  private:
    std::unique_ptr<state> s_;
};

}  // namespace tessera
