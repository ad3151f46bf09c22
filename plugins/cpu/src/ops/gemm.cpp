// ops/gemm.cpp: D = alpha op(A) op(B) + beta C on the runtime's Gemm, row-major. A [N] C with
// beta 1 is a per-column bias added in the kernel's epilogue; any other C is loaded into D
// before the run and scaled by beta there. Products of at most small_m_rows rows (a classifier
// at batch 1) run as dot products: a B that is a graph constant is packed once into the runtime's
// DotPanels (16-row panels read as one stream), any other B is read in place (the runtime's
// sdot_rows when B is transposed), since the runtime's Gemm would pack all of B on every run,
// several times the work of the product itself; their output columns are split over the threads.
// For larger products, a constant B is packed into the Gemm's panels once, not on every run.
// Other floating dtypes (f16, bf16, dlfloat16) run on the plugin's own loops in double, summed in
// the reference's order, so they equal the reference's results bit for bit.
#include <algorithm>
#include <cstring>
#include <optional>

#include <tessera/cpu/blas.hpp>
#include <tessera/cpu/functions/gemm.hpp>

#include "../parallel_ranges.hpp"
#include "ops.hpp"
#include "products_in_double.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice gemm_route(const descs&) {
    return native(route::native_plain);
}

/// Rows of op(A) up to which the product runs as dot products straight from B.
constexpr std::int64_t small_m_rows = 4;

/// D = alpha op(A) op(B) + beta C for few rows. A constant B is packed on the first run into the
/// runtime's DotPanels; otherwise B is read in place: with trans_b each output is a dot product of
/// two contiguous rows (the runtime's sdot_rows, SIMD, rows split over the threads), else each
/// output row is a sum of B's rows scaled by A's entries, its columns split over the threads.
class small_m_gemm_step final : public step {
  public:
    small_m_gemm_step(const node_view& v, const op::gemm& gm, const runtime::Context& ctx)
        : ids_(v.n.inputs), out_(v.n.outputs[0]), gm_(gm), ctx_(ctx) {
        const auto g = gm.geometry(v.in[0], v.in[1]);
        m_ = g.m;
        n_ = g.n;
        k_ = g.k;
        has_c_ = v.in.size() > 2 && gm.beta() != 0.0f;
        b_constant_ = v.p.is_constant(v.n.inputs[1]);
        c_row_step_ = has_c_ && v.in[2].rank() == 2 ? n_ : 0;
        row_.resize(static_cast<std::size_t>(n_));
        a_row_.resize(static_cast<std::size_t>(k_));
        parts_ =
            parts_for(ctx_, n_, std::max<std::int64_t>(16, grain / std::max<std::int64_t>(1, k_)));
    }

    void run(const buffers& b) override {
        const auto data = [&](int id) {
            return static_cast<float*>(b[static_cast<std::size_t>(id)]->host_data());
        };
        const float* a = data(ids_[0]);
        const float* bm = data(ids_[1]);
        const float* c = has_c_ ? data(ids_[2]) : nullptr;
        float* d = data(out_);
        if (b_constant_ && !panels_)  // W(j, i) = op(B)[i][j]
            panels_.emplace(n_, k_, bm, gm_.trans_b() ? k_ : 1, gm_.trans_b() ? 1 : n_);
        for (std::int64_t i = 0; i < m_; ++i) {
            for (std::int64_t k = 0; k < k_; ++k)  // row i of op(A)
                a_row_[static_cast<std::size_t>(k)] = gm_.trans_a() ? a[k * m_ + i] : a[i * k_ + k];
            float* d_row = d + i * n_;  // D may share C's buffer: C is read before D is written
            const float* c_row = c ? c + i * c_row_step_ : nullptr;
            if (panels_ || gm_.trans_b()) {
                if (panels_)
                    panels_->multiply(a_row_.data(), row_.data(), ctx_);
                else
                    runtime::sdot_rows(n_, k_, a_row_.data(), bm, k_, row_.data(), ctx_);
                finish(0, n_, d_row, c_row);
                continue;
            }
            parallel_ranges(ctx_, n_, parts_, [&](std::int64_t begin, std::int64_t end, int) {
                scaled_rows_sum(bm, begin, end);
                finish(begin, end, d_row, c_row);
            });
        }
    }

