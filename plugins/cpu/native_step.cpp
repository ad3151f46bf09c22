// native_step.cpp: configuring runtime functions for Tessera ops, and the reference fallback.
#include "native_step.hpp"

#include <cstring>

#include <tessera/cpu/functions/activation.hpp>
#include <tessera/cpu/functions/batch_norm.hpp>
#include <tessera/cpu/functions/conv2d.hpp>
#include <tessera/cpu/functions/depthwise_conv2d.hpp>
#include <tessera/cpu/functions/elementwise.hpp>
#include <tessera/cpu/functions/gemm.hpp>
#include <tessera/cpu/functions/pooling.hpp>
#include <tessera/cpu/functions/reorder.hpp>
#include <tessera/cpu/functions/softmax.hpp>
#include <tessera/reference/execute.hpp>

#include "blocked_layout.hpp"
#include "op_mapping.hpp"

namespace tessera::cpu_plugin {

namespace {

class reference_step final : public step {
  public:
    reference_step(const sdk::partition& p, const sdk::node& n) : node_(n) {
        for (int id : n.inputs) in_.push_back(p.tensors[id]);
        for (int id : n.outputs) out_.push_back(p.tensors[id]);
    }
    void run(const std::vector<sdk::buffer*>& b) override {
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
    std::vector<tensor_desc> in_, out_;
};

class native_step final : public step {
  public:
    native_step(const sdk::partition& p, const sdk::node& n, const cpu::Context& ctx,
                const std::shared_ptr<cpu::MemoryManager>& memory)
        : node_(n) {
        const bool as_image = n.op.kind() == TSR_OP_REORDER;
        for (int id : n.inputs) tensors_.push_back(make_tensor(p.tensors[id], as_image));
        for (int id : n.outputs) tensors_.push_back(make_tensor(p.tensors[id], as_image));
        configure(p, ctx, memory);
    }

    void run(const std::vector<sdk::buffer*>& b) override {
        std::size_t t = 0;
        for (int id : node_.inputs) bind(*tensors_[t++], *b[id]);
        for (int id : node_.outputs) bind(*tensors_[t++], *b[id]);
        load_gemm_c();
        if (!prepared_) {
            function_->prepare();
            prepared_ = true;
        }
        function_->run();
    }

  private:
    static std::unique_ptr<cpu::Tensor> make_tensor(const tensor_desc& d, bool as_image) {
        auto t = std::make_unique<cpu::Tensor>(runtime_info(d, as_image));
        t->info().set_resizable(false);  // sizes are fixed: the host allocated the buffers
        return t;
    }
    static void bind(cpu::Tensor& t, sdk::buffer& b) {
        t.allocator().import_memory(b.host_data(), static_cast<std::size_t>(b.size()));
    }
    cpu::Tensor& in(int i) { return *tensors_[static_cast<std::size_t>(i)]; }
    cpu::Tensor* optional_in(int i) {
        return i >= 0 ? tensors_[static_cast<std::size_t>(i)].get() : nullptr;
    }
    cpu::Tensor& out() { return *tensors_.back(); }

    /// gemm's D = alpha*A*B + beta*C accumulates into D, so C is loaded into D first: copied
    /// when it is [M, N], repeated on every row when it is [N].
    void load_gemm_c() {
        if (gemm_c_ == gemm_c::none) return;
        const cpu::Tensor& c = in(2);
        auto* d = out().buffer();
        const std::size_t row_bytes = c.info().total_size_in_bytes();
        std::memmove(d, c.buffer(), row_bytes);  // D may have been given C's buffer
        if (gemm_c_ == gemm_c::copy) return;
        const std::int64_t rows = out().info().dim(0);
        for (std::int64_t r = 1; r < rows; ++r)
            std::memcpy(d + static_cast<std::size_t>(r) * row_bytes, d, row_bytes);
    }

