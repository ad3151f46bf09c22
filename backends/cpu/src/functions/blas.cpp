// tessera::cpu::sgemm: validates arguments, borrows per-part packing workspace from the Context's
// scratchpad and schedules a GemmKernel on the Context's scheduler. tessera::cpu::sdot_rows:
// rows of a matrix against one vector, its rows split over the Context's scheduler; DotPanels the
// same for a matrix packed once into 16-row panels.
#include "tessera/cpu/blas.hpp"

#include <algorithm>
#include <string>

#include "kernels/gemm_kernel.hpp"
#include "simd/dot_kernels.hpp"
#include "simd/kernel_table.hpp"
#include "tessera/cpu/context.hpp"
#include "tessera/cpu/error.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/scheduler.hpp"

namespace tessera::cpu {

void sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc,
           const Context& ctx) {
    const char* fn = "tessera::cpu::sgemm";
    require(m >= 0 && n >= 0 && k >= 0, fn, "", "negative size");
    if (m == 0 || n == 0) return;
    require(c != nullptr, fn, "C", "null pointer");
    require(ldc >= n, fn, "C", "ldc " + std::to_string(ldc) + " < n " + std::to_string(n));
    if (k > 0) {
        require(a != nullptr, fn, "A", "null pointer");
        require(b != nullptr, fn, "B", "null pointer");
        require(lda >= (trans_a ? m : k), fn, "A", "lda " + std::to_string(lda) + " too small");
        require(ldb >= (trans_b ? k : n), fn, "B", "ldb " + std::to_string(ldb) + " too small");
    }
    GemmProblem p;
    p.trans_a = trans_a;
    p.trans_b = trans_b;
    p.m = m;
    p.n = n;
    p.k = k;
    p.alpha = alpha;
    p.beta = beta;
    p.a = a;
    p.lda = lda;
    p.b = b;
    p.ldb = ldb;
    p.c = c;
    p.ldc = ldc;
    GemmKernel kernel;
    kernel.configure(ctx.kernels(), p);
    const int parts = ctx.scheduler().parts_for(kernel);
    // The Context's scratchpad rather than a fresh allocation: each part then packs B into the
    // same memory every call. Zen 5, square sgemm 256-1024: 0.96-1.03 of oneDNN's time against
    // 1.04-1.10 with a new region per call (whose address moved with the heap: a part's block
    // then often lay in lines the other core had written last), 1 and 2 threads.
    const Scratchpad::Lease workspace =
        ctx.scratchpad().borrow(kernel.workspace_floats(parts) * sizeof(float));
    kernel.set_workspace(reinterpret_cast<float*>(workspace.data()), parts);
    kernel.set_operands(a, b, nullptr, nullptr, c);
    ctx.scheduler().schedule(kernel, parts);
}

namespace {

/// Rows [begin, end) of y = W x per part; at least enough rows per part to read ~64 KiB of W.
class DotRowsKernel final : public ICpuKernel {
  public:
    DotRowsKernel(const KernelTable& table, int64_t n, int64_t k, const float* x, const float* w,
                  int64_t ldw, float* y)
        : table_(table), k_(k), ldw_(ldw), x_(x), w_(w), y_(y) {
        Window win;
        win.set(0, Window::Dimension(0, n, 1));
        configure_window(win, 0, std::max<int64_t>(4, 16384 / std::max<int64_t>(1, k)));
    }
    const char* name() const override { return "DotRowsKernel"; }
    void run(const Window& w, const ThreadInfo&) override {
        const int64_t begin = w[0].start(), end = w[0].end();
        table_.dot_rows(x_, w_ + begin * ldw_, ldw_, k_, y_ + begin, end - begin);
    }

  private:
    const KernelTable& table_;
    int64_t k_, ldw_;
    const float *x_, *w_;
    float* y_;
};

/// Panels [begin, end) of y = W x per part; at least enough panels per part to read ~64 KiB.
class DotPanelsKernel final : public ICpuKernel {
  public:
    DotPanelsKernel(const KernelTable& table, int64_t n, int64_t k, const float* x,
                    const float* packed, float* y)
        : table_(table), n_(n), k_(k), x_(x), packed_(packed), y_(y) {
        const int64_t line_bytes = simd::kDotPanelRows * static_cast<int64_t>(sizeof(float));
        Window win;
        win.set(0, Window::Dimension(0, (n + simd::kDotPanelRows - 1) / simd::kDotPanelRows, 1));
        configure_window(win, 0,
                         std::max<int64_t>(1, 65536 / (line_bytes * std::max<int64_t>(1, k))));
    }
    const char* name() const override { return "DotPanelsKernel"; }
    void run(const Window& w, const ThreadInfo&) override {
        const int64_t first = w[0].start() * simd::kDotPanelRows;
        const int64_t last = std::min(n_, w[0].end() * simd::kDotPanelRows);
        table_.dot_panels(x_, packed_ + first * k_, k_, y_ + first, last - first);
    }

  private:
    const KernelTable& table_;
    int64_t n_, k_;
    const float *x_, *packed_;
    float* y_;
};

}  // namespace

DotPanels::DotPanels(int64_t n, int64_t k, const float* w, int64_t row_stride, int64_t col_stride)
    : n_(n), k_(k) {
    const char* fn = "tessera::cpu::DotPanels";
    require(n >= 0 && k >= 0, fn, "", "negative size");
    if (n == 0 || k == 0) return;
    require(w != nullptr, fn, "W", "null pointer");
    constexpr int64_t rows = simd::kDotPanelRows;
    packed_.assign(static_cast<std::size_t>((n + rows - 1) / rows * rows * k), 0.0f);
    for (int64_t j = 0; j < n; ++j) {
        float* panel_row = packed_.data() + (j / rows) * rows * k + j % rows;
        for (int64_t i = 0; i < k; ++i) panel_row[i * rows] = w[j * row_stride + i * col_stride];
    }
}

void DotPanels::multiply(const float* x, float* y, const Context& ctx) const {
    const char* fn = "tessera::cpu::DotPanels::multiply";
    if (n_ == 0) return;
    require(y != nullptr, fn, "y", "null pointer");
    if (k_ == 0) {
        std::fill(y, y + n_, 0.0f);
        return;
    }
    require(x != nullptr, fn, "x", "null pointer");
    DotPanelsKernel kernel(ctx.kernels(), n_, k_, x, packed_.data(), y);
    ctx.scheduler().schedule(kernel);
}

void sdot_rows(int64_t n, int64_t k, const float* x, const float* w, int64_t ldw, float* y,
               const Context& ctx) {
    const char* fn = "tessera::cpu::sdot_rows";
    require(n >= 0 && k >= 0, fn, "", "negative size");
    if (n == 0) return;
    require(y != nullptr, fn, "y", "null pointer");
    if (k == 0) {
        std::fill(y, y + n, 0.0f);
        return;
    }
    require(x != nullptr, fn, "x", "null pointer");
    require(w != nullptr, fn, "W", "null pointer");
    require(ldw >= k, fn, "W", "ldw " + std::to_string(ldw) + " < k " + std::to_string(k));
    DotRowsKernel kernel(ctx.kernels(), n, k, x, w, ldw, y);
    ctx.scheduler().schedule(kernel);
}

}  // namespace tessera::cpu
