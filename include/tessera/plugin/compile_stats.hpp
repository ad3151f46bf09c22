// tessera/plugin/compile_stats.hpp: compile_stats, what a backend made of one compiled partition
// (nodes, steps, fused and emulated nodes, reorders), and its conversion to and from the
// size-prefixed tsr_compile_stats of the plugin ABI (1.1). Both sides use it: the host reads a
// plugin's struct without reading past the size the plugin wrote, and the SDK writes a plugin's
// struct without writing past the size the host offered.
#pragma once

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

#include "tessera/c/plugin.h"

namespace tessera {

/// Counts a backend keeps about one compiled partition; a count it does not keep is empty.
/// Thread safety: a plain value.
struct compile_stats {
    std::optional<int> nodes;           ///< partition nodes compiled
    std::optional<int> steps;           ///< executable steps that run them
    std::optional<int> fused_nodes;     ///< nodes folded into another node's step
    std::optional<int> emulated_nodes;  ///< nodes run by fallback code (reference kernels)
    std::optional<int> reorders;        ///< layout conversions added inside the partition

    /// "3 nodes in 1 step, 2 fused, 0 emulated, 0 reorders"; counts not kept are left out.
    std::string to_string() const {
        std::string s;
        auto add = [&s](const std::optional<int>& v, const char* one, const char* many) {
            if (!v) return;
            if (!s.empty()) s += ", ";
            s += std::to_string(*v) + " " + (*v == 1 ? one : many);
        };
        add(nodes, "node", "nodes");
        if (steps)
            s += (s.empty() ? "" : " in ") + std::to_string(*steps) +
                 (*steps == 1 ? " step" : " steps");
        add(fused_nodes, "fused", "fused");
        add(emulated_nodes, "emulated", "emulated");
        add(reorders, "reorder", "reorders");
        return s.empty() ? "no counts kept" : s;
    }
};

namespace detail {

/// The counts of tsr_compile_stats in field order, as members of both structs.
struct compile_stats_field {
    std::size_t c_offset;
    std::optional<int> compile_stats::*member;
};

inline constexpr compile_stats_field compile_stats_fields[] = {
    {offsetof(tsr_compile_stats, nodes), &compile_stats::nodes},
    {offsetof(tsr_compile_stats, steps), &compile_stats::steps},
    {offsetof(tsr_compile_stats, fused_nodes), &compile_stats::fused_nodes},
    {offsetof(tsr_compile_stats, emulated_nodes), &compile_stats::emulated_nodes},
    {offsetof(tsr_compile_stats, reorders), &compile_stats::reorders},
};

/// A struct for the plugin to fill: the host's size, every count unknown.
inline tsr_compile_stats blank_compile_stats() {
    tsr_compile_stats s{};
    s.struct_size = sizeof s;
    for (const auto& f : compile_stats_fields) {
        const std::int32_t unknown = TSR_STAT_UNKNOWN;
        std::memcpy(reinterpret_cast<char*>(&s) + f.c_offset, &unknown, sizeof unknown);
    }
    return s;
}

/// Reads what a plugin wrote: only counts within the struct_size it returned (and within this
/// host's struct); negative counts are unknown.
inline compile_stats read_compile_stats(const tsr_compile_stats& s) {
    compile_stats out;
    const std::size_t size = s.struct_size < sizeof s ? s.struct_size : sizeof s;
    for (const auto& f : compile_stats_fields) {
        if (f.c_offset + sizeof(std::int32_t) > size) continue;
        std::int32_t v = 0;
        std::memcpy(&v, reinterpret_cast<const char*>(&s) + f.c_offset, sizeof v);
        if (v >= 0) out.*f.member = v;
    }
    return out;
}

/// Writes `stats` into the host's struct: at most the host's struct_size bytes, then sets
/// struct_size to the bytes written. A host struct too small for any count gets nothing.
inline void write_compile_stats(const compile_stats& stats, tsr_compile_stats* out) {
    if (!out || out->struct_size < sizeof out->struct_size) return;
    tsr_compile_stats mine{};
    for (const auto& f : compile_stats_fields) {
        const std::optional<int>& v = stats.*f.member;
        const std::int32_t value = v && *v >= 0 ? *v : TSR_STAT_UNKNOWN;
        std::memcpy(reinterpret_cast<char*>(&mine) + f.c_offset, &value, sizeof value);
    }
    const std::size_t n = out->struct_size < sizeof mine ? out->struct_size : sizeof mine;
    mine.struct_size = static_cast<std::uint32_t>(n);
    std::memcpy(out, &mine, n);
}

}  // namespace detail
}  // namespace tessera