    void configure(const sdk::partition& p, const cpu::Context& ctx,
                   const std::shared_ptr<cpu::MemoryManager>& memory) {
        const op_desc& op = node_.op;
        cpu::ActivationInfo act;
        if (const auto* c = op.get_if<op::conv2d>()) {
            to_runtime(c->activation, act);
            const auto g = c->geometry(p.tensors[node_.inputs[0]], p.tensors[node_.inputs[1]]);
            const cpu::Conv2dGeometry geo =
                runtime_geometry(*c, p.tensors[node_.inputs[0]], p.tensors[node_.inputs[1]]);
            const auto s = c->slots();
            const bool depthwise = geo.groups == g.c && g.o == g.c && !c->fuse_batchnorm;
            if (depthwise) {
                auto f = std::make_unique<cpu::DepthwiseConv2d>(ctx, memory);
                cpu::DepthwiseConv2dInfo info;
                info.geometry = geo;
                info.activation = act;
                f->configure(in(0), in(1), optional_in(s.bias), out(), info);
                function_ = std::move(f);
            } else {
                auto f = std::make_unique<cpu::Conv2d>(ctx, memory);
                cpu::Conv2dInfo info;
                info.geometry = geo;
                info.activation = act;
                if (c->fuse_batchnorm) {
                    bn_ = cpu::BatchNormFold{&in(s.mean), &in(s.variance), &in(s.scale),
                                             &in(s.shift), c->bn_epsilon};
                    info.batch_norm = &bn_;
                }
                f->configure(in(0), in(1), optional_in(s.bias), out(), info);
                function_ = std::move(f);
            }
        } else if (const auto* pl = op.get_if<op::pooling>()) {
            auto f = std::make_unique<cpu::Pooling>(ctx, memory);
            f->configure(in(0), out(), runtime_pooling(*pl, p.tensors[node_.inputs[0]]));
            function_ = std::move(f);
        } else if (const auto* a = op.get_if<op::activation>()) {
            to_runtime(a->act, act);
            auto f = std::make_unique<cpu::Activation>(ctx);
            f->configure(in(0), out(), act);
            function_ = std::move(f);
        } else if (const auto* b = op.get_if<op::binary>()) {
            static constexpr cpu::ElementwiseOp ops[] = {
                cpu::ElementwiseOp::add, cpu::ElementwiseOp::sub, cpu::ElementwiseOp::mul,
                cpu::ElementwiseOp::min, cpu::ElementwiseOp::max, cpu::ElementwiseOp::div};
            auto f = std::make_unique<cpu::ElementwiseBinary>(ctx);
            f->configure(in(0), in(1), out(), ops[b->op]);
            function_ = std::move(f);
        } else if (const auto* bn = op.get_if<op::batchnorm>()) {
            to_runtime(bn->activation, act);
            const bool affine = node_.inputs.size() >= 5;
            auto f = std::make_unique<cpu::BatchNormalization>(ctx);
            f->configure(in(0), out(), in(1), in(2), affine ? &in(3) : nullptr,
                         affine ? &in(4) : nullptr, bn->epsilon, act);
            function_ = std::move(f);
        } else if (const auto* fc = op.get_if<op::fully_connected>()) {
            to_runtime(fc->activation, act);
            auto f = std::make_unique<cpu::FullyConnected>(ctx, memory);
            f->configure(in(0), in(1), fc->has_bias ? &in(2) : nullptr, out(), act);
            function_ = std::move(f);
        } else if (const auto* gm = op.get_if<op::gemm>()) {
            cpu::GemmInfo info;
            info.trans_a = gm->trans_a != 0;
            info.trans_b = gm->trans_b != 0;
            info.alpha = gm->alpha;
            const bool has_c = node_.inputs.size() > 2 && gm->beta != 0.0f;
            const bool row_c = has_c && p.tensors[node_.inputs[2]].rank() == 1;
            // A [N] C with beta 1 is a per-column bias, added in the kernel's epilogue; any
            // other C is loaded into D before the run and scaled by beta there.
            const bool c_as_bias = row_c && gm->beta == 1.0f;
            info.beta = has_c && !c_as_bias ? gm->beta : 0.0f;
            gemm_c_ =
                !has_c || c_as_bias ? gemm_c::none : (row_c ? gemm_c::repeat_rows : gemm_c::copy);
            auto f = std::make_unique<cpu::Gemm>(ctx, memory);
            f->configure(in(0), in(1), c_as_bias ? &in(2) : nullptr, out(), info);
            function_ = std::move(f);
        } else if (const auto* sm = op.get_if<op::softmax>()) {
            auto f = std::make_unique<cpu::Softmax>(ctx);
            f->configure(in(0), out(), sm->beta, sm->log != 0);
            function_ = std::move(f);
        } else if (op.get_if<op::reorder>()) {
            auto f = std::make_unique<cpu::Reorder>(ctx);
            f->configure(in(0), out());
            function_ = std::move(f);
        } else {
            throw error(status::unsupported, "no runtime function",
                        {backend_name, std::string(op.name()), ""});
        }
    }

    sdk::node node_;
    std::vector<std::unique_ptr<cpu::Tensor>> tensors_;  // inputs then outputs
    std::unique_ptr<cpu::IFunction> function_;
    cpu::BatchNormFold bn_;
    bool prepared_ = false;
    enum class gemm_c { none, copy, repeat_rows };
    gemm_c gemm_c_ = gemm_c::none;
};

}  // namespace

std::unique_ptr<step> make_step(const sdk::partition& p, const sdk::node& n,
                                const cpu::Context& ctx,
                                const std::shared_ptr<cpu::MemoryManager>& memory) {
    std::vector<tensor_desc> in, out;
    for (int id : n.inputs) in.push_back(p.tensors[id]);
    for (int id : n.outputs) out.push_back(p.tensors[id]);
    const route_choice r = choose_route(n.op, in, out);
    if (r.how == route::declined)
        throw error(status::unsupported, r.why, {backend_name, n.name, ""});
    if (r.how == route::reference) return std::make_unique<reference_step>(p, n);
    return std::make_unique<native_step>(p, n, ctx, memory);
}

}  // namespace tessera::cpu_plugin
