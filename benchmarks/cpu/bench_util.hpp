// Helpers shared by the CPU benchmarks: thread-count control for both libraries and FLOP counters.
#pragma once

#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tessera/cpu/context.hpp"

namespace tessera::cpu::bench {

inline std::vector<float> random_data(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

/// Reports GFLOP/s as a rate counter.
inline void set_flops(benchmark::State& state, double flops_per_iteration) {
    state.counters["GFLOPS"] =
        benchmark::Counter(flops_per_iteration * 1e-9 * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}

/// Scheduler of our contexts: TESSERA_BENCH_SCHEDULER=pool selects the spinning thread pool,
/// anything else oneTBB.
inline SchedulerKind bench_scheduler() {
    const char* kind = std::getenv("TESSERA_BENCH_SCHEDULER");
    return kind && std::string(kind) == "pool" ? SchedulerKind::thread_pool : SchedulerKind::tbb;
}

/// Instruction set of our contexts: TESSERA_BENCH_ISA=avx2 (or avx512, sse2) pins one, so the
/// AVX2 kernels can be measured on an AVX-512 machine (cap oneDNN alike with
/// ONEDNN_MAX_CPU_ISA=AVX2); unset or anything else: the best the machine has.
inline Isa bench_isa() {
    const char* isa = std::getenv("TESSERA_BENCH_ISA");
    const std::string name = isa ? isa : "";
    return name == "avx512" ? Isa::avx512
           : name == "avx2" ? Isa::avx2
           : name == "sse2" ? Isa::sse2
                            : Isa::automatic;
}

/// One Context per thread count, reused by every case (made on first use, before any timing).
inline Context& context_for(int threads) {
    static std::map<int, std::unique_ptr<Context>> contexts;
    auto& c = contexts[threads];
    if (!c) c = std::make_unique<Context>(ContextOptions{threads, bench_isa(), bench_scheduler()});
    return *c;
}

inline void use_onednn_threads(int threads) {
    omp_set_num_threads(threads);
}

}  // namespace tessera::cpu::bench
