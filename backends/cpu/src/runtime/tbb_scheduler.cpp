// oneTBB scheduler: a task arena with the Context's thread count runs the parts of a window.
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <memory>
#include <thread>

#include "tessera/cpu/error.hpp"
#include "tessera/cpu/scheduler.hpp"

namespace tessera::cpu {
namespace {

class TbbScheduler final : public IScheduler {
public:
    explicit TbbScheduler(int num_threads) { set_num_threads(num_threads); }

    int num_threads() const override { return num_threads_; }

    void set_num_threads(int num_threads) override {
        if (num_threads <= 0) num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        num_threads_ = num_threads;
        arena_ = std::make_unique<tbb::task_arena>(num_threads);
    }

    void run_workloads(int count, const std::function<void(const ThreadInfo&)>& work) override {
        if (count <= 1 || num_threads_ == 1) {
            for (int i = 0; i < count; ++i) work(ThreadInfo{i, count});
            return;
        }
        arena_->execute([&] {
            tbb::parallel_for(
                tbb::blocked_range<int>(0, count, 1),
                [&](const tbb::blocked_range<int>& r) {
                    for (int i = r.begin(); i != r.end(); ++i) work(ThreadInfo{i, count});
                },
                tbb::simple_partitioner());
        });
    }

private:
    int num_threads_ = 1;
    std::unique_ptr<tbb::task_arena> arena_;
};

}  // namespace

std::unique_ptr<IScheduler> make_default_scheduler(int num_threads) {
    return std::make_unique<TbbScheduler>(num_threads);
}

bool has_parallel_scheduler() { return true; }

}  // namespace tessera::cpu
