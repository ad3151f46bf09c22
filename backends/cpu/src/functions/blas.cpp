// tessera::cpu::sgemm: validates arguments, borrows per-part packing workspace from the Context's
// scratchpad and schedules a GemmKernel on the Context's scheduler.
#include "tessera/cpu/blas.hpp"

#include <string>

#include "kernels/gemm_kernel.hpp"
#include "tessera/cpu/context.hpp"
#include "tessera/cpu/error.hpp"

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

}  // namespace tessera::cpu
