// layer_norm_test.cpp: layer normalisation over trailing dims (ONNX LayerNormalization) runs
// natively on the cpu plugin and matches the reference backend, with gamma and beta tensors and
// with the scalar ones (the statistics form and 16-bit floats: normalization_test.cpp). So do the
// sum and mean reductions of its decomposed form (ReduceMean), along any axis (every reduce form:
// reduce_test.cpp).
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

void check_native(const op_desc& op, const std::vector<tensor>& inputs) {
    std::string report;
    const auto got = run_op(op, inputs, "cpu!", {}, &report);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);  // the partition line
    check_close(got.at(0), reference::execute(op, inputs).at(0), tolerance_of("cpu"), 2,
                op.describe());
}

}  // namespace

TEST_CASE("layer norm over trailing dims runs natively and matches the reference") {
    load_cpu_plugin();
    SUBCASE("last axis, gamma and beta tensors (a transformer's norm)") {
        check_native(op::layer_norm().tensors(true, true).eps(1e-5f),
                     {values(shape{2, 7, 37}, 70, -3.0f, 5.0f), values(shape{37}, 71),
                      values(shape{37}, 72)});
    }
    SUBCASE("from axis 1, scalar gamma and beta") {
        check_native(op::layer_norm().from_axis(1).affine(1.5f, -0.25f).eps(1e-3f),
                     {values(shape{3, 4, 5}, 73)});
    }
    SUBCASE("gamma tensor only") {
        check_native(op::layer_norm().from_axis(-2).tensors(true, false),
                     {values(shape{2, 3, 6}, 74), values(shape{3, 6}, 75)});
    }
}

TEST_CASE("the statistics form of layer norm is answered native") {
    load_cpu_plugin();
    const op_desc ln = op::layer_norm().statistics();
    const std::vector<tensor_desc> in{tensor_desc(shape{2, 8}, dtype::f32),
                                      tensor_desc(shape{2, 1}, dtype::f32),
                                      tensor_desc(shape{2, 1}, dtype::f32)};
    CHECK(backend::create("cpu")
              .query(ln, in, {ln.infer(in).at(0).with_layout(layout::any())})
              .level == TSR_SUPPORT_NATIVE);
}

TEST_CASE("sum and mean along one axis run natively and match the reference") {
    load_cpu_plugin();
    for (int axis : {-1, 0, 1}) {
        CAPTURE(axis);
        check_native(op::reduce(TSR_REDUCE_MEAN).along(axis).keep(true),
                     {values(shape{3, 5, 7}, 76, -2.0f, 4.0f)});
        check_native(op::reduce(TSR_REDUCE_SUM).along(axis).keep(false),
                     {values(shape{4, 2, 9}, 77)});
    }
}
