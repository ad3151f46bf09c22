// Context: the runtime services a function needs (scheduler, weights manager, default memory
// manager, selected SIMD kernels). Replaces the singletons of ACL; create one per pipeline.
#pragma once

#include <memory>
#include <string>

#include "tessera/cpu/memory.hpp"
#include "tessera/cpu/scheduler.hpp"
#include "tessera/cpu/scratchpad.hpp"
#include "tessera/cpu/weights_manager.hpp"

namespace tessera::cpu {

struct KernelTable;

/// Instruction sets a Context can select (auto = best available on this CPU).
enum class Isa { automatic, avx512, avx2, sse2, neon };

/// Which scheduler a Context owns.
enum class SchedulerKind { tbb, thread_pool, sequential };

struct ContextOptions {
    int num_threads = 0;  ///< 0: hardware concurrency
    Isa isa = Isa::automatic;
    SchedulerKind scheduler = SchedulerKind::tbb;  ///< tbb falls back to sequential without oneTBB
    /// Whether Conv2d's automatic method may pick Winograd F(2x2, 3x3) (ConvMethod); false keeps
    /// every convolution direct, with direct convolution's rounding.
    bool winograd = true;
};

class Context {
  public:
    explicit Context(const ContextOptions& options = {});
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    IScheduler& scheduler() const { return *scheduler_; }
    WeightsManager& weights_manager() const { return *weights_; }
    const std::shared_ptr<MemoryManager>& memory_manager() const { return memory_; }
    /// Working memory that one-shot calls (sgemm) reuse from call to call.
    Scratchpad& scratchpad() const { return *scratchpad_; }
    const KernelTable& kernels() const { return *kernels_; }
    /// ContextOptions::winograd.
    bool winograd_allowed() const { return winograd_; }
    int num_threads() const { return scheduler_->num_threads(); }
    void set_num_threads(int n) { scheduler_->set_num_threads(n); }
    /// Name of the selected instruction set ("avx512", "avx2", "sse2", "neon").
    std::string isa_name() const;
    /// Whether `isa` can run on this CPU in this build.
    static bool isa_available(Isa isa);

  private:
    std::unique_ptr<IScheduler> scheduler_;
    std::unique_ptr<WeightsManager> weights_;
    std::shared_ptr<MemoryManager> memory_;
    std::unique_ptr<Scratchpad> scratchpad_;
    const KernelTable* kernels_ = nullptr;
    bool winograd_ = true;
};

}  // namespace tessera::cpu
