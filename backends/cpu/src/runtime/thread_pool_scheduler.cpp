// ThreadPoolScheduler: persistent std::thread workers that spin ~1 ms between jobs (then block),
// so back-to-back kernels do not pay a thread wake-up each. Parts go out through PartDispatcher.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/part_dispatcher.hpp"
#include "tessera/cpu/scheduler.hpp"

namespace tessera::cpu {
namespace {

class ThreadPoolScheduler final : public IScheduler {
  public:
    explicit ThreadPoolScheduler(int num_threads) { set_num_threads(num_threads); }
    ~ThreadPoolScheduler() override { stop_workers(); }

    int num_threads() const override { return num_threads_; }

    void set_num_threads(int num_threads) override {
        if (num_threads <= 0)
            num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        stop_workers();
        num_threads_ = num_threads;
        stop_ = false;
        for (int i = 1; i < num_threads_; ++i) workers_.emplace_back([this] { worker_loop(); });
    }

    void run_workloads(int count, const std::function<void(const ThreadInfo&)>& work) override {
        if (count > 1 && !workers_.empty()) {
            if (const auto turn = dispatcher_.try_take_turn(); turn.owns_lock()) {
                {
                    std::lock_guard<std::mutex> lock(mutex_);  // pairs with the workers' wait
                    dispatcher_.publish(work, count);
                }
                wake_.notify_all();
                dispatcher_.claim();
                dispatcher_.wait_done();
                return;
            }
        }
        // One part, no workers, or the workers busy with another caller's job.
        for (int i = 0; i < count; ++i) work(ThreadInfo{i, count});
    }

  private:
    void worker_loop() {
        uint64_t seen = dispatcher_.generation();
        for (;;) {
            if (!dispatcher_.wait_for_job(seen, std::chrono::milliseconds(1), stop_)) {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return dispatcher_.generation() != seen || stop_.load(); });
            }
            if (stop_.load(std::memory_order_acquire)) return;
            seen = dispatcher_.generation();
            dispatcher_.claim();
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
    std::atomic<bool> stop_{false};
    PartDispatcher dispatcher_;
};

}  // namespace

std::unique_ptr<IScheduler> make_thread_pool_scheduler(int num_threads) {
    return std::make_unique<ThreadPoolScheduler>(num_threads);
}

}  // namespace tessera::cpu
