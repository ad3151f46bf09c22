// Window splitting rules (ACL architecture notes) and scheduler partitioning.
#include <doctest/doctest.h>

#include <vector>

#include "tessera/cpu/error.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/scheduler.hpp"
#include "tessera/cpu/window.hpp"

using namespace tessera::cpu;

TEST_CASE("window: split parts obey the sub-window rules and cover the window exactly") {
    for (int64_t start : {0, 3}) {
        for (int64_t step : {1, 4, 6}) {
            for (int64_t steps : {1, 5, 7, 16}) {
                Window w;
                w.set(0, Window::Dimension(0, 8, 1));
                w.set(1, Window::Dimension(start, start + steps * step, step));
                for (int64_t parts : {1, 2, 3, 8}) {
                    int64_t next = start, covered = 0;
                    for (int64_t id = 0; id < parts; ++id) {
                        const Window sub = w.split_window(1, id, parts);
                        CHECK(sub[0] == w[0]);
                        CHECK(sub[1].step() == step);
                        if (sub[1].start() == sub[1].end()) continue;  // empty part
                        CHECK(w.is_valid_subwindow(sub));
                        CHECK(sub[1].start() == next);  // contiguous
                        next = sub[1].end();
                        covered += sub.num_iterations(1);
                        // balanced to within one step
                        CHECK(sub.num_iterations(1) >= steps / parts);
                        CHECK(sub.num_iterations(1) <= steps / parts + 1);
                    }
                    CHECK(covered == steps);
                    CHECK(next == start + steps * step);
                }
            }
        }
    }
}

TEST_CASE("window: invalid dimensions and sub-windows are rejected") {
    Window w;
    CHECK_THROWS_AS(w.set(0, Window::Dimension(0, 10, 4)), InvalidArgument);
    CHECK_THROWS_AS(w.set(0, Window::Dimension(0, 8, 0)), InvalidArgument);
    CHECK_THROWS_AS(w.set(7, Window::Dimension(0, 8, 1)), InvalidArgument);
    w.set(0, Window::Dimension(0, 16, 4));
    Window misaligned = w;
    misaligned.set(0, Window::Dimension(2, 10, 4));
    CHECK_FALSE(w.is_valid_subwindow(misaligned));
    Window wrong_step = w;
    wrong_step.set(0, Window::Dimension(0, 8, 2));
    CHECK_FALSE(w.is_valid_subwindow(wrong_step));
    Window outside = w;
    outside.set(0, Window::Dimension(12, 20, 4));
    CHECK_FALSE(w.is_valid_subwindow(outside));
    CHECK(w.is_valid_subwindow(w.split_window(0, 1, 2)));
}

namespace {
// Records which sub-windows it ran.
class RecordingKernel final : public ICpuKernel {
  public:
    RecordingKernel(int64_t steps, int64_t min_chunk, int parts_per_thread = 1) {
        Window w;
        w.set(2, Window::Dimension(0, steps * 2, 2));
        configure_window(w, 2, min_chunk);
        set_parts_per_thread(parts_per_thread);
        hits.assign(static_cast<std::size_t>(steps), 0);
    }
    const char* name() const override { return "RecordingKernel"; }
    void run(const Window& w, const ThreadInfo&) override {
        for (int64_t i = w[2].start(); i < w[2].end(); i += 2)
            hits[static_cast<std::size_t>(i / 2)]++;
    }
    std::vector<int> hits;
};
}  // namespace

TEST_CASE("schedulers: every step runs exactly once, min chunk limits the parts") {
    auto tbb = make_default_scheduler(2);
    auto pool = make_thread_pool_scheduler(2);
    for (int64_t steps : {1, 2, 3, 9}) {
        RecordingKernel k(steps, 1);
        tbb->schedule(k);
        for (int h : k.hits) CHECK(h == 1);
        CHECK(tbb->parts_for(k) == (has_parallel_scheduler() ? std::min<int64_t>(2, steps) : 1));
        RecordingKernel p(steps, 1);
        for (int repeat = 0; repeat < 50; ++repeat) pool->schedule(p);
        for (int h : p.hits) CHECK(h == 50);
        CHECK(pool->parts_for(p) == std::min<int64_t>(2, steps));
    }
    RecordingKernel big_chunk(3, 4);
    CHECK(tbb->parts_for(big_chunk) == 1);
    pool->set_num_threads(3);
    RecordingKernel three(7, 1);
    pool->schedule(three);
    for (int h : three.hits) CHECK(h == 1);
    CHECK(pool->parts_for(three) == 3);
}

TEST_CASE("schedulers: kernels asking for several parts per thread get them, each step once") {
    auto tbb = make_default_scheduler(2);
    auto pool = make_thread_pool_scheduler(2);
    auto one = make_default_scheduler(1);
    for (int64_t steps : {3, 8, 21}) {
        RecordingKernel k(steps, 1, 4), p(steps, 1, 4), s(steps, 1, 4);
        for (int repeat = 0; repeat < 20; ++repeat) {
            tbb->schedule(k);
            pool->schedule(p);
            one->schedule(s);
        }
        for (int h : k.hits) CHECK(h == 20);
        for (int h : p.hits) CHECK(h == 20);
        for (int h : s.hits) CHECK(h == 20);
        CHECK(tbb->parts_for(k) == (has_parallel_scheduler() ? std::min<int64_t>(8, steps) : 1));
        CHECK(pool->parts_for(p) == std::min<int64_t>(8, steps));
        CHECK(one->parts_for(s) == 1);
    }
}

namespace {
// Records how often it ran each (row, column) cell of a two-dimensional window.
class GridKernel final : public ICpuKernel {
  public:
    GridKernel(int64_t columns, int64_t rows) : columns_(columns) {
        Window w;
        w.set(0, Window::Dimension(0, columns, 1));
        w.set(1, Window::Dimension(0, rows, 1));
        configure_window(w, 0, 1);
        set_parts_per_thread(4);
        set_secondary_split(1);
        hits.assign(static_cast<std::size_t>(columns * rows), 0);
    }
    const char* name() const override { return "GridKernel"; }
    void run(const Window& w, const ThreadInfo&) override {
        for (int64_t r = w[1].start(); r < w[1].end(); ++r)
            for (int64_t c = w[0].start(); c < w[0].end(); ++c)
                hits[static_cast<std::size_t>(r * columns_ + c)]++;
    }
    std::vector<int> hits;

  private:
    int64_t columns_;
};
}  // namespace

TEST_CASE("schedulers: a first dimension too short for the threads is split along the second") {
    auto pool = make_thread_pool_scheduler(4);  // wants 16 parts
    // 4 columns: 4 parts of 4 rows each; 2 rows: 4 x 2 parts; 20 columns: no second split. At
    // most 6 parts: no second split of 4 columns, 6 parts of 20.
    const struct {
        int64_t columns, rows;
        int parts, capped;
    } cases[] = {{4, 6, 16, 4}, {4, 2, 8, 4}, {20, 6, 16, 6}, {1, 1, 1, 1}};
    for (const auto& c : cases) {
        CAPTURE(c.columns);
        CAPTURE(c.rows);
        GridKernel k(c.columns, c.rows);
        CHECK(pool->parts_for(k) == c.parts);
        CHECK(pool->parts_for(k, 6) == c.capped);
        for (int repeat = 0; repeat < 10; ++repeat) pool->schedule(k);
        for (int h : k.hits) CHECK(h == 10);
    }
    auto one = make_thread_pool_scheduler(1);
    GridKernel single(4, 6);
    CHECK(one->parts_for(single) == 1);
    one->schedule(single);
    for (int h : single.hits) CHECK(h == 1);
}
