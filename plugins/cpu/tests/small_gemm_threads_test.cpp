// small_gemm_threads_test.cpp: a batch-1 classifier product (op(A) of one row, B in place) splits
// its output columns over the threads and gives the reference's results, the same at 1, 2 and 3
// threads, with and without transposed B and a bias C.
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