  private:
    static constexpr std::int64_t grain = 65536;  // multiply-adds per thread at least

    /// Columns [begin, end) of the current row of op(A) B (B not transposed) into row_.
    void scaled_rows_sum(const float* bm, std::int64_t begin, std::int64_t end) {
        float* row = row_.data();
        std::fill(row + begin, row + end, 0.0f);
        for (std::int64_t k = 0; k < k_; ++k) {
            const float s = a_row_[static_cast<std::size_t>(k)];
            const float* b_row = bm + k * n_;
            for (std::int64_t n = begin; n < end; ++n) row[n] += s * b_row[n];
        }
    }

    /// Columns [begin, end) of the current row of D from the product in row_.
    void finish(std::int64_t begin, std::int64_t end, float* d_row, const float* c_row) const {
        const float* row = row_.data();
        for (std::int64_t n = begin; n < end; ++n) {
            const float product = gm_.alpha() * row[n];
            d_row[n] = c_row ? product + gm_.beta() * c_row[n] : product;
        }
    }

    std::vector<int> ids_;
    int out_;
    op::gemm gm_;
    const runtime::Context& ctx_;
    int parts_ = 1;
    std::int64_t m_ = 0, n_ = 0, k_ = 0, c_row_step_ = 0;
    bool has_c_ = false;
    bool b_constant_ = false;
    std::optional<runtime::DotPanels> panels_;  // a constant op(B)^T, packed on the first run
    std::vector<float> row_, a_row_;            // one row of op(A) and of the product
};

bool small_m(const op::gemm& gm, const descs& in) {
    return gm.geometry(in[0], in[1]).m <= small_m_rows;
}

class gemm_step final : public function_step {
  public:
    gemm_step(const build_context& b, const op::gemm& gm) : function_step(b.node) {
        runtime::GemmInfo info;
        info.trans_a = gm.trans_a();
        info.trans_b = gm.trans_b();
        info.alpha = gm.alpha();
        // A constant B (weights) is packed into the kernel's panels once, on the first run.
        info.b_is_constant = b.node.p.is_constant(b.node.n.inputs[1]);
        const bool has_c = b.node.in.size() > 2 && gm.beta() != 0.0f;
        const bool row_c = has_c && b.node.in[2].rank() == 1;
        const bool c_as_bias = row_c && gm.beta() == 1.0f;
        info.beta = has_c && !c_as_bias ? gm.beta() : 0.0f;
        load_c_ = !has_c || c_as_bias ? load_c::none : (row_c ? load_c::repeat_rows : load_c::copy);
        auto f = std::make_unique<runtime::Gemm>(b.ctx, b.memory);
        f->configure(in(0), in(1), c_as_bias ? &in(2) : nullptr, out(), info);
        set_function(std::move(f));
    }

  private:
    /// gemm's D = alpha*A*B + beta*C accumulates into D, so C is loaded into D first: copied
    /// when it is [M, N], repeated on every row when it is [N].
    void before_run() override {
        if (load_c_ == load_c::none) return;
        const runtime::Tensor& c = in(2);
        auto* d = out().buffer();
        const std::size_t row_bytes = c.info().total_size_in_bytes();
        std::memmove(d, c.buffer(), row_bytes);  // D may have been given C's buffer
        if (load_c_ == load_c::copy) return;
        const std::int64_t rows = out().info().dim(0);
        for (std::int64_t r = 1; r < rows; ++r)
            std::memcpy(d + static_cast<std::size_t>(r) * row_bytes, d, row_bytes);
    }

    enum class load_c { none, copy, repeat_rows };
    load_c load_c_ = load_c::none;
};

