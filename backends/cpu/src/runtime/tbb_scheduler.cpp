// oneTBB scheduler: the Context's thread count sizes a task arena. Parts go out through
// PartDispatcher; helper tasks enqueued in the arena claim parts and stay for ~1 ms waiting for the
// next job before returning, so back-to-back kernels find a worker already running.
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "runtime/part_dispatcher.hpp"
#include "tessera/cpu/scheduler.hpp"

namespace tessera::cpu {
namespace {

class TbbScheduler final : public IScheduler {
  public:
    explicit TbbScheduler(int num_threads) { set_num_threads(num_threads); }
    ~TbbScheduler() override { stop_helpers(); }

    int num_threads() const override { return num_threads_; }

    void set_num_threads(int num_threads) override {
        if (num_threads <= 0)
            num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        stop_helpers();
        num_threads_ = num_threads;
        // One slot is reserved for the calling thread, which claims parts too.
        arena_ = std::make_unique<tbb::task_arena>(num_threads, 1);
        stop_ = false;
    }

    void run_workloads(int count, const std::function<void(const ThreadInfo&)>& work) override {
        if (count > 1 && num_threads_ > 1) {
            if (const auto turn = dispatcher_.try_take_turn(); turn.owns_lock()) {
                dispatcher_.publish(work, count);
                const int wanted = std::min(count, num_threads_) - 1;
                for (int active = helpers_.load(); active < wanted; active = helpers_.load())
                    if (helpers_.compare_exchange_weak(active, active + 1))
                        arena_->enqueue([this] { helper(); });
                dispatcher_.claim();
                dispatcher_.wait_done();
                return;
            }
        }
        // One part, one thread, or the workers busy with another caller's job.
        for (int i = 0; i < count; ++i) work(ThreadInfo{i, count});
    }

  private:
    void helper() {
        for (uint64_t seen = dispatcher_.generation();; seen = dispatcher_.generation()) {
            dispatcher_.claim();
            if (!dispatcher_.wait_for_job(seen, std::chrono::milliseconds(1), stop_)) break;
        }
        helpers_.fetch_sub(1, std::memory_order_acq_rel);
    }

    void stop_helpers() {
        stop_ = true;
        while (helpers_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
    }

    int num_threads_ = 1;
    std::unique_ptr<tbb::task_arena> arena_;
    PartDispatcher dispatcher_;
    std::atomic<int> helpers_{0};
    std::atomic<bool> stop_{false};
};

}  // namespace

std::unique_ptr<IScheduler> make_default_scheduler(int num_threads) {
    return std::make_unique<TbbScheduler>(num_threads);
}

bool has_parallel_scheduler() {
    return true;
}

}  // namespace tessera::cpu
