// PartDispatcher: hands out the parts of one job at a time. Thread t of n owns the contiguous
// parts [t*count/n, (t+1)*count/n) and takes them from the front; a thread that has run out takes
// other threads' parts from the back. So from one job to the next the same thread runs the same
// parts (the same data, still in its core's cache) unless a thread is late, and a late thread
// delays nobody. The caller waits until every part has finished before publishing the next job.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "tessera/cpu/kernel.hpp"

namespace tessera::cpu {

class PartDispatcher {
  public:
    using Work = std::function<void(const ThreadInfo&)>;

    /// A dispatcher for `threads` threads, numbered 0 (the caller) to threads - 1.
    explicit PartDispatcher(int threads)
        : threads_(threads < 1 ? 1 : threads), ranges_(std::make_unique<Range[]>(threads_)) {}

    /// Publishes `count` parts of `work` (the previous job must have finished).
    void publish(const Work& work, int count) {
        work_.store(&work, std::memory_order_relaxed);
        count_.store(count, std::memory_order_relaxed);
        remaining_.store(count, std::memory_order_relaxed);
        for (int t = 0; t < threads_; ++t) {
            const auto begin = static_cast<uint32_t>(int64_t{count} * t / threads_);
            const auto end = static_cast<uint32_t>(int64_t{count} * (t + 1) / threads_);
            ranges_[t].parts.store(pack(begin, end), std::memory_order_release);
        }
        generation_.fetch_add(1, std::memory_order_release);
    }

    /// Runs thread `self`'s own parts, then any other thread's still unclaimed, until none is left.
    void claim(int self) {
        while (take(self, /*from_front=*/true)) {
        }
        for (int k = 1; k < threads_; ++k)
            while (take((self + k) % threads_, /*from_front=*/false)) {
            }
    }

    /// Spins until every part of the current job has finished.
    void wait_done() const {
        while (remaining_.load(std::memory_order_acquire) != 0) relax();
    }

    uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

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
    /// One thread's unclaimed parts [begin, end), packed in one word so that the owner (taking
    /// `begin`) and thieves (taking `end - 1`) claim with one compare-exchange.
    struct alignas(64) Range {
        std::atomic<uint64_t> parts{0};
    };

    static uint64_t pack(uint32_t begin, uint32_t end) {
        return uint64_t{begin} << 32 | end;
    }

    /// Claims and runs one part of thread `owner`'s range; false when the range is empty. A
    /// successful exchange proves the range belongs to the current job (a job's ranges are only
    /// replaced once all its parts have finished, and this one had not started), so the work and
    /// count read after it, published before the ranges, are that job's.
    bool take(int owner, bool from_front) {
        std::atomic<uint64_t>& parts = ranges_[owner].parts;
        uint64_t state = parts.load(std::memory_order_acquire);
        for (;;) {
            const auto begin = static_cast<uint32_t>(state >> 32);
            const auto end = static_cast<uint32_t>(state);
            if (begin >= end) return false;
            const uint32_t part = from_front ? begin : end - 1;
            const uint64_t rest = from_front ? pack(begin + 1, end) : pack(begin, end - 1);
            if (!parts.compare_exchange_weak(state, rest, std::memory_order_acq_rel,
                                             std::memory_order_acquire))
                continue;
            (*work_.load(std::memory_order_relaxed))(
                ThreadInfo{static_cast<int>(part), count_.load(std::memory_order_relaxed)});
            remaining_.fetch_sub(1, std::memory_order_acq_rel);
            return true;
        }
    }

    int threads_;
    std::unique_ptr<Range[]> ranges_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<int> remaining_{0};
    std::atomic<const Work*> work_{nullptr};
    std::atomic<int> count_{0};
};

}  // namespace tessera::cpu
