// ThreadPoolScheduler: persistent worker threads that spin briefly between jobs (then block), so
// back-to-back kernels do not pay a thread wake-up each. Parts are claimed from an atomic counter;
// the partition itself is fixed by the part count, so results do not depend on who runs a part.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "tessera/cpu/scheduler.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

namespace tessera::cpu {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(_M_X64)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

class ThreadPoolScheduler final : public IScheduler {
public:
    explicit ThreadPoolScheduler(int num_threads) { set_num_threads(num_threads); }
    ~ThreadPoolScheduler() override { stop_workers(); }

    int num_threads() const override { return num_threads_; }

    void set_num_threads(int num_threads) override {
        if (num_threads <= 0) num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        stop_workers();
        num_threads_ = num_threads;
        stop_ = false;
        for (int i = 1; i < num_threads_; ++i) workers_.emplace_back([this] { worker_loop(); });
    }

    void run_workloads(int count, const std::function<void(const ThreadInfo&)>& work) override {
        if (count <= 1 || workers_.empty()) {
            for (int i = 0; i < count; ++i) work(ThreadInfo{i, count});
            return;
        }
        work_ = &work;
        count_ = count;
        next_.store(0, std::memory_order_relaxed);
        remaining_.store(count, std::memory_order_relaxed);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        claim_parts();
        while (remaining_.load(std::memory_order_acquire) != 0) cpu_relax();
    }

private:
    void claim_parts() {
        for (int i = next_.fetch_add(1, std::memory_order_acq_rel); i < count_;
             i = next_.fetch_add(1, std::memory_order_acq_rel)) {
            (*work_)(ThreadInfo{i, count_});
            remaining_.fetch_sub(1, std::memory_order_acq_rel);
        }
    }

    void worker_loop() {
        uint64_t seen = generation_.load(std::memory_order_acquire);
        for (;;) {
            // Spin about a millisecond for the next job, then block.
            const auto spin_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
            while (generation_.load(std::memory_order_acquire) == seen && !stop_.load(std::memory_order_acquire) &&
                   std::chrono::steady_clock::now() < spin_until)
                for (int i = 0; i < 64; ++i) cpu_relax();
            if (generation_.load(std::memory_order_acquire) == seen && !stop_.load(std::memory_order_acquire)) {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] {
                    return generation_.load(std::memory_order_acquire) != seen || stop_.load(std::memory_order_acquire);
                });
            }
            if (stop_.load(std::memory_order_acquire)) return;
            seen = generation_.load(std::memory_order_acquire);
            claim_parts();
        }
    }

    void stop_workers() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_) t.join();
        workers_.clear();
    }

    int num_threads_ = 1;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
    std::atomic<int> next_{0};
    std::atomic<int> remaining_{0};
    const std::function<void(const ThreadInfo&)>* work_ = nullptr;
    int count_ = 0;
};

}  // namespace

std::unique_ptr<IScheduler> make_thread_pool_scheduler(int num_threads) {
    return std::make_unique<ThreadPoolScheduler>(num_threads);
}

}  // namespace tessera::cpu
