// emulated_test.cpp: which cpu plugin answers are "emulated" (the op or form runs on the
// reference kernels inside the plugin) and with what reason. Op correctness on every backend
// is the conformance suite's (tests/conformance).
#include "cpu_plugin.hpp"

using namespace cpu_test;

TEST_CASE("conv2d with a per-location bias [O, OH, OW] is answered emulated") {
    load_cpu_plugin();
    const op_desc conv = op::conv2d().padding(1, 1, 1, 1).bias();
    const std::vector<tensor_desc> in{tensor_desc(shape::nchw(1, 3, 6, 5), dtype::f32),
                                      tensor_desc(shape{4, 3, 3, 3}, dtype::f32),
                                      tensor_desc(shape{4, 6, 5}, dtype::f32)};
    const std::vector<tensor_desc> out{
        tensor_desc(shape::nchw(1, 4, 6, 5), dtype::f32).with_layout(layout::any())};
    CHECK(backend::create("cpu").query(conv, in, out).level == TSR_SUPPORT_EMULATED);
    const std::vector<tensor_desc> per_channel{in[0], in[1], tensor_desc(shape{4}, dtype::f32)};
    CHECK(backend::create("cpu").query(conv, per_channel, out).level == TSR_SUPPORT_NATIVE);
}

TEST_CASE("ops the runtime lacks are answered emulated, naming the reference kernel") {
    load_cpu_plugin();
    backend b = backend::create("cpu");
    const tensor_desc d(shape{3, 5}, dtype::f32);
    const op_support s = b.query(op::unary(TSR_UNARY_EXP), {d}, {d.with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_EMULATED);
    CHECK(s.text.find("reference kernel") == 0);
    std::string report;
    const auto got =
        run_op(op::unary(TSR_UNARY_EXP), {values(shape{3, 5}, 19)}, "cpu", {}, &report);
    INFO(report);
    CHECK(report.find("emulated") != std::string::npos);
    check_close(got.at(0),
                reference::execute(op::unary(TSR_UNARY_EXP), {values(shape{3, 5}, 19)}).at(0),
                tolerance_of("cpu"));
}
