// SGEMM M=N=K in {256, 512, 1024, 2048}: tessera::cpu::sgemm vs dnnl_sgemm, 1 and 2 threads.
#include <dnnl.h>

#include "bench_util.hpp"
#include "tessera/cpu/blas.hpp"

namespace tessera::cpu::bench {
namespace {

void bench_ours(benchmark::State& state, int64_t n, int threads) {
    const auto a = random_data(static_cast<std::size_t>(n * n), 1);
    const auto b = random_data(static_cast<std::size_t>(n * n), 2);
    std::vector<float> c(static_cast<std::size_t>(n * n));
    Context& ctx = context_for(threads);
    for (auto _ : state) {
        sgemm(false, false, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n, ctx);
        benchmark::ClobberMemory();
    }
    set_flops(state, 2.0 * n * n * n);
}

void bench_onednn(benchmark::State& state, int64_t n, int threads) {
    const auto a = random_data(static_cast<std::size_t>(n * n), 1);
    const auto b = random_data(static_cast<std::size_t>(n * n), 2);
    std::vector<float> c(static_cast<std::size_t>(n * n));
    use_onednn_threads(threads);
    for (auto _ : state) {
        dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
        benchmark::ClobberMemory();
    }
    set_flops(state, 2.0 * n * n * n);
}

}  // namespace

void register_sgemm_benchmarks() {
    for (int64_t n : {256, 512, 1024, 2048})
        for (int threads : {1, 2}) {
            const std::string suffix =
                "sgemm_" + std::to_string(n) + "/" + std::to_string(threads) + "T";
            benchmark::RegisterBenchmark(("cpu/" + suffix).c_str(), bench_ours, n, threads)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
            benchmark::RegisterBenchmark(("onednn/" + suffix).c_str(), bench_onednn, n, threads)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
}

}  // namespace tessera::cpu::bench
