// run_timing.hpp: timing repeated runs for the model commands: min and median wall time, and a
// progress line on stderr once the runs have taken more than a second.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace tessera::cli {

struct run_times {
    double min_ms = 0;
    double median_ms = 0;
    int runs = 0;
};

/// Calls `run` `count` times (at least once) and times each call. With a non-empty `label`, a
/// progress line "label: run i/count" is kept on stderr after the first second.
template <typename Run>
run_times time_runs(int count, Run&& run, const std::string& label = {}) {
    using clock = std::chrono::steady_clock;
    count = std::max(count, 1);
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(count));
    const auto start = clock::now();
    auto shown_at = start;
    bool progress_shown = false;
    for (int i = 0; i < count; ++i) {
        const auto t0 = clock::now();
        run();
        const auto t1 = clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        const bool due = t1 - shown_at > std::chrono::milliseconds(200) || i + 1 == count;
        if (!label.empty() && t1 - start > std::chrono::seconds(1) && due) {
            std::fprintf(stderr, "\r%s: run %d/%d", label.c_str(), i + 1, count);
            shown_at = t1;
            progress_shown = true;
        }
    }
    if (progress_shown) std::fprintf(stderr, "\n");
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    return {ms.front(), median, count};
}

}  // namespace tessera::cli
