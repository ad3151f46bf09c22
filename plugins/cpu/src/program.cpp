// program.cpp: the cpu router, the shared step kinds (runtime function, reference kernel), and
// building and running a compiled partition.
#include "program.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>

#include <tessera/cpu/error.hpp>
#include <tessera/reference/execute.hpp>

#include "elementwise_chain.hpp"
#include "f32_staging.hpp"
#include "layer_norm_pattern.hpp"
#include "ops/ops.hpp"
#include "wide_dtypes.hpp"

namespace tessera::plugins::cpu {

namespace {

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

class reference_kernel_step final : public step {
  public:
    explicit reference_kernel_step(const node_view& v) : node_(v.n), in_(v.in), out_(v.out) {}

    void run(const buffers& b) override {
        std::vector<tensor> in, out;
        for (std::size_t i = 0; i < in_.size(); ++i)
            in.push_back(tensor::borrow(in_[i], b[node_.inputs[i]]->host_data()));
        for (std::size_t i = 0; i < out_.size(); ++i)
            out.push_back(tensor::borrow(out_[i], b[node_.outputs[i]]->host_data()));
        reference::execute(node_.op, in, out);
    }
    bool emulated() const override { return true; }

  private:
    sdk::node node_;
    descs in_, out_;
};

/// Ops without a rule of their own: the reference kernel, on row-major tensors.
route_choice no_runtime_function(const op_desc& o) {
    return {route::reference, TSR_REASON_OP_KIND,
            std::string(o.name()) + " has no runtime function"};
}

/// Gives the nodes run inside another node's step (a chain's members, a layer norm's or an
/// element-wise pass's later nodes) that step's index in `steps`.
void share_steps(std::vector<int>& steps, const std::vector<fusion_chain>& chains,
                 const std::vector<decomposed_layer_norm>& norms,
                 const std::vector<elementwise_chain>& passes) {
    const auto share = [&](std::size_t member, std::size_t owner) { steps[member] = steps[owner]; };
    for (std::size_t i = 0; i < chains.size(); ++i)
        if (chains[i].head >= 0) share(i, static_cast<std::size_t>(chains[i].head));
    for (const auto& norm : norms)
        for (int k = 1; k < norm.count; ++k)
            share(static_cast<std::size_t>(norm.first + k), static_cast<std::size_t>(norm.first));
    for (const auto& pass : passes)
        for (std::size_t k = 1; k < pass.nodes.size(); ++k)
            share(static_cast<std::size_t>(pass.first) + k, static_cast<std::size_t>(pass.first));
}

}  // namespace

node_view::node_view(const sdk::partition& partition, const sdk::node& node)
    : p(partition), n(node) {
    for (int id : n.inputs) in.push_back(p.tensors[static_cast<std::size_t>(id)]);
    for (int id : n.outputs) out.push_back(p.tensors[static_cast<std::size_t>(id)]);
}

std::unique_ptr<step> reference_step(const node_view& v) {
    return std::make_unique<reference_kernel_step>(v);
}

function_step::function_step(const node_view& v, bool as_image) {
    ids_ = v.n.inputs;
    ids_.insert(ids_.end(), v.n.outputs.begin(), v.n.outputs.end());
    for (int id : ids_) {
        auto t = std::make_unique<runtime::Tensor>(
            runtime_info(v.p.tensors[static_cast<std::size_t>(id)], as_image));
        t->info().set_resizable(false);  // sizes are fixed: the host allocated the buffers
        tensors_.push_back(std::move(t));
    }
}

void function_step::run(const buffers& b) {
    for (std::size_t i = 0; i < ids_.size(); ++i) {
        sdk::buffer& buffer = *b[static_cast<std::size_t>(ids_[i])];
        tensors_[i]->allocator().import_memory(buffer.host_data(),
                                               static_cast<std::size_t>(buffer.size()));
    }
    before_run();
    if (!prepared_) {
        function_->prepare();
        prepared_ = true;
    }
    function_->run();
}

const router& op_routes() {
    static const router routes = [] {
        router r(backend_name);
        for (auto state : {&state_conv2d,
                           &state_pooling,
                           &state_activation,
                           &state_binary,
                           &state_batchnorm,
                           &state_fully_connected,
                           &state_gemm,
                           &state_softmax,
                           &state_matmul,
                           &state_data_movement,
                           &state_unary,
                           &state_layer_norm,
                           &state_cumsum,
                           &state_topk,
                           &state_slice,
                           &state_gather,
                           &state_concat,
                           &state_expand_tile,
                           &state_pad,
                           &state_depth_to_space,
                           &state_reduce,
                           &state_reorder,
                           &state_custom,
                           &state_compare,
                           &state_logical,
                           &state_where,
                           &state_gather_elements,
                           &state_recurrent,
                           &state_resize_bilinear,
                           &state_lrn,
                           &state_statistics,
                           &state_fill,
                           &state_table_lookup})
            state(r);
        r.emulate_others(
            [](const op_desc& o, const query_view& v) {
                return answer(no_runtime_function(o), v.in, v.out);
            },
            [](const op_desc&, const build_context& b) { return reference_step(b.node); });
        return r;
    }();
    return routes;
}

program::program(const sdk::partition& p, const runtime::Context& ctx)
    : tensor_count_(p.tensors.size()), memory_(ctx.memory_manager()) {
    const router& routes = op_routes();
    std::vector<std::optional<fusion_role>> roles(p.nodes.size());
    const std::vector<fusion_chain> chains = plan_fusion(p, [&](int i) {
        auto& role = roles[static_cast<std::size_t>(i)];
        if (!role) {
            const sdk::node& n = p.nodes[static_cast<std::size_t>(i)];
            const node_view v(p, n);
            const bool alone = wide_dtype_route(n.op, v.in, v.out) || stages(n.op, v.in, v.out);
            role = alone ? fusion_role{} : routes.trait(n.op, v);
        }
        return *role;
    });
    std::vector<bool> taken(p.nodes.size());
    for (std::size_t i = 0; i < p.nodes.size(); ++i) taken[i] = chains[i].head >= 0;
    // Decomposed layer norms, by first node; their other nodes skipped.
    std::vector<const decomposed_layer_norm*> norm_at(p.nodes.size());
    const std::vector<decomposed_layer_norm> norms = plan_decomposed_layer_norms(p, taken);
    for (const auto& norm : norms) {
        for (int k = 0; k < norm.count; ++k) taken[static_cast<std::size_t>(norm.first + k)] = true;
        norm_at[static_cast<std::size_t>(norm.first)] = &norm;
    }
    // Element-wise runs outside the convolution chains, by first node; their other nodes skipped.
    std::vector<const elementwise_chain*> pass_at(p.nodes.size());
    const std::vector<elementwise_chain> passes = plan_elementwise_chains(p, taken);
    for (const auto& pass : passes) {
        for (std::size_t k = 0; k < pass.nodes.size(); ++k)
            taken[static_cast<std::size_t>(pass.first) + k] = true;
        pass_at[static_cast<std::size_t>(pass.first)] = &pass;
    }
    int fused = 0, emulated = 0;
    node_steps_.assign(p.nodes.size(), -1);
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        const sdk::node& n = p.nodes[i];
        const fusion_chain& chain = chains[i];
        const std::size_t before = steps_.size();
        try {
            const node_view v(p, n);
            if (norm_at[i]) {
                steps_.push_back(decomposed_layer_norm_step(*norm_at[i], ctx));
            } else if (pass_at[i]) {
                steps_.push_back(elementwise_chain_step(*pass_at[i], ctx));
            } else if (chain.head < 0 && taken[i]) {
                ++fused;  // runs inside its element-wise pass or layer norm
            } else if (wide_dtype_route(n.op, v.in, v.out)) {
                steps_.push_back(reference_step(v));
                ++emulated;
            } else if (chain.head < 0) {
                const build_context b{v, ctx, memory_, nullptr};
                auto staged = staged_step(routes, b);
                steps_.push_back(staged ? std::move(staged) : routes.build(n.op, b));
                emulated += steps_.back()->emulated();
            } else if (chain.head == static_cast<int>(i)) {
                steps_.push_back(routes.build(n.op, build_context{v, ctx, memory_, &chain}));
            } else {
                ++fused;  // runs inside its chain's step
            }
        } catch (const runtime::Error& e) {
            throw error(status::backend_failure, e.what(), {backend_name, n.name, ""});
        }
        if (steps_.size() > before) {
            labels_.push_back(n.name + " [" + n.op.describe() + "]");
            node_steps_[i] = static_cast<int>(steps_.size() - 1);
            if (const int source = steps_.back()->aliased_input(); source >= 0) {
                tensor_aliases_.resize(p.tensors.size(), -1);
                tensor_aliases_[static_cast<std::size_t>(n.outputs[0])] = source;
            }
        }
    }
    share_steps(node_steps_, chains, norms, passes);
    profiling_ = std::getenv("TESSERA_CPU_PROFILE") != nullptr;
    step_seconds_.assign(steps_.size(), 0.0);
    step_cpu_seconds_.assign(steps_.size(), 0.0);
    stats_.nodes = static_cast<int>(p.nodes.size());
    stats_.steps = static_cast<int>(steps_.size());
    stats_.fused_nodes = fused;
    stats_.emulated_nodes = emulated;
}

