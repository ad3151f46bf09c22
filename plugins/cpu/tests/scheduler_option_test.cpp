// scheduler_option_test.cpp: the cpu backend's scheduler option. "scheduler=pool" runs on the
// runtime's spinning thread pool (lower dispatch latency between the many small steps of a
// model), "tbb" (the default) on oneTBB; both give the reference's results, bit-identical to
// each other, and an unknown scheduler is a typed error naming the option.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

graph gelu_block() {
    graph g;
    const shape dims{1, 64, 1100};
    const auto x = g.input("x", tensor_desc(dims, dtype::f32));
    auto t = g.apply("bias", op::binary(TSR_BINARY_ADD),
                     {x, g.constant("b", values(shape{1100}, 120, -0.5f, 0.5f))});
    t = g.apply("erf", op::unary(TSR_UNARY_ERF), {t});
    t = g.apply("scale", op::binary(TSR_BINARY_MUL), {t, x});
    g.output(g.apply("norm", op::layer_norm().from_axis(-1), {t}));
    return g;
}

}  // namespace

TEST_CASE("scheduler=pool and scheduler=tbb give the reference's results, bit-identical") {
    load_cpu_plugin();
    const tensor x = values(shape{1, 64, 1100}, 121, -2.0f, 2.0f);
    graph r = gelu_block();
    const tensor want = r.compile("reference").run({{"x", x}}).begin()->second;
    graph gt = gelu_block(), gp = gelu_block();
    const tensor tbb = gt.compile("cpu:threads=3,scheduler=tbb").run({{"x", x}}).begin()->second;
    const tensor pool = gp.compile("cpu:threads=3,scheduler=pool").run({{"x", x}}).begin()->second;
    check_close(pool, want, {1e-5, 0.0, 1e-5});
    check_close(pool, tbb, {0.0, 0.0, 0.0});
}

TEST_CASE("an unknown scheduler is an invalid-argument error naming it") {
    load_cpu_plugin();
    graph g = gelu_block();
    try {
        g.compile("cpu:scheduler=spin");
        FAIL("compiling with scheduler=spin succeeded");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(std::string(e.what()).find("unknown scheduler 'spin'") != std::string::npos);
    }
}
