// program.cpp: the cpu router, the shared step kinds (runtime function, reference kernel), and
// building and running a compiled partition.
#include "program.hpp"

#include <optional>

#include <tessera/cpu/error.hpp>
#include <tessera/reference/execute.hpp>

#include "ops/ops.hpp"
#include "wide_dtypes.hpp"

namespace tessera::plugins::cpu {

namespace {

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
        for (auto state :
             {&state_conv2d, &state_pooling, &state_activation, &state_binary, &state_batchnorm,
              &state_fully_connected, &state_gemm, &state_softmax, &state_matmul,
              &state_data_movement, &state_unary, &state_layer_norm, &state_reduce,
              &state_reorder,
              &state_custom})
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
            role = wide_dtype_route(n.op, v.in, v.out) ? fusion_role{} : routes.trait(n.op, v);
        }
        return *role;
    });
    int fused = 0, emulated = 0;
    for (std::size_t i = 0; i < p.nodes.size(); ++i) {
        const sdk::node& n = p.nodes[i];
        const fusion_chain& chain = chains[i];
        try {
            const node_view v(p, n);
            if (wide_dtype_route(n.op, v.in, v.out)) {
                steps_.push_back(reference_step(v));
                ++emulated;
            } else if (chain.head < 0) {
                steps_.push_back(routes.build(n.op, build_context{v, ctx, memory_, nullptr}));
                emulated += steps_.back()->emulated();
            } else if (chain.head == static_cast<int>(i)) {
                steps_.push_back(routes.build(n.op, build_context{v, ctx, memory_, &chain}));
            } else {
                ++fused;  // runs inside its chain's step
            }
        } catch (const runtime::Error& e) {
            throw error(status::backend_failure, e.what(), {backend_name, n.name, ""});
        }
    }
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
        for (auto& s : steps_) s->run(b);
    } catch (const runtime::Error& e) {
        throw error(status::backend_failure, e.what(), {backend_name, "", ""});
    }
}

}  // namespace tessera::plugins::cpu
