// op_profile.hpp: the op-by-op profile of `tessera run --profile`. Backends run a partition as a
// whole (fused, with their own scheduling), so per-op times are measured the way op profilers do:
// every intermediate is captured from one run of the whole graph, then each node is compiled
// alone for the same config, fed those values, and timed. The table and the Chrome trace say so.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

namespace tessera::cli {

struct op_timing {
    std::string node;
    std::string op;       ///< the op with its mode, e.g. "conv2d(direct)"
    std::string backend;  ///< where the node ran alone
    double median_ms = 0;
    std::string failure;  ///< why the node could not run alone (then no time)
};

/// Times every node of `g` alone on `config`, median of `repeat` runs after one warm-up run.
std::vector<op_timing> profile_ops(const graph& g, const std::string& config,
                                   const std::map<std::string, tensor>& inputs, int repeat);

/// The profile as a table: nodes by time, then totals per op.
std::string profile_table(const std::vector<op_timing>& ops, double graph_median_ms);

/// Writes a Chrome trace (chrome://tracing, Perfetto): the nodes one after another on one track,
/// the whole graph's median run on another.
void write_chrome_trace(const std::filesystem::path& path, const std::vector<op_timing>& ops,
                        double graph_median_ms);

}  // namespace tessera::cli
