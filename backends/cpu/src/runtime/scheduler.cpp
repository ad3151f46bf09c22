// IScheduler::schedule (window splitting, identical for every scheduler) and the sequential one.
#include "tessera/cpu/scheduler.hpp"

#include <algorithm>

namespace tessera::cpu {

int IScheduler::parts_for(const ICpuKernel& kernel, int max_parts) const {
    if (!kernel.is_parallelisable()) return 1;
    const int64_t steps = kernel.window().num_iterations(kernel.split_dimension());
    const int64_t by_chunk = std::max<int64_t>(1, steps / kernel.min_chunk());
    const int64_t threads = num_threads();
    const int64_t wanted = threads > 1 ? threads * kernel.parts_per_thread() : 1;
    return static_cast<int>(std::max<int64_t>(
        1, std::min<int64_t>({wanted, static_cast<int64_t>(max_parts), by_chunk})));
}

void IScheduler::schedule(ICpuKernel& kernel, int max_parts) {
    const Window& full = kernel.window();
    if (full.total_iterations() == 0) return;
    const int parts = parts_for(kernel, max_parts);
    if (parts == 1) {
        kernel.run(full, ThreadInfo{0, 1});
        return;
    }
    const std::size_t dim = kernel.split_dimension();
    run_workloads(parts, [&](const ThreadInfo& info) {
        const Window sub = full.split_window(dim, info.thread_id, info.num_threads);
        if (sub.num_iterations(dim) > 0) kernel.run(sub, info);
    });
}

void SequentialScheduler::run_workloads(int count,
                                        const std::function<void(const ThreadInfo&)>& work) {
    for (int i = 0; i < count; ++i) work(ThreadInfo{i, count});
}

}  // namespace tessera::cpu
