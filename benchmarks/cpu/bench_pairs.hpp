// A benchmark case as a pair of runners (ours, oneDNN) over the same problem, and its registration
// as three benchmarks: cpu/<case>, onednn/<case> (each library alone, as Google Benchmark times
// it) and paired/<case>, which alternates blocks of the two in one run and reports the median of
// the per-block time ratios. The host's speed drifts by tens of percent over seconds on shared
// machines; blocks of ~20 ms side by side see the same speed, so the paired ratio moves far less
// between runs than the ratio of the separate benchmarks' best times. paired/ also reports
// ratio_best, the ratio of each library's fastest run over all its blocks (the undisturbed cost).
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <string>

namespace tessera::cpu::bench {

/// One problem, set up once; each runner executes one iteration (outputs may be overwritten).
struct CasePair {
    std::function<void()> ours;
    std::function<void()> onednn;
    double flops = 0;  ///< per iteration, for the GFLOPS counter
};

/// Registers cpu/<name>, onednn/<name> and paired/<name>; `make` builds the pair (untimed).
void register_case_pair(const std::string& name, std::function<CasePair()> make);

}  // namespace tessera::cpu::bench