void program::execute(const buffers& b) {
    if (b.size() != tensor_count_) {
        throw error(status::invalid_argument,
                    "expected " + std::to_string(tensor_count_) + " buffers, got " +
                        std::to_string(b.size()),
                    {backend_name, "", ""});
    }
    for (auto* buffer : b)
        if (!buffer || !buffer->host_data())
            throw error(status::invalid_argument, "a buffer is missing", {backend_name, "", ""});
    try {
        if (!profiling_ || !ran_) {
            for (auto& s : steps_) s->run(b);
            ran_ = true;
            return;
        }
        for (std::size_t i = 0; i < steps_.size(); ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = thread_cpu_seconds();
            steps_[i]->run(b);
            step_seconds_[i] +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            step_cpu_seconds_[i] += thread_cpu_seconds() - c0;
        }
        ++runs_;
    } catch (const runtime::Error& e) {
        throw error(status::backend_failure, e.what(), {backend_name, "", ""});
    }
}

program::~program() {
    if (!profiling_ || runs_ == 0) return;
    std::vector<std::size_t> order(steps_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return step_seconds_[a] > step_seconds_[b]; });
    double total = 0, cpu = 0;
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        total += step_seconds_[i];
        cpu += step_cpu_seconds_[i];
    }
    std::fprintf(stderr,
                 "cpu profile: %zu steps, %.3f ms per run, %.3f ms CPU time of the calling thread "
                 "(%d runs after the first)\n",
                 steps_.size(), total * 1e3 / runs_, cpu * 1e3 / runs_, runs_);
    for (std::size_t i : order)
        std::fprintf(stderr, "  %8.3f ms  %5.1f%%  cpu %8.3f ms  %s\n",
                     step_seconds_[i] * 1e3 / runs_, 100.0 * step_seconds_[i] / total,
                     step_cpu_seconds_[i] * 1e3 / runs_, labels_[i].c_str());
}

}  // namespace tessera::plugins::cpu
