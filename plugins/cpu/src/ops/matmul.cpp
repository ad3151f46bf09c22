// ops/matmul.cpp: the matrix product with addition (A [m,n] or [s,m,n] times B [n,p] or [s,n,p],
// plus C [p] or [s,p]) on the runtime's Gemm, row-major. One Gemm is configured on 2-D views of
// one stack and run once per stack with the views moved along the buffers; a stacked A times an
// unstacked B without transposes runs as one [s*m, n] x [n, p] product. An unstacked B that is a
// graph constant is packed once (the runtime's weights manager) instead of on every run.
// Comparisons, transposed stacked forms the views cannot express and non-f32 tensors run on the
// reference kernel.
#include <tessera/cpu/functions/gemm.hpp>

#include "bound_views.hpp"
#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice matmul_route(const op::matmul& mm, const descs& in) {
    if (mm.kind() != matmul_kind::addition) return reference_because("matmul comparison");
    if (!all_f32(in)) return reference_because("non-f32 matmul");
    return native(route::native_plain);
}

class matmul_step final : public step {
  public:
    matmul_step(const build_context& b, const op::matmul& mm) : node_(b.node.n) {
        const descs& in = b.node.in;
        const auto g = mm.geometry(in);
        const bool ta = mm.transpose_a(), tb = mm.transpose_b();
        // A stacked A over a shared B without transposes is one tall product.
        const bool tall = g.a_stacked && !g.b_stacked && !ta && !g.c_stacked;
        stacks_ = tall || !g.stacks ? 1 : g.stacks;
        const std::int64_t m = tall ? g.stacks * g.m : g.m;
        a_ = bound_view(ta ? std::vector<std::int64_t>{g.n, m} : std::vector<std::int64_t>{m, g.n});
        b_ = bound_view(tb ? std::vector<std::int64_t>{g.p, g.n}
                           : std::vector<std::int64_t>{g.n, g.p});
        d_ = bound_view({m, g.p});
        if (in.size() > 2) c_ = bound_view({g.p});
        a_step_ = g.a_stacked && !tall ? g.m * g.n : 0;
        b_step_ = g.b_stacked ? g.n * g.p : 0;
        c_step_ = g.c_stacked ? g.p : 0;
        d_step_ = g.m * g.p;
        runtime::GemmInfo info;
        info.trans_a = ta;
        info.trans_b = tb;
        // A constant B (weights) is packed into the kernel's panels once, on the
        // first run.
        info.b_is_constant = !g.b_stacked && b.node.p.is_constant(b.node.n.inputs[1]);
        gemm_ = std::make_unique<runtime::Gemm>(b.ctx, b.memory);
        gemm_->configure(*a_, *b_, c_.get(), *d_, info);
    }

    void run(const buffers& b) override {
        const auto data = [&](int input) {
            return static_cast<float*>(b[static_cast<std::size_t>(input)]->host_data());
        };
        float* a = data(node_.inputs[0]);
        float* bm = data(node_.inputs[1]);
        float* c = c_ ? data(node_.inputs[2]) : nullptr;
        float* d = data(node_.outputs[0]);
        for (std::int64_t s = 0; s < stacks_; ++s) {
            bind_view(*a_, a + s * a_step_);
            bind_view(*b_, bm + s * b_step_);
            if (c_) bind_view(*c_, c + s * c_step_);
            bind_view(*d_, d + s * d_step_);
            gemm_->run();
        }
    }

  private:
    sdk::node node_;
    std::int64_t stacks_ = 1, a_step_ = 0, b_step_ = 0, c_step_ = 0, d_step_ = 0;
    std::unique_ptr<runtime::Tensor> a_, b_, c_, d_;
    std::unique_ptr<runtime::Gemm> gemm_;
};

}  // namespace

void state_matmul(router& r) {
    r.state<op::matmul>(
        [](const op::matmul& mm, const query_view& v) {
            return answer(matmul_route(mm, v.q.inputs), v.in, v.out);
        },
        [](const op::matmul& mm, const build_context& b) {
            return routed_step(matmul_route(mm, b.node.in), b,
                               [&] { return std::make_unique<matmul_step>(b, mm); });
        });
}

}  // namespace tessera::plugins::cpu
