// tessera::cpu::sgemm against a triple-loop reference: transposes, odd sizes, leading dimensions,
// alpha/beta, every instruction set, 1 vs 2 threads bit-identical, and how the GEMM kernel splits;
// sdot_rows (rows of a matrix against one vector) and DotPanels (the same from 16-row panels) the
// same way.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "kernels/gemm_kernel.hpp"
#include "runtime/cache_sizes.hpp"
#include "tessera/cpu/blas.hpp"
#include "tessera/cpu/error.hpp"
#include "test_helpers.hpp"

using namespace tessera::cpu;
using namespace tessera::cpu::test;

namespace {

void reference_sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                     int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int64_t p = 0; p < k; ++p) {
                const float av = ta ? a[p * lda + i] : a[i * lda + p];
                const float bv = tb ? b[j * ldb + p] : b[p * ldb + j];
                sum += static_cast<double>(av) * bv;
            }
            float& cv = c[i * ldc + j];
            cv = static_cast<float>(alpha * sum +
                                    (beta == 0.0f ? 0.0 : static_cast<double>(beta) * cv));
        }
}

struct Case {
    int64_t m, n, k;
    bool ta, tb;
    float alpha, beta;
};

/// Calls f(one, two, pool): Contexts of 1 and 2 threads (oneTBB) and 2 threads (thread pool), for
/// every instruction set the host has.
template <class F>
void for_each_isa_contexts(F&& f) {
    for (Isa isa : available_isas()) {
        Context one(ContextOptions{1, isa}), two(ContextOptions{2, isa}),
            pool(ContextOptions{2, isa, SchedulerKind::thread_pool});
        CAPTURE(one.isa_name());
        f(one, two, pool);
    }
}

/// y[j] = x . (row j of w, ldw apart) for j < n, summed in double and rounded once.
std::vector<float> double_dots(const std::vector<float>& x, const std::vector<float>& w, int64_t n,
                               int64_t k, int64_t ldw) {
    std::vector<float> y(static_cast<std::size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t i = 0; i < k; ++i)
            sum += static_cast<double>(x[static_cast<std::size_t>(i)]) *
                   w[static_cast<std::size_t>(j * ldw + i)];
        y[static_cast<std::size_t>(j)] = static_cast<float>(sum);
    }
    return y;
}

}  // namespace

TEST_CASE("sgemm matches the triple-loop reference on every instruction set") {
    const Case cases[] = {
        {1, 1, 1, false, false, 1.0f, 0.0f},      {7, 13, 5, false, false, 1.0f, 0.0f},
        {33, 47, 301, false, false, 0.5f, 2.0f},  {64, 64, 64, true, false, 1.0f, 1.0f},
        {19, 70, 260, false, true, -1.0f, 0.5f},  {150, 37, 17, true, true, 2.0f, 0.0f},
        {5, 300, 3, false, false, 1.0f, -1.0f},   {200, 130, 520, false, false, 1.0f, 0.0f},
        {37, 530, 600, false, false, 1.0f, 0.5f},  // K blocks, several column blocks
        {9, 700, 40, false, false, 1.0f, 0.0f}};   // more columns than any table's NC cap
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        CAPTURE(ctx.isa_name());
        uint32_t seed = 1;
        for (const Case& cs : cases) {
            CAPTURE(cs.m);
            CAPTURE(cs.n);
            CAPTURE(cs.k);
            const int64_t lda = (cs.ta ? cs.m : cs.k) + 3, ldb = (cs.tb ? cs.k : cs.n) + 1,
                          ldc = cs.n + 5;
            const auto a =
                random_vector(static_cast<std::size_t>((cs.ta ? cs.k : cs.m) * lda), seed++);
            const auto b =
                random_vector(static_cast<std::size_t>((cs.tb ? cs.n : cs.k) * ldb), seed++);
            auto c = random_vector(static_cast<std::size_t>(cs.m * ldc), seed++);
            if (cs.beta == 0.0f)  // C must not be read: poison it
                for (float& x : c) x = std::numeric_limits<float>::quiet_NaN();
            auto want = c;
            sgemm(cs.ta, cs.tb, cs.m, cs.n, cs.k, cs.alpha, a.data(), lda, b.data(), ldb, cs.beta,
                  c.data(), ldc, ctx);
            reference_sgemm(cs.ta, cs.tb, cs.m, cs.n, cs.k, cs.alpha, a.data(), lda, b.data(), ldb,
                            cs.beta, want.data(), ldc);
            // compare only the m x n block; the padding columns must be untouched
            CHECK(all_close(c, want, 1e-3f, 1e-4f));
        }
    }
}

