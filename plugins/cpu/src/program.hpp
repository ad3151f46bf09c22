// program.hpp: a compiled partition of the cpu backend and its parts. Each op's rules (ops/*.cpp)
// are stated on the router: how it answers a query, how its step is built and what part it plays
// in a fused chain (fusion.hpp). A program holds one step per node or fused chain, sharing one
// memory manager so the runtime's temporaries are recycled across the partition's functions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <tessera/cpu/context.hpp>
#include <tessera/cpu/function.hpp>
#include <tessera/cpu/memory.hpp>
#include <tessera/cpu/tensor.hpp>
#include <tessera/sdk/backend.hpp>
#include <tessera/sdk/op_router.hpp>

#include "fusion.hpp"
#include "layouts.hpp"

namespace tessera::plugins::cpu {

using buffers = std::vector<sdk::buffer*>;

/// One step of a compiled partition: a node, or a fused chain.
class step {
  public:
    virtual ~step() = default;
    /// Runs the step with the partition's buffers (indexed by partition tensor id).
    virtual void run(const buffers& b) = 0;
    /// Whether the node runs on the reference kernels rather than the runtime.
    virtual bool emulated() const { return false; }
    /// The partition tensor whose bytes the step's one output holds unchanged (a reshape's
    /// input), the step copying nothing when both are one buffer; -1 for other steps.
    virtual int aliased_input() const { return -1; }
};

/// What a query rule is given: the query as asked, its inputs seen logically (nchw16c inputs as
/// row-major) and its outputs inferred from them.
struct query_view {
    const sdk::op_query& q;
    const descs& in;
    const descs& out;
};

/// One node of a partition with its tensors (what build and fusion rules see).
struct node_view {
    node_view(const sdk::partition& partition, const sdk::node& node);

    const sdk::partition& p;
    const sdk::node& n;
    descs in;   ///< the node's input tensors, in the partition's layouts
    descs out;  ///< its output tensors
};

/// What a build rule is given: the node, the runtime, and the chain the node heads (null unless
/// its fusion role is fusion_stage::head and plan_fusion found followers).
struct build_context {
    const node_view& node;
    const runtime::Context& ctx;
    const std::shared_ptr<runtime::MemoryManager>& memory;
    const fusion_chain* chain = nullptr;
};

/// The cpu router: query rules see a query_view, build rules a build_context, trait rules (the
/// op's fusion role) a node_view.
using router =
    sdk::op_router<sdk::support(const query_view& v), std::unique_ptr<step>(const build_context& b),
                   fusion_role(const node_view& v)>;

/// The router with every op of ops/*.cpp stated; unstated ops run on the reference kernels.
const router& op_routes();

/// The step running node `v` on the reference kernels.
std::unique_ptr<step> reference_step(const node_view& v);

/// The step for a node whose rule chose route `r`: an error for a decline, the reference step
/// for the reference route, else `native()`.
template <typename Native>
std::unique_ptr<step> routed_step(const route_choice& r, const build_context& b, Native native) {
    if (r.how == route::declined)
        throw error(status::unsupported, r.why, {backend_name, b.node.n.name, ""});
    if (r.how == route::reference) return reference_step(b.node);
    return native();
}

/// A step running one configured runtime function on runtime tensors that alias the node's
/// buffers (its inputs, then its outputs), bound to the buffers on every run; prepared on the
/// first run. Ops derive from it and configure the function in their constructor.
class function_step : public step {
  public:
    /// `as_image`: 4-D row-major tensors are seen as nchw images (what Reorder needs).
    explicit function_step(const node_view& v, bool as_image = false);
    void run(const buffers& b) final;

  protected:
    runtime::Tensor& in(int i) { return *tensors_[static_cast<std::size_t>(i)]; }
    runtime::Tensor* optional_in(int i) {
        return i >= 0 ? tensors_[static_cast<std::size_t>(i)].get() : nullptr;
    }
    runtime::Tensor& out() { return *tensors_.back(); }
    void set_function(std::unique_ptr<runtime::IFunction> f) { function_ = std::move(f); }
    /// Runs after the buffers are bound, before the function (e.g. loading an accumulator).
    virtual void before_run() {}

  private:
    std::vector<int> ids_;                                   // inputs then outputs
    std::vector<std::unique_ptr<runtime::Tensor>> tensors_;  // one per id
    std::unique_ptr<runtime::IFunction> function_;
    bool prepared_ = false;
};

class program final : public sdk::executable {
  public:
    program(const sdk::partition& p, const runtime::Context& ctx);
    void execute(const buffers& b) override;
    /// Nodes, steps, nodes fused into a chain's step and nodes on the reference kernels,
    /// counted when the partition was compiled (the SDK counts the reorder nodes).
    compile_stats stats() const override { return stats_; }
    /// The step each node runs in: a chain's, a fused layer norm's or an element-wise pass's
    /// nodes share their step.
    std::vector<int> node_steps() const override { return node_steps_; }
    /// Reshape outputs alias their inputs: the host may give both one buffer.
    std::vector<int> tensor_aliases() const override { return tensor_aliases_; }
    /// With TESSERA_CPU_PROFILE set, prints each step's mean time (wall clock, and CPU time of
    /// the thread running the partition) over the runs after the first (which packs weights) to
    /// stderr, slowest first.
    ~program() override;

  private:
    compile_stats stats_;
    std::vector<int> node_steps_;           // per node: the index of the step that runs it
    std::vector<int> tensor_aliases_;       // per tensor: the tensor it aliases, or -1; or empty
    std::vector<std::string> labels_;       // per step: its first node's name and op
    std::vector<double> step_seconds_;      // per step, summed over runs (profiling only)
    std::vector<double> step_cpu_seconds_;  // the same, CPU time of the thread running it
    int runs_ = 0;                          // profiled runs
    bool profiling_ = false;
    bool ran_ = false;  // the first run (weights packed, not profiled) is done
    std::size_t tensor_count_;
    std::shared_ptr<runtime::MemoryManager> memory_;
    std::vector<std::unique_ptr<step>> steps_;
};

}  // namespace tessera::plugins::cpu
