// IScheduler::schedule (window splitting, identical for every scheduler) and the sequential one.
#include "tessera/cpu/scheduler.hpp"

#include <algorithm>

namespace tessera::cpu {

IScheduler::Split IScheduler::split_for(const ICpuKernel& kernel, int max_parts) const {
    if (!kernel.is_parallelisable()) return {};
    const int64_t steps = kernel.window().num_iterations(kernel.split_dimension());
    const int64_t by_chunk = std::max<int64_t>(1, steps / kernel.min_chunk());
    const int64_t threads = num_threads();
    const int64_t wanted = threads > 1 ? threads * kernel.parts_per_thread() : 1;
    Split s;
    s.primary = static_cast<int>(std::max<int64_t>(
        1, std::min<int64_t>({wanted, static_cast<int64_t>(max_parts), by_chunk})));
    if (kernel.has_secondary_split() && s.primary < wanted) {
        const int64_t steps2 = kernel.window().num_iterations(kernel.secondary_split_dimension());
        s.across = static_cast<int>(
            std::max<int64_t>(1, std::min<int64_t>({(wanted + s.primary - 1) / s.primary, steps2,
                                                    static_cast<int64_t>(max_parts) / s.primary})));
    }
    return s;
}

int IScheduler::parts_for(const ICpuKernel& kernel, int max_parts) const {
    const Split s = split_for(kernel, max_parts);
    return s.primary * s.across;
}

void IScheduler::schedule(ICpuKernel& kernel, int max_parts) {
    const Window& full = kernel.window();
    if (full.total_iterations() == 0) return;
    const Split s = split_for(kernel, max_parts);
    if (s.primary * s.across == 1) {
        kernel.run(full, ThreadInfo{0, 1});
        return;
    }
    const std::size_t dim = kernel.split_dimension();
    if (s.across == 1) {
        run_workloads(s.primary, [&](const ThreadInfo& info) {
            const Window sub = full.split_window(dim, info.thread_id, info.num_threads);
            if (sub.num_iterations(dim) > 0) kernel.run(sub, info);
        });
        return;
    }
    const std::size_t dim2 = kernel.secondary_split_dimension();
    run_workloads(s.primary * s.across, [&](const ThreadInfo& info) {
        const Window sub = full.split_window(dim, info.thread_id / s.across, s.primary)
                               .split_window(dim2, info.thread_id % s.across, s.across);
        if (sub.num_iterations(dim) > 0 && sub.num_iterations(dim2) > 0) kernel.run(sub, info);
    });
}

void SequentialScheduler::run_workloads(int count,
                                        const std::function<void(const ThreadInfo&)>& work) {
    for (int i = 0; i < count; ++i) work(ThreadInfo{i, count});
}

}  // namespace tessera::cpu
