// conv_transposed_test.cpp: transposed conv2d (ONNX ConvTranspose) runs natively on the cpu
// plugin (sgemm and scatter, not the reference kernel) with strides, padding, output padding,
// dilation, groups and a bias, and matches the reference backend; the forms it leaves to the
// reference kernel are answered emulated.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// Runs `conv` on "cpu!", checks nothing ran emulated and the output matches the reference.
void check_transposed_native(const op::conv2d& conv, const std::vector<tensor>& inputs) {
    std::string report;
    const auto got = run_op(conv, inputs, "cpu!", {}, &report);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);
    const auto want = reference::execute(conv, inputs);
    check_close(got.at(0), want.at(0), tolerance_of("cpu"), 2, op_desc(conv).describe());
}

}  // namespace

TEST_CASE("transposed conv2d runs natively in the forms ONNX ConvTranspose takes") {
    load_cpu_plugin();
    SUBCASE("3x3, stride 2, padding 1, output padding 1, bias") {
        op::conv2d conv;
        conv.transposed().stride(2, 2).padding(1, 1, 1, 1).output_padding(1, 1).bias();
        check_transposed_native(
            conv, {values(shape{2, 5, 7, 6}, 1), values(shape{5, 4, 3, 3}, 2, -0.5f, 0.5f),
                   values(shape{4}, 3)});
    }
    SUBCASE("2x2, stride 2, no padding (the upsampling of segmentation decoders)") {
        op::conv2d conv;
        conv.transposed().stride(2, 2);
        check_transposed_native(
            conv, {values(shape{1, 8, 9, 9}, 4), values(shape{8, 3, 2, 2}, 5, -0.5f, 0.5f)});
    }
    SUBCASE("groups 2, dilation 2, asymmetric padding") {
        op::conv2d conv;
        conv.transposed().groups(2).dilation(2, 2).padding(0, 2, 1, 0).bias();
        check_transposed_native(
            conv, {values(shape{1, 6, 5, 8}, 6), values(shape{6, 2, 3, 2}, 7, -0.5f, 0.5f),
                   values(shape{4}, 8)});
    }
}

TEST_CASE("transposed conv2d with a fused activation stays on the reference kernel") {
    load_cpu_plugin();
    op::conv2d conv;
    conv.transposed().fuse(activation_kind::relu);
    const std::vector<tensor_desc> in{tensor_desc(shape{1, 2, 4, 4}, dtype::f32),
                                      tensor_desc(shape{2, 3, 3, 3}, dtype::f32)};
    CHECK(backend::create("cpu")
              .query(conv, in, {conv.infer(in).at(0).with_layout(layout::any())})
              .level == TSR_SUPPORT_EMULATED);
}
