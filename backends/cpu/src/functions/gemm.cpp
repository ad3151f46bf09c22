// Gemm and FullyConnected functions.
#include "tessera/cpu/functions/gemm.hpp"

#include "kernels/activation_kernel.hpp"
#include "kernels/gemm_kernel.hpp"
#include "kernels/gemm_pack.hpp"
#include "kernels/reorder_kernel.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {
namespace {

/// Packs a whole B (k x n after op) into the GEMM kernel's panel format.
class PackBTransform final : public ITransformWeights {
  public:
    PackBTransform(const ITensor& b, bool trans, int64_t k, int64_t n, const KernelTable& table)
        : b_(b), trans_(trans), k_(k), n_(n), table_(table) {}
    std::string uid() const override {
        return std::string("gemm_pack_b/") + table_.isa + (trans_ ? "/t" : "/n");
    }
    TensorInfo result_info() const override {
        return TensorInfo({static_cast<int64_t>(GemmKernel::packed_b_floats(table_, k_, n_))},
                          DataType::f32);
    }
    void run(Tensor& result) const override {
        const int64_t nr = static_cast<int64_t>(table_.nv) * table_.vec_width;
        pack_b_panels(b_.data<float>(), b_.info().dim(1), trans_, 0, k_, 0, n_, nr,
                      result.data<float>());
    }

  private:
    const ITensor& b_;
    bool trans_;
    int64_t k_, n_;
    const KernelTable& table_;
};

/// The shared machinery: kernel, managed workspace, optional packed B, optional separate
/// activation.
struct GemmRunner {
    const Context& ctx;
    MemoryGroup group;
    GemmKernel kernel;
    Tensor workspace;
    int parts = 1;
    const ITensor* b = nullptr;
    bool trans_b = false;
    bool pack_b = false;
    std::shared_ptr<const Tensor> packed_b;
    ActivationKernel activation;
    bool separate_activation = false;
    const ITensor* a = nullptr;
    ITensor* c = nullptr;
    bool prepared = false;

    GemmRunner(const Context& cx, std::shared_ptr<MemoryManager> mm)
        : ctx(cx), group(std::move(mm)) {}

    void configure(const GemmProblem& problem, const ITensor& a_t, const ITensor& b_t, ITensor& c_t,
                   bool constant_b, const ActivationInfo& act) {
        GemmProblem p = problem;
        MicroArgs probe;
        separate_activation = !fuse_activation(act, probe);
        if (separate_activation) {
            p.act = ActivationInfo{};
            activation.configure(ctx.kernels(), c_t, c_t, act);
        } else {
            p.act = act;
        }
        a = &a_t;
        b = &b_t;
        c = &c_t;
        trans_b = p.trans_b;
        pack_b = constant_b;
        p.b_prepacked = constant_b;
        kernel.configure(ctx.kernels(), p);  // bias/data pointers are bound at run time
        parts = ctx.scheduler().parts_for(kernel);
        workspace.info() = TensorInfo({static_cast<int64_t>(kernel.workspace_floats(parts))},
                                      DataType::f32, DataLayout::plain, {}, "gemm.workspace");
        group.manage(workspace.allocator());
        workspace.allocator().allocate();
        prepared = false;
    }

    void prepare(int64_t k, int64_t n) {
        if (prepared) return;
        if (pack_b)
            packed_b =
                ctx.weights_manager().acquire(*b, PackBTransform(*b, trans_b, k, n, ctx.kernels()));
        prepared = true;
    }

    /// Runs `before` (e.g. an input conversion) and the product inside one acquisition of the
    /// group.
    template <class Before>
    void run(const ITensor* bias, Before&& before) {
        MemoryGroupScope scope(group);
        before();
        kernel.set_workspace(workspace.data<float>(), parts);
        kernel.set_operands(a->data<float>(), b->data<float>(),
                            pack_b ? packed_b->data<float>() : nullptr,
                            bias ? bias->data<float>() : nullptr, c->data<float>());
        ctx.scheduler().schedule(kernel, parts);
        if (separate_activation) ctx.scheduler().schedule(activation);
    }
};

void require_plain_f32(const ITensor& t, const char* fn, int rank) {
    require(
        t.info().layout() == DataLayout::plain && t.info().data_type() == DataType::f32 &&
            (rank < 0 || t.info().rank() == rank) && t.info().is_dense(),
        fn, t.info().name(),
        "needs a dense plain f32 tensor" + (rank > 0 ? " of rank " + std::to_string(rank) : ""));
}

}  // namespace

struct Gemm::Impl : GemmRunner {
    using GemmRunner::GemmRunner;
    int64_t k = 0, n = 0;
    const ITensor* bias = nullptr;
};

Gemm::Gemm(const Context& ctx, std::shared_ptr<MemoryManager> mm)
    : impl_(std::make_unique<Impl>(ctx, std::move(mm))) {}
