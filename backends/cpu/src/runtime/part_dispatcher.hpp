// PartDispatcher: hands the parts of one job at a time to whichever threads ask. A single atomic
// word holds (job generation, next part), so a thread can never claim a part of a job it did not
// see published; the caller waits until every part has finished before publishing the next job.
// It serves one caller at a time: a scheduler publishes only while it holds the turn
// (try_take_turn), and a caller that cannot get it runs its own parts instead.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>

#include "tessera/cpu/kernel.hpp"

namespace tessera::cpu {

class PartDispatcher {
  public:
    using Work = std::function<void(const ThreadInfo&)>;

    /// The right to publish, held until the published job is done; not owned while another
    /// caller (another thread, or a workload of the current job) holds it.
    std::unique_lock<std::mutex> try_take_turn() {
        return std::unique_lock<std::mutex>(turn_, std::try_to_lock);
    }

    /// Publishes `count` parts of `work` (the previous job must have finished).
    void publish(const Work& work, int count) {
        work_.store(&work, std::memory_order_relaxed);
        count_.store(count, std::memory_order_relaxed);
        remaining_.store(count, std::memory_order_relaxed);
        const uint64_t generation = (state_.load(std::memory_order_relaxed) >> 32) + 1;
        state_.store(generation << 32, std::memory_order_release);
    }

    /// Runs parts of the current job until none is left to claim.
    void claim() {
        uint64_t state = state_.load(std::memory_order_acquire);
        for (;;) {
            const int next = static_cast<int>(state & 0xffffffffu);
            const int count = count_.load(std::memory_order_relaxed);
            if (next >= count) return;
            if (!state_.compare_exchange_weak(state, state + 1, std::memory_order_acq_rel,
                                              std::memory_order_acquire))
                continue;  // another thread claimed it, or a new job was published: re-read
            // The successful exchange proves this job is still current, so work/count belong to it.
            (*work_.load(std::memory_order_relaxed))(
                ThreadInfo{next, count_.load(std::memory_order_relaxed)});
            remaining_.fetch_sub(1, std::memory_order_acq_rel);
            state = state_.load(std::memory_order_acquire);
        }
    }

    /// Spins until every part of the current job has finished.
    void wait_done() const {
        while (remaining_.load(std::memory_order_acquire) != 0) relax();
    }

    uint64_t generation() const { return state_.load(std::memory_order_acquire) >> 32; }

    /// Spins up to `budget` for a job newer than `seen`; true when one was published.
    bool wait_for_job(uint64_t seen, std::chrono::microseconds budget,
                      const std::atomic<bool>& stop) const {
        const auto until = std::chrono::steady_clock::now() + budget;
        while (generation() == seen) {
            if (stop.load(std::memory_order_acquire) || std::chrono::steady_clock::now() >= until)
                return false;
            for (int i = 0; i < 64; ++i) relax();
        }
        return true;
    }

    static void relax() {
#if defined(__x86_64__) || defined(_M_X64)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
    }

  private:
    std::mutex turn_;
    std::atomic<uint64_t> state_{0};
    std::atomic<int> remaining_{0};
    std::atomic<const Work*> work_{nullptr};
    std::atomic<int> count_{0};
};

}  // namespace tessera::cpu
