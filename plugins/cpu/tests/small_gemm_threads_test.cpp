// small_gemm_threads_test.cpp: a batch-1 classifier product (op(A) of one row, B in place) splits
// its output columns over the threads and gives the reference's results, the same at 1, 2 and 3
// threads, with and without transposed B and a bias C; with B a graph constant (packed once into
// 16-row panels) likewise, run after run.
#include "cpu_plugin.hpp"

using namespace cpu_test;

TEST_CASE("a one-row gemm split over threads matches the reference at every thread count") {
    load_cpu_plugin();
    const std::int64_t k = 640, n = 700;  // 448K multiply-adds: several parts at 2 and 3 threads
    for (const bool trans_b : {false, true}) {
        CAPTURE(trans_b);
        const tensor a = values(shape{1, k}, 130);
        const tensor b = values(trans_b ? shape{n, k} : shape{k, n}, 131, -0.1f, 0.1f);
        const tensor c = values(shape{n}, 132);
        const op_desc gm = op::gemm().transpose(false, trans_b).scales(0.75f, 1.0f);
        const tensor want = reference::execute(gm, {a, b, c}).at(0);
        std::vector<tensor> first;  // the 1-thread result
        for (const char* config : {"cpu:threads=1", "cpu:threads=2", "cpu:threads=3"}) {
            CAPTURE(config);
            const tensor got = run_op(gm, {a, b, c}, config).at(0);
            check_close(got, want, {1e-5, 0.0, 1e-5});
            if (first.empty())
                first.push_back(got);
            else
                check_close(got, first[0], {0.0, 0.0, 0.0});  // the split never changes a sum
        }
    }
}

TEST_CASE(
    "a few-row gemm with a constant B matches the reference, run after run and at every "
    "thread count") {
    load_cpu_plugin();
    // n not a multiple of the 16-row panels, k odd (the last step of each panel alone).
    const std::int64_t k = 641, n = 700;
    for (const bool trans_b : {false, true}) {
        for (const std::int64_t m : {std::int64_t{1}, std::int64_t{3}}) {
            CAPTURE(trans_b);
            CAPTURE(m);
            const tensor b = values(trans_b ? shape{n, k} : shape{k, n}, 133, -0.1f, 0.1f);
            const tensor c = values(shape{n}, 134);
            const op_desc gm = op::gemm().transpose(false, trans_b).scales(0.75f, 1.0f);
            const auto make = [&] {
                graph g;
                const auto a = g.input("a", tensor_desc(shape{m, k}, dtype::f32));
                g.output(g.apply("gemm", gm, {a, g.constant("b", b), g.constant("c", c)}));
                return g;
            };
            std::vector<tensor> first;  // the 1-thread results of both runs
            for (const char* config : {"cpu:threads=1", "cpu:threads=2", "cpu:threads=3"}) {
                CAPTURE(config);
                graph g = make();
                auto compiled = g.compile(config);
                for (const std::uint32_t seed : {135u, 136u}) {  // the second run reuses the panels
                    const tensor a = values(shape{m, k}, seed);
                    const tensor want = reference::execute(gm, {a, b, c}).at(0);
                    const tensor got = compiled.run({{"a", a}}).at("gemm");
                    check_close(got, want, {1e-5, 0.0, 1e-5});
                    const std::size_t run = seed - 135u;
                    if (first.size() <= run)
                        first.push_back(got);
                    else
                        check_close(got, first[run], {0.0, 0.0, 0.0});
                }
            }
        }
    }
}