Gemm::~Gemm() = default;

void Gemm::configure(const ITensor& a, const ITensor& b, const ITensor* bias, ITensor& c,
                     const GemmInfo& info) {
    const char* fn = "Gemm::configure";
    require_plain_f32(a, fn, 2);
    require_plain_f32(b, fn, 2);
    require_plain_f32(c, fn, 2);
    const int64_t m = info.trans_a ? a.info().dim(1) : a.info().dim(0);
    const int64_t k = info.trans_a ? a.info().dim(0) : a.info().dim(1);
    const int64_t kb = info.trans_b ? b.info().dim(1) : b.info().dim(0);
    const int64_t n = info.trans_b ? b.info().dim(0) : b.info().dim(1);
    require(k == kb, fn, b.info().name(),
            "inner dimensions differ (" + std::to_string(k) + " vs " + std::to_string(kb) + ")");
    require(c.info().dim(0) == m && c.info().dim(1) == n, fn, c.info().name(),
            "output shape mismatch");
    if (bias) {
        require_plain_f32(*bias, fn, -1);
        require(bias->info().element_count() == n, fn, bias->info().name(),
                "bias must have N elements");
    }
    GemmProblem p;
    p.trans_a = info.trans_a;
    p.trans_b = info.trans_b;
    p.m = m;
    p.n = n;
    p.k = k;
    p.alpha = info.alpha;
    p.beta = info.beta;
    p.lda = a.info().dim(1);
    p.ldb = b.info().dim(1);
    p.ldc = n;
    impl_->bias = bias;
    impl_->k = k;
    impl_->n = n;
    impl_->configure(p, a, b, c, info.b_is_constant, info.activation);
}

void Gemm::prepare() {
    impl_->prepare(impl_->k, impl_->n);
}

void Gemm::run() {
    prepare();
    impl_->run(impl_->bias, [] {});
}

struct FullyConnected::Impl : GemmRunner {
    using GemmRunner::GemmRunner;
    int64_t k = 0, n = 0;
    const ITensor* bias = nullptr;
    std::unique_ptr<Tensor> converted;
    ReorderKernel convert;
};

FullyConnected::FullyConnected(const Context& ctx, std::shared_ptr<MemoryManager> mm)
    : impl_(std::make_unique<Impl>(ctx, std::move(mm))) {}
FullyConnected::~FullyConnected() = default;

void FullyConnected::configure(const ITensor& src, const ITensor& weights, const ITensor* bias,
                               ITensor& dst, const ActivationInfo& activation) {
    const char* fn = "FullyConnected::configure";
    Impl& m = *impl_;
    const TensorInfo& s = src.info();
    require(s.layout() == DataLayout::plain && s.rank() >= 2 && s.is_dense(), fn, s.name(),
            "input must be a dense plain tensor of rank >= 2");
    require_plain_f32(weights, fn, 2);
    require_plain_f32(dst, fn, 2);
    const int64_t batch = s.dim(0), in = s.element_count() / std::max<int64_t>(batch, 1);
    const int64_t out = weights.info().dim(0);
    require(weights.info().dim(1) == in, fn, weights.info().name(),
            "weights have " + std::to_string(weights.info().dim(1)) + " inputs, src has " +
                std::to_string(in));
    require(dst.info().dim(0) == batch && dst.info().dim(1) == out, fn, dst.info().name(),
            "output must be [N, OUT]");
    if (bias) {
        require_plain_f32(*bias, fn, -1);
        require(bias->info().element_count() == out, fn, bias->info().name(),
                "bias must have OUT elements");
    }
    const ITensor* a = &src;
    if (s.data_type() != DataType::f32) {
        require(s.data_type() == DataType::f16 || s.data_type() == DataType::bf16, fn, s.name(),
                "input must be f32, f16 or bf16");
        m.converted = std::make_unique<Tensor>(
            TensorInfo(s.shape(), DataType::f32, DataLayout::plain, {}, s.name() + ".f32"));
        m.group.manage(m.converted->allocator());
        m.convert.configure(src, *m.converted);
        a = m.converted.get();
    }
    GemmProblem p;
    p.trans_b = true;
    p.m = batch;
    p.n = out;
    p.k = in;
    p.lda = in;
    p.ldb = in;
    p.ldc = out;
    m.bias = bias;
    m.k = in;
    m.n = out;
    m.configure(p, *a, weights, dst, true, activation);
    if (m.converted) m.converted->allocator().allocate();
}

void FullyConnected::prepare() {
    impl_->prepare(impl_->k, impl_->n);
}

void FullyConnected::run() {
    prepare();
    Impl& m = *impl_;
    m.run(m.bias, [&m] {
        if (m.converted) m.ctx.scheduler().schedule(m.convert);
    });
}

}  // namespace tessera::cpu
