// Registration of case pairs: the two single-library benchmarks and the paired ratio benchmark.
#include "bench_pairs.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "bench_util.hpp"

namespace tessera::cpu::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Runs `f` for at least kBlockTime and kBlockRuns runs; the median run time in ms.
double block_median_ms(const std::function<void()>& f) {
    constexpr auto kBlockTime = std::chrono::milliseconds(20);
    constexpr int kBlockRuns = 2;
    std::vector<double> runs;
    const auto start = Clock::now();
    while (static_cast<int>(runs.size()) < kBlockRuns || Clock::now() - start < kBlockTime) {
        const auto t0 = Clock::now();
        f();
        runs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return median(runs);
}

void run_single(benchmark::State& state, const std::function<CasePair()>& make, bool ours) {
    const CasePair pair = make();
    const std::function<void()>& f = ours ? pair.ours : pair.onednn;
    f();  // prepare + warm up
    for (auto _ : state) {
        f();
        benchmark::ClobberMemory();
    }
    set_flops(state, pair.flops);
}

void run_paired(benchmark::State& state, const std::function<CasePair()>& make) {
    constexpr int kBlocks = 11;
    const CasePair pair = make();
    pair.ours();
    pair.onednn();
    for (auto _ : state) {
        std::vector<double> ratios, ours_ms, onednn_ms;
        for (int b = 0; b < kBlocks; ++b) {
            // Alternate which library goes first so neither always follows the other's spin-down.
            double o = 0, d = 0;
            if (b % 2 == 0) {
                o = block_median_ms(pair.ours);
                d = block_median_ms(pair.onednn);
            } else {
                d = block_median_ms(pair.onednn);
                o = block_median_ms(pair.ours);
            }
            ratios.push_back(o / d);
            ours_ms.push_back(o);
            onednn_ms.push_back(d);
        }
        state.counters["ratio"] = median(ratios);
        state.counters["ratio_min"] = *std::min_element(ratios.begin(), ratios.end());
        state.counters["ratio_max"] = *std::max_element(ratios.begin(), ratios.end());
        state.counters["ours_ms"] = median(ours_ms);
        state.counters["onednn_ms"] = median(onednn_ms);
    }
}

}  // namespace

void register_case_pair(const std::string& name, std::function<CasePair()> make) {
    auto shared = std::make_shared<std::function<CasePair()>>(std::move(make));
    benchmark::RegisterBenchmark(("cpu/" + name).c_str(),
                                 [shared](benchmark::State& s) { run_single(s, *shared, true); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("onednn/" + name).c_str(),
                                 [shared](benchmark::State& s) { run_single(s, *shared, false); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("paired/" + name).c_str(),
                                 [shared](benchmark::State& s) { run_paired(s, *shared); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(1);
}

}  // namespace tessera::cpu::bench
