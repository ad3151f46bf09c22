// parallel_ranges.hpp: splitting the plugin's own loops (element-wise passes, layer norm rows)
// over the runtime's threads. The split depends only on the item count, the grain and the
// thread count, so results do not depend on which worker runs which part.
#pragma once

#include <algorithm>
#include <cstdint>

#include <tessera/cpu/context.hpp>

#include "layouts.hpp"

namespace tessera::plugins::cpu {

/// The number of parts `count` items are split into: at most the context's threads, each part
/// at least `grain` items.
inline int parts_for(const runtime::Context& ctx, std::int64_t count, std::int64_t grain) {
    const std::int64_t by_size =
        std::max<std::int64_t>(1, count / std::max<std::int64_t>(1, grain));
    return static_cast<int>(std::min<std::int64_t>(ctx.num_threads(), by_size));
}

/// Calls body(begin, end, part) for `parts` contiguous ranges covering [0, count), in parallel.
template <typename Body>
void parallel_ranges(const runtime::Context& ctx, std::int64_t count, int parts, Body&& body) {
    if (parts <= 1) {
        body(std::int64_t{0}, count, 0);
        return;
    }
    ctx.scheduler().run_workloads(parts, [&](const runtime::ThreadInfo& t) {
        const std::int64_t begin = count * t.thread_id / parts;
        const std::int64_t end = count * (t.thread_id + 1) / parts;
        body(begin, end, t.thread_id);
    });
}

/// Calls item(i) for every i in [0, count), in order within each of at most `max_parts` parallel
/// ranges.
template <typename Item>
void parallel_items(const runtime::Context& ctx, std::int64_t count, int max_parts, Item&& item) {
    const int parts = static_cast<int>(std::min<std::int64_t>(max_parts, count));
    parallel_ranges(ctx, count, parts, [&](std::int64_t begin, std::int64_t end, int) {
        for (std::int64_t i = begin; i < end; ++i) item(i);
    });
}

}  // namespace tessera::plugins::cpu
