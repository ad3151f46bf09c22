// Registration of case pairs: the two single-library benchmarks and the paired ratio benchmark.
#include "bench_pairs.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "bench_util.hpp"
#include "host_probe.hpp"
#include "quiet_threads.hpp"

namespace tessera::cpu::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Run times of one block, in ms.
struct BlockTimes {
    double median = 0;
    double best = 0;
};

/// Runs `f` for at least kBlockTime and kBlockRuns runs.
BlockTimes time_block(const std::function<void()>& f) {
    constexpr auto kBlockTime = std::chrono::milliseconds(20);
    constexpr int kBlockRuns = 2;
    std::vector<double> runs;
    const auto start = Clock::now();
    while (static_cast<int>(runs.size()) < kBlockRuns || Clock::now() - start < kBlockTime) {
        const auto t0 = Clock::now();
        f();
        runs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return {median(runs), *std::min_element(runs.begin(), runs.end())};
}

/// Lets the other library's idle workers stop spinning, then wakes this one's with an untimed run:
/// each library is timed on cores nobody else is using, with its own workers awake (as in a
/// stream of calls to one library). False if the process did not go quiet.
bool settle(const std::function<void()>& f) {
    const bool quiet = wait_for_quiet_threads();
    f();
    return quiet;
}

void run_single(benchmark::State& state, const std::function<CasePair()>& make, bool ours) {
    const CasePair pair = make();
    const std::function<void()>& f = ours ? pair.ours : pair.onednn;
    settle(f);  // prepare + warm up
    for (auto _ : state) {
        f();
        benchmark::ClobberMemory();
    }
    set_flops(state, pair.flops);
}

void run_paired(benchmark::State& state, const std::function<CasePair()>& make) {
    constexpr int kBlocks = 11;
    const CasePair pair = make();  // each block's settle() runs prepare and warm-up
    wait_for_quiet_threads();
    const HostProbe before = probe_host();
    int unquiet = 0;
    auto block = [&unquiet](const std::function<void()>& f) {
        unquiet += settle(f) ? 0 : 1;
        return time_block(f);
    };
    for (auto _ : state) {
        std::vector<double> ratios, ours_ms, onednn_ms;
        double ours_best = 1e300, onednn_best = 1e300;
        for (int b = 0; b < kBlocks; ++b) {
            // Alternate which library goes first (slow drifts of the machine hit both alike).
            BlockTimes o, d;
            if (b % 2 == 0) {
                o = block(pair.ours);
                d = block(pair.onednn);
            } else {
                d = block(pair.onednn);
                o = block(pair.ours);
            }
            ratios.push_back(o.median / d.median);
            ours_ms.push_back(o.median);
            onednn_ms.push_back(d.median);
            ours_best = std::min(ours_best, o.best);
            onednn_best = std::min(onednn_best, d.best);
        }
        state.counters["ratio"] = median(ratios);
        state.counters["ratio_min"] = *std::min_element(ratios.begin(), ratios.end());
        state.counters["ratio_max"] = *std::max_element(ratios.begin(), ratios.end());
        state.counters["ours_ms"] = median(ours_ms);
        state.counters["onednn_ms"] = median(onednn_ms);
        // Each library's fastest run of the whole benchmark: what it costs on an undisturbed
        // machine (noise only ever adds time), for the same problem in the same process.
        state.counters["ratio_best"] = ours_best / onednn_best;
        state.counters["ours_best_ms"] = ours_best;
        state.counters["onednn_best_ms"] = onednn_best;
        state.counters["unquiet_blocks"] = unquiet;
        // How fast the host ran: ~1.0 quiet, 1.1-1.4 in the shared VM's noisy state.
        state.counters["host_slowdown"] = before.slowdown;
        state.counters["host_probe_us"] = before.median_us;
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