/// D = alpha op(A) op(B) + beta C in double, as the reference computes it: B loaded upright
/// ([K, N]), each output row a sum of B's rows scaled by A's entries; rows split over the threads.
class gemm_in_double_step final : public step {
  public:
    gemm_in_double_step(const node_view& v, const op::gemm& gm, const runtime::Context& ctx)
        : ids_(v.n.inputs),
          out_(v.n.outputs[0]),
          gm_(gm),
          ctx_(ctx),
          g_(gm.geometry(v.in[0], v.in[1])),
          a_run_(run_of(v.in[0])),
          b_run_(run_of(v.in[1])),
          y_run_(run_of(v.out[0])) {
        if (v.in.size() > 2) {
            c_run_ = run_of(v.in[2]);
            c_row_step_ = v.in[2].rank() == 2 ? g_.n : 0;
            c_.resize(static_cast<std::size_t>(v.in[2].num_elements()));
        }
        a_.resize(static_cast<std::size_t>(g_.m * g_.k));
        b_upright_.resize(static_cast<std::size_t>(g_.k * g_.n));
        parts_ = parts_for(ctx_, g_.m, std::max<std::int64_t>(1, grain / (g_.k * g_.n)));
        rows_.resize(static_cast<std::size_t>(parts_ * g_.n));
    }

    void run(const buffers& b) override {
        const auto data = [&](std::size_t i) {
            return b[static_cast<std::size_t>(ids_[i])]->host_data();
        };
        load_reals(a_run_, data(0), 0, g_.m * g_.k, 1, a_.data());
        load_upright(b_run_, data(1), 0, g_.k, g_.n, gm_.trans_b(), b_upright_.data());
        if (c_run_)
            load_reals(*c_run_, data(2), 0, static_cast<std::int64_t>(c_.size()), 1, c_.data());
        void* y = b[static_cast<std::size_t>(out_)]->host_data();
        const auto alpha = static_cast<double>(gm_.alpha()), beta = static_cast<double>(gm_.beta());
        parallel_ranges(ctx_, g_.m, parts_, [&](std::int64_t begin, std::int64_t end, int part) {
            double* row = rows_.data() + part * g_.n;
            for (std::int64_t i = begin; i < end; ++i) {
                product_row(
                    [&](std::int64_t k) {
                        return a_[static_cast<std::size_t>(gm_.trans_a() ? k * g_.m + i
                                                                         : i * g_.k + k)];
                    },
                    b_upright_.data(), g_.k, g_.n, row);
                const double* c = c_run_ ? c_.data() + i * c_row_step_ : nullptr;
                for (std::int64_t j = 0; j < g_.n; ++j) {
                    row[j] *= alpha;
                    if (c) row[j] += beta * c[j];
                }
                store_products(y_run_, y, i * g_.n, g_.n, row);
            }
        });
    }

  private:
    static constexpr std::int64_t grain = 32768;  // multiply-adds per thread at least

    std::vector<int> ids_;
    int out_;
    op::gemm gm_;
    const runtime::Context& ctx_;
    op::gemm::geometry_t g_;
    element_run a_run_, b_run_, y_run_;
    std::optional<element_run> c_run_;
    std::int64_t c_row_step_ = 0;
    int parts_ = 1;
    std::vector<double> a_, b_upright_, c_;
    std::vector<double> rows_;  // one output row per part
};

}  // namespace

void state_gemm(router& r) {
    r.state<op::gemm>(
        [](const op::gemm&, const query_view& v) {
            return answer(gemm_route(v.q.inputs), v.in, v.out);
        },
        [](const op::gemm& gm, const build_context& b) {
            return routed_step(gemm_route(b.node.in), b, [&]() -> std::unique_ptr<step> {
                if (!all_f32(b.node.in))
                    return std::make_unique<gemm_in_double_step>(b.node, gm, b.ctx);
                if (small_m(gm, b.node.in))
                    return std::make_unique<small_m_gemm_step>(b.node, gm, b.ctx);
                return std::make_unique<gemm_step>(b, gm);
            });
        });
}

}  // namespace tessera::plugins::cpu
