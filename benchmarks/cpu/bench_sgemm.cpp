// SGEMM M=N=K in {256, 512, 1024, 2048}: tessera::cpu::sgemm vs dnnl_sgemm, at each
// thread count of bench_cpu --threads (default 1 and 2).
#include <dnnl.h>

#include <memory>
#include <vector>

#include "bench_pairs.hpp"
#include "bench_util.hpp"
#include "tessera/cpu/blas.hpp"

namespace tessera::cpu::bench {
namespace {

struct SgemmOperands {
    int64_t n;
    std::vector<float> a, b, c;
    explicit SgemmOperands(int64_t size)
        : n(size),
          a(random_data(static_cast<std::size_t>(size * size), 1)),
          b(random_data(static_cast<std::size_t>(size * size), 2)),
          c(static_cast<std::size_t>(size * size)) {}
};

CasePair make_sgemm_pair(int64_t n, int threads) {
    auto ops = std::make_shared<SgemmOperands>(n);
    CasePair pair;
    pair.ours = [ops, threads] {
        const int64_t s = ops->n;
        sgemm(false, false, s, s, s, 1.0f, ops->a.data(), s, ops->b.data(), s, 0.0f, ops->c.data(),
              s, context_for(threads));
    };
    pair.onednn = [ops, threads] {
        use_onednn_threads(threads);
        const int64_t s = ops->n;
        dnnl_sgemm('N', 'N', s, s, s, 1.0f, ops->a.data(), s, ops->b.data(), s, 0.0f, ops->c.data(),
                   s);
    };
    pair.flops = 2.0 * static_cast<double>(n * n * n);
    return pair;
}

}  // namespace

void register_sgemm_benchmarks(const std::vector<int>& thread_counts) {
    for (int64_t n : {256, 512, 1024, 2048})
        for (int threads : thread_counts)
            register_case_pair("sgemm_" + std::to_string(n) + "/" + std::to_string(threads) + "T",
                               [n, threads] { return make_sgemm_pair(n, threads); });
}

}  // namespace tessera::cpu::bench