TEST_CASE("sgemm: 1 and 2 threads give bit-identical results") {
    for (Isa isa : available_isas()) {
        Context one(ContextOptions{1, isa}), two(ContextOptions{2, isa}),
            pool(ContextOptions{2, isa, SchedulerKind::thread_pool});
        for (int64_t size : {67, 256, 301, 530}) {
            const auto a = random_vector(static_cast<std::size_t>(size * size), 11);
            const auto b = random_vector(static_cast<std::size_t>(size * size), 12);
            std::vector<float> c1(static_cast<std::size_t>(size * size)), c2(c1.size());
            sgemm(false, false, size, size, size, 1.0f, a.data(), size, b.data(), size, 0.0f,
                  c1.data(), size, one);
            sgemm(false, false, size, size, size, 1.0f, a.data(), size, b.data(), size, 0.0f,
                  c2.data(), size, two);
            CHECK(std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(float)) == 0);
            std::fill(c2.begin(), c2.end(), 0.0f);
            sgemm(false, false, size, size, size, 1.0f, a.data(), size, b.data(), size, 0.0f,
                  c2.data(), size, pool);
            CHECK(std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("sgemm: calls on one Context from several threads at once give the same results") {
    for (SchedulerKind kind : {SchedulerKind::tbb, SchedulerKind::thread_pool}) {
        Context ctx(ContextOptions{2, Isa::automatic, kind});
        const int64_t size = 200;
        const auto a = random_vector(static_cast<std::size_t>(size * size), 31);
        const auto b = random_vector(static_cast<std::size_t>(size * size), 32);
        std::vector<float> want(static_cast<std::size_t>(size * size));
        sgemm(false, false, size, size, size, 1.0f, a.data(), size, b.data(), size, 0.0f,
              want.data(), size, ctx);
        CHECK(ctx.scratchpad().capacity() > 0);  // B was packed into the Context's scratchpad
        // Three callers at once: one has the workers, the others run their parts themselves
        // (and borrow private workspace while the scratchpad is leased).
        std::vector<std::vector<float>> got(3, std::vector<float>(want.size()));
        std::vector<int> mismatches(got.size(), 0);
        std::vector<std::thread> callers;
        for (std::size_t t = 0; t < got.size(); ++t)
            callers.emplace_back([&, t] {
                for (int rep = 0; rep < 20; ++rep) {
                    std::fill(got[t].begin(), got[t].end(), 0.0f);
                    sgemm(false, false, size, size, size, 1.0f, a.data(), size, b.data(), size,
                          0.0f, got[t].data(), size, ctx);
                    mismatches[t] +=
                        std::memcmp(got[t].data(), want.data(), want.size() * sizeof(float)) != 0;
                }
            });
        for (std::thread& c : callers) c.join();
        for (int m : mismatches) CHECK(m == 0);
    }
}

TEST_CASE("gemm kernel: tiny products run as one part, larger ones split across threads") {
    for (Isa isa : available_isas()) {
        Context two(ContextOptions{2, isa});
        const auto parts = [&two](int64_t m, int64_t n, int64_t k) {
            GemmProblem p;
            p.m = m;
            p.n = n;
            p.k = k;
            p.lda = k;
            p.ldb = n;
            p.ldc = n;
            GemmKernel kernel;
            kernel.configure(two.kernels(), p);
            return two.scheduler().parts_for(kernel);
        };
        INFO("isa ", two.isa_name());
        const int split = has_parallel_scheduler() ? 2 : 1;
        CHECK(parts(16, 16, 16) == 1);
        CHECK(parts(32, 32, 32) == 1);  // 65536 flops, under kMinPartFlops
        CHECK(parts(64, 64, 64) == split);
        CHECK(parts(256, 256, 256) == split);
        CHECK(parts(1, 4096, 4096) == split);  // one row: the columns split
    }
}

TEST_CASE("gemm kernel: the B block's columns fit half of L2, in whole panels, up to the cap") {
    KernelTable t;
    t.vec_width = 16;
    t.nv = 4;  // NR 64
    t.kc = 512;
    t.nc = 640;
    const std::size_t kib = 1024;
    // 512 KiB of a 1 MiB L2 holds 512 rows (KC) of 256 floats: 4 panels.
    CHECK(GemmKernel::column_block(t, 1024 * kib) == 256);
    CHECK(GemmKernel::column_block(t, 2048 * kib) == 512);
    CHECK(GemmKernel::column_block(t, 1536 * kib) == 384);  // 384 columns: 6 whole panels
    CHECK(GemmKernel::column_block(t, 1400 * kib) == 320);  // 350 columns, rounded down to panels
    CHECK(GemmKernel::column_block(t, 64 * 1024 * kib) == 640);  // the cap
    CHECK(GemmKernel::column_block(t, 64 * kib) == 64);          // never less than one panel
    CHECK(GemmKernel::column_block(t, 0) == 64);
}

TEST_CASE("cache sizes: sysfs size strings parse; the host's sizes are never zero") {
    CHECK(parse_cache_size("48K") == 48 * 1024);
    CHECK(parse_cache_size("1024K") == 1024 * 1024);
    CHECK(parse_cache_size("32M") == 32 * 1024 * 1024);
    CHECK(parse_cache_size("512") == 512);
    CHECK(parse_cache_size("") == 0);
    CHECK(parse_cache_size("K") == 0);
    CHECK(parse_cache_size("12G") == 0);
    CHECK(host_cache_sizes().l1d > 0);
    CHECK(host_cache_sizes().l2 > 0);
}

TEST_CASE("sgemm: bad arguments throw InvalidArgument naming the function") {
    Context ctx;
    std::vector<float> buf(16);
    CHECK_THROWS_AS(
        sgemm(false, false, -1, 2, 2, 1, buf.data(), 2, buf.data(), 2, 0, buf.data(), 2, ctx),
        InvalidArgument);
    CHECK_THROWS_AS(
        sgemm(false, false, 2, 4, 4, 1, buf.data(), 3, buf.data(), 4, 0, buf.data(), 4, ctx),
        InvalidArgument);
    try {
        sgemm(false, false, 2, 2, 2, 1, nullptr, 2, buf.data(), 2, 0, buf.data(), 2, ctx);
        FAIL("expected an exception");
    } catch (const InvalidArgument& e) {
        CHECK(std::string(e.what()).find("sgemm") != std::string::npos);
        CHECK(e.tensor() == "A");
    }
}

TEST_CASE("sgemm: A rows 4 KiB apart (sharing L1 sets) still match the reference") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        const int64_t m = 301, n = 45, k = 1024, lda = 1024;  // several MC blocks and K blocks
        const auto a = random_vector(static_cast<std::size_t>(m * lda), 21);
        const auto b = random_vector(static_cast<std::size_t>(k * n), 22);
        std::vector<float> c(static_cast<std::size_t>(m * n)), want(c.size());
        sgemm(false, false, m, n, k, 1.0f, a.data(), lda, b.data(), n, 0.0f, c.data(), n, ctx);
        reference_sgemm(false, false, m, n, k, 1.0f, a.data(), lda, b.data(), n, 0.0f, want.data(),
                        n);
        CHECK(all_close(c, want, 1e-3f, 1e-4f));
    }
}

TEST_CASE(
    "sdot_rows: rows against one vector match a double-precision sum on every instruction "
    "set, whatever the thread count") {
    struct Shape {
        int64_t n, k, ldw;
    };
    // Row counts around the 4-row groups, k around whole vectors, and a classifier's size.
    const Shape shapes[] = {{1, 1, 1},    {3, 7, 9},      {4, 16, 16},       {5, 17, 20},
                            {13, 64, 64}, {31, 100, 103}, {1000, 1280, 1280}};
    for_each_isa_contexts([&](const Context& one, const Context& two, const Context& pool) {
        uint32_t seed = 40;
        for (const Shape& s : shapes) {
            CAPTURE(s.n);
            CAPTURE(s.k);
            const auto x = random_vector(static_cast<std::size_t>(s.k), seed++);
            const auto w = random_vector(static_cast<std::size_t>(s.n * s.ldw), seed++);
            std::vector<float> y1(static_cast<std::size_t>(s.n)), y2(y1.size()), y3(y1.size());
            sdot_rows(s.n, s.k, x.data(), w.data(), s.ldw, y1.data(), one);
            sdot_rows(s.n, s.k, x.data(), w.data(), s.ldw, y2.data(), two);
            sdot_rows(s.n, s.k, x.data(), w.data(), s.ldw, y3.data(), pool);
            CHECK(all_close(y1, double_dots(x, w, s.n, s.k, s.ldw), 1e-3f, 1e-4f));
            CHECK(std::memcmp(y1.data(), y2.data(), y1.size() * sizeof(float)) == 0);
            CHECK(std::memcmp(y1.data(), y3.data(), y1.size() * sizeof(float)) == 0);
        }
    });
}

TEST_CASE("sdot_rows: k == 0 gives zeros; bad arguments throw InvalidArgument naming the operand") {
    Context ctx;
    std::vector<float> y(3, 5.0f), buf(16);
    sdot_rows(3, 0, nullptr, nullptr, 0, y.data(), ctx);
    CHECK(y == std::vector<float>(3, 0.0f));
    CHECK_THROWS_AS(sdot_rows(-1, 2, buf.data(), buf.data(), 2, y.data(), ctx), InvalidArgument);
    try {
        sdot_rows(2, 4, buf.data(), buf.data(), 3, y.data(), ctx);
        FAIL("expected an exception");
    } catch (const InvalidArgument& e) {
        CHECK(std::string(e.what()).find("sdot_rows") != std::string::npos);
        CHECK(e.tensor() == "W");
    }
    try {
        sdot_rows(2, 4, nullptr, buf.data(), 4, y.data(), ctx);
        FAIL("expected an exception");
    } catch (const InvalidArgument& e) {
        CHECK(e.tensor() == "x");
    }
}

TEST_CASE(
    "DotPanels: a packed matrix against one vector matches a double-precision sum on every "
    "instruction set, packed from rows or columns, whatever the thread count") {
    struct Shape {
        int64_t n, k;
    };
    // Rows around the 16-row panels and pairs of them, k odd and even, and a classifier's size.
    const Shape shapes[] = {{1, 1},    {15, 2},   {16, 3}, {17, 16},    {31, 17},
                            {32, 100}, {33, 101}, {48, 7}, {1000, 1280}};
    for_each_isa_contexts([&](const Context& one, const Context& two, const Context& pool) {
        uint32_t seed = 60;
        for (const Shape& s : shapes) {
            CAPTURE(s.n);
            CAPTURE(s.k);
            const auto x = random_vector(static_cast<std::size_t>(s.k), seed++);
            // W as rows (n x k, ldw k + 3) and the same W as the columns of a k x n matrix.
            const int64_t ldw = s.k + 3;
            const auto w = random_vector(static_cast<std::size_t>(s.n * ldw), seed++);
            std::vector<float> columns(static_cast<std::size_t>(s.k * s.n));
            for (int64_t j = 0; j < s.n; ++j)
                for (int64_t i = 0; i < s.k; ++i)
                    columns[static_cast<std::size_t>(i * s.n + j)] =
                        w[static_cast<std::size_t>(j * ldw + i)];
            const DotPanels from_rows(s.n, s.k, w.data(), ldw, 1);
            const DotPanels from_columns(s.n, s.k, columns.data(), 1, s.n);
            std::vector<float> y1(static_cast<std::size_t>(s.n)), y2(y1.size()), y3(y1.size()),
                y4(y1.size());
            from_rows.multiply(x.data(), y1.data(), one);
            from_rows.multiply(x.data(), y2.data(), two);
            from_rows.multiply(x.data(), y3.data(), pool);
            from_columns.multiply(x.data(), y4.data(), two);
            CHECK(all_close(y1, double_dots(x, w, s.n, s.k, ldw), 1e-3f, 1e-4f));
            CHECK(std::memcmp(y1.data(), y2.data(), y1.size() * sizeof(float)) == 0);
            CHECK(std::memcmp(y1.data(), y3.data(), y1.size() * sizeof(float)) == 0);
            CHECK(std::memcmp(y1.data(), y4.data(), y1.size() * sizeof(float)) == 0);
        }
    });
}

TEST_CASE("DotPanels: k == 0 gives zeros; bad arguments throw InvalidArgument naming the operand") {
    Context ctx;
    std::vector<float> y(3, 5.0f), buf(16);
    const DotPanels empty(3, 0, nullptr, 0, 1);
    empty.multiply(nullptr, y.data(), ctx);
    CHECK(y == std::vector<float>(3, 0.0f));
    CHECK_THROWS_AS(DotPanels(-1, 2, buf.data(), 2, 1), InvalidArgument);
    try {
        DotPanels(2, 4, nullptr, 4, 1);
        FAIL("expected an exception");
    } catch (const InvalidArgument& e) {
        CHECK(std::string(e.what()).find("DotPanels") != std::string::npos);
        CHECK(e.tensor() == "W");
    }
    const DotPanels panels(2, 4, buf.data(), 4, 1);
    try {
        panels.multiply(nullptr, y.data(), ctx);
        FAIL("expected an exception");
    } catch (const InvalidArgument& e) {
        CHECK(e.tensor() == "x");
    }
}
