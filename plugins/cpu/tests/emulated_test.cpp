// emulated_test.cpp: which cpu plugin answers are "emulated" (the op or form runs on the
// reference kernels inside the plugin) and with what reason. Op correctness on every backend
// is the conformance suite's (tests/conformance).
#include "cpu_plugin.hpp"

using namespace cpu_test;

TEST_CASE("forms the runtime cannot take are answered emulated, naming the reference kernel") {
    load_cpu_plugin();
    backend b = backend::create("cpu");
    // Leading padding far beyond the input: the runtime's padded input copy would be huge.
    const op_desc conv = op::conv2d().padding(0, 0, 1 << 24, 0).stride(1, 1 << 24);
    const tensor x = values(shape::nchw(1, 6, 3, 5), 19);
    const tensor w = values(shape{4, 6, 1, 1}, 20);
    const std::vector<tensor_desc> in{x.desc(), w.desc()};
    const op_support s = b.query(conv, in, {conv.infer(in).at(0).with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_EMULATED);
    CHECK(s.text.find("reference kernel") == 0);
    std::string report;
    const auto got = run_op(conv, {x, w}, "cpu", {}, &report);
    INFO(report);
    CHECK(report.find("emulated") != std::string::npos);
    check_close(got.at(0), reference::execute(conv, {x, w}).at(0), tolerance_of("cpu"));
}

// Found by the graph fuzzer: a convolution whose padding is far larger than its input (here
// 2^30 columns) made the runtime allocate a padded input copy of hundreds of GiB. Trailing
// padding that no window reaches is now left out of the copy (native, same output), and leading
// padding that would still make the copy huge runs on the reference kernel, with the reason.
TEST_CASE("conv2d with padding far beyond its input: unreached trailing padding is dropped") {
    load_cpu_plugin();
    const tensor src = values(shape::nchw(5, 1, 1, 6), 3);
    const tensor weights = values(shape{5, 1, 1, 6}, 4);
    // One window (the stride passes the padding); the padding past it is never read.
    const op_desc trailing = op::conv2d().padding(0, 0, 0, 1 << 30).stride(1, (1 << 30) + 1);
    const std::vector<tensor_desc> in{src.desc(), weights.desc()};
    const op_support native = backend::create("cpu").query(
        trailing, in, {trailing.infer(in).at(0).with_layout(layout::any())});
    CHECK_MESSAGE(native.level == TSR_SUPPORT_NATIVE, native.text);
    const auto got = run_op(trailing, {src, weights}, "cpu");
    check_close(got.at(0), reference::execute(trailing, {src, weights}).at(0), tolerance_of("cpu"));

    const op_desc leading = op::conv2d().padding(0, 0, 1 << 24, 0).stride(1, 1 << 24);
    const op_support s = backend::create("cpu").query(
        leading, in, {leading.infer(in).at(0).with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_EMULATED);
    CHECK(s.text.find("padded input copy") != std::string::npos);
    const auto got_leading = run_op(leading, {src, weights}, "cpu");
    check_close(got_leading.at(0), reference::execute(leading, {src, weights}).at(0),
                tolerance_of("cpu"));
}
