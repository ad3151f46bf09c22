// Schedulers: run a kernel's window split across threads. The oneTBB scheduler owns a task arena
// sized by the Context; the sequential scheduler runs everything on the calling thread.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "tessera/cpu/kernel.hpp"

namespace tessera::cpu {

class IScheduler {
  public:
    virtual ~IScheduler() = default;
    virtual int num_threads() const = 0;
    virtual void set_num_threads(int num_threads) = 0;
    /// Splits kernel.window() along kernel.split_dimension() into at most
    /// min(num_threads * parts_per_thread, max_parts) parts (never below kernel.min_chunk() steps
    /// each), each of them again along the kernel's secondary split dimension when the first has
    /// too few steps, and runs them. The partition depends only on the part count, never on
    /// which worker runs a part.
    void schedule(ICpuKernel& kernel, int max_parts = 1 << 30);
    /// Runs `count` independent workloads, each given ThreadInfo{index, count}. Safe to call from
    /// several threads at once (and from inside a workload): a caller that finds the workers busy
    /// with another caller's job runs its own workloads itself, one after another.
    virtual void run_workloads(int count, const std::function<void(const ThreadInfo&)>& work) = 0;
    /// Number of parts schedule() would use for `kernel`.
    int parts_for(const ICpuKernel& kernel, int max_parts = 1 << 30) const;

  private:
    struct Split {
        int primary = 1;  ///< parts along the split dimension
        int across = 1;   ///< pieces of each along the secondary split dimension
    };
    Split split_for(const ICpuKernel& kernel, int max_parts) const;
};

/// Runs every workload on the calling thread, in order.
class SequentialScheduler final : public IScheduler {
  public:
    int num_threads() const override { return 1; }
    void set_num_threads(int) override {}
    void run_workloads(int count, const std::function<void(const ThreadInfo&)>& work) override;
};

/// Creates the oneTBB scheduler (or a sequential one in builds without oneTBB).
std::unique_ptr<IScheduler> make_default_scheduler(int num_threads);
/// Creates a scheduler on persistent worker threads that spin ~1 ms between jobs before blocking
/// (lower dispatch latency for back-to-back small kernels than waking oneTBB workers).
std::unique_ptr<IScheduler> make_thread_pool_scheduler(int num_threads);
/// Whether this build has a multi-threaded scheduler.
bool has_parallel_scheduler();

}  // namespace tessera::cpu
