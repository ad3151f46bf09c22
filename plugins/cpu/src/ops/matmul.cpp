// ops/matmul.cpp: the matrix product with addition (A [m,n] or [s,m,n] times B [n,p] or [s,n,p],
// plus C [p] or [s,p]) on the runtime's Gemm, row-major. One Gemm is configured on 2-D views of
// one stack and run once per stack with the views moved along the buffers; a stacked A times an
// unstacked B without transposes runs as one [s*m, n] x [n, p] product. An unstacked B that is a
// graph constant is packed once (the runtime's weights manager) instead of on every run.
// Comparisons and the other floating dtypes (f64, f16, bf16, dlfloat16) run on the plugin's own
// loops in double, summing each product in the reference's order, so they equal the reference's
// results bit for bit.
#include <algorithm>
#include <optional>

#include <tessera/cpu/functions/gemm.hpp>
#include <tessera/reference/matmul.hpp>

#include "../parallel_ranges.hpp"
#include "bound_views.hpp"
#include "ops.hpp"
#include "products_in_double.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice matmul_route(const op::matmul&, const descs&) {
    return native(route::native_plain);
}

/// Whether the matmul runs on the runtime's f32 Gemm (else on the loops in double).
bool on_runtime_gemm(const op::matmul& mm, const descs& in) {
    return mm.kind() == matmul_kind::addition && all_f32(in);
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
        // A constant B (weights) is packed into the kernel's panels once, on the first run.
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

/// The matmul in double, as the reference computes it: each output is 0.0 plus the products in
/// order of k, then combined with C. B is loaded upright ([n, p] per stack) so each output row
/// is a sum of B's rows scaled by A's entries; rows are split over the threads.
class matmul_in_double_step final : public step {
  public:
    matmul_in_double_step(const build_context& b, const op::matmul& mm)
        : node_(b.node.n),
          ctx_(b.ctx),
          g_(mm.geometry(b.node.in)),
          ta_(mm.transpose_a()),
          tb_(mm.transpose_b()),
          kind_(mm.kind()),
          a_run_(run_of(b.node.in[0])),
          b_run_(run_of(b.node.in[1])),
          y_run_(run_of(b.node.out[0])) {
        if (b.node.in.size() > 2) c_run_ = run_of(b.node.in[2]);
        stacks_ = g_.stacks ? g_.stacks : 1;
        a_.resize(static_cast<std::size_t>(b.node.in[0].num_elements()));
        b_upright_.resize(static_cast<std::size_t>(b.node.in[1].num_elements()));
        if (c_run_) c_.resize(static_cast<std::size_t>(b.node.in[2].num_elements()));
        parts_ =
            parts_for(ctx_, stacks_ * g_.m,
                      std::max<std::int64_t>(1, grain / std::max<std::int64_t>(1, g_.n * g_.p)));
        rows_.resize(static_cast<std::size_t>(parts_ * g_.p));
    }

    void run(const buffers& b) override {
        const auto data = [&](std::size_t i) {
            return b[static_cast<std::size_t>(node_.inputs[i])]->host_data();
        };
        load_reals(a_run_, data(0), 0, static_cast<std::int64_t>(a_.size()), 1, a_.data());
        load_upright_b(data(1));
        if (c_run_)
            load_reals(*c_run_, data(2), 0, static_cast<std::int64_t>(c_.size()), 1, c_.data());
        void* y = b[static_cast<std::size_t>(node_.outputs[0])]->host_data();
        parallel_ranges(ctx_, stacks_ * g_.m, parts_,
                        [&](std::int64_t begin, std::int64_t end, int part) {
                            double* row = rows_.data() + part * g_.p;
                            for (std::int64_t r = begin; r < end; ++r) output_row(r, row, y);
                        });
    }

  private:
    static constexpr std::int64_t grain = 32768;  // multiply-adds per thread at least

    void load_upright_b(const void* bm) {
        const std::int64_t b_stacks = g_.b_stacked ? stacks_ : 1;
        for (std::int64_t s = 0; s < b_stacks; ++s)
            load_upright(b_run_, bm, s * g_.n * g_.p, g_.n, g_.p, tb_,
                         b_upright_.data() + s * g_.n * g_.p);
    }

    /// Output row r (stack r / m, row r % m) through `row`, stored into y.
    void output_row(std::int64_t r, double* row, void* y) const {
        const std::int64_t s = r / g_.m, i = r % g_.m;
        const double* a = a_.data() + (g_.a_stacked ? s * g_.m * g_.n : 0);
        const double* bs = b_upright_.data() + (g_.b_stacked ? s * g_.n * g_.p : 0);
        product_row([&](std::int64_t k) { return a[ta_ ? k * g_.m + i : i * g_.n + k]; }, bs, g_.n,
                    g_.p, row);
        const double* c = c_run_ ? c_.data() + (g_.c_stacked ? s * g_.p : 0) : nullptr;
        for (std::int64_t j = 0; j < g_.p; ++j)
            row[j] = reference::compute_detail::matmul_combine(kind_, row[j], c ? c[j] : 0.0);
        store_products(y_run_, y, r * g_.p, g_.p, row);
    }

    sdk::node node_;
    const runtime::Context& ctx_;
    op::matmul_geometry g_;
    bool ta_, tb_;
    matmul_kind kind_;
    element_run a_run_, b_run_, y_run_;
    std::optional<element_run> c_run_;
    std::int64_t stacks_ = 1;
    int parts_ = 1;
    std::vector<double> a_, b_upright_, c_;
    std::vector<double> rows_;  // one output row per part
};

}  // namespace

void state_matmul(router& r) {
    state_quantized_matmul(r);
    r.state<op::matmul>(
        [](const op::matmul& mm, const query_view& v) {
            return answer(matmul_route(mm, v.q.inputs), v.in, v.out);
        },
        [](const op::matmul& mm, const build_context& b) {
            return routed_step(matmul_route(mm, b.node.in), b, [&]() -> std::unique_ptr<step> {
                if (on_runtime_gemm(mm, b.node.in)) return std::make_unique<matmul_step>(b, mm);
                return std::make_unique<matmul_in_double_step>(b, mm);
            });
        });
}

}  // namespace tessera::plugins::cpu
