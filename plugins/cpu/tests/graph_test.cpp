// graph_test.cpp: graphs on the cpu backend keep nchw16c between consecutive ops, match the
// reference, and give bit-identical results with 1 and 2 threads.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

graph small_cnn() {
    graph g;
    const auto x = g.input("x", tensor_desc(shape::nchw(2, 5, 12, 10), dtype::f32));
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1).bias(),
                     {x, g.constant("w", values(shape{24, 5, 3, 3}, 30, -0.3f, 0.3f)),
                      g.constant("b", values(shape{24}, 31, -0.1f, 0.1f))});
    t = g.apply("relu", op::activation(TSR_ACT_RELU), {t});
    t = g.apply("dw", op::conv2d().padding(1, 1, 1, 1).groups(24),
                {t, g.constant("dw.w", values(shape{24, 1, 3, 3}, 32, -0.3f, 0.3f))});
    t = g.apply("pool", op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {t});
    t = g.apply("fc", op::fully_connected().flatten_from(1),
                {t, g.constant("fc.w", values(shape{7, 24 * 6 * 5}, 33, -0.05f, 0.05f))});
    t = g.apply("softmax", op::softmax(), {t});
    g.output(t);
    return g;
}

}  // namespace

TEST_CASE("consecutive cpu ops keep the blocked layout, conversions only at the edges") {
    load_cpu_plugin();
    graph g = small_cnn();
    auto cg = g.compile("cpu");
    const std::string report = cg.placement_report();
    CAPTURE(report);
    for (const auto& p : cg.placements()) CHECK(p.backend == "cpu");
    // conv, relu, dw, pool stay nchw16c; one reorder back to row-major before the fully connected.
    int inserted = 0;
    for (const auto& p : cg.placements()) inserted += p.inserted;
    CHECK(inserted == 1);
    CHECK(report.find("transfer") == std::string::npos);

    graph r = small_cnn();
    auto ref = r.compile("reference");
    const tensor x = values(shape::nchw(2, 5, 12, 10), 34);
    check_close(cg.run({{"x", x}}).at("softmax"), ref.run({{"x", x}}).at("softmax"),
                {1e-5, 0.0, 1e-6});
}

TEST_CASE("1 and 2 threads give bit-identical results") {
    load_cpu_plugin();
    graph g1 = small_cnn(), g2 = small_cnn();
    auto one = g1.compile("cpu:threads=1");
    auto two = g2.compile("cpu:threads=2");
    const tensor x = values(shape::nchw(2, 5, 12, 10), 35);
    const tensor a = one.run({{"x", x}}).at("softmax"), b = two.run({{"x", x}}).at("softmax");
    for (std::int64_t i = 0; i < a.num_elements(); ++i)
        CHECK(a.data_as<float>()[i] == b.data_as<float>()[i]);
}

TEST_CASE("bad options are typed errors") {
    load_cpu_plugin();
    graph g = small_cnn();
    try {
        g.compile("cpu:threads=zero");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.message().find("threads must be a positive integer") != std::string::npos);
    }
}
