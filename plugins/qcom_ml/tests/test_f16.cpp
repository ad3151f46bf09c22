// test_f16.cpp: f16 tensors (CL_HALF_FLOAT storage; PoCL has no cl_khr_fp16, so CLML computes
// in f32 and rounds on store). Tolerances are the ones a real CLML client used for fp16: conv
// 1e-1, binary/pool/concat 1e-2, batchnorm/clip 1e-3.
#include "qcom_ml_plugin.hpp"

using namespace qcom_test;

namespace {

tensor half(const tensor& t) {
    tensor out(t.desc().with_type(dtype::f16));
    tensor::copy_elements(t, out);
    return out;
}

}  // namespace

TEST_CASE("f16: conv2d, binary, pooling, concat, batchnorm, relu6") {
    check_op(op::conv2d().padding(1, 1, 1, 1).bias(),
             {half(values({1, 6, 10, 10}, 1)), half(values({4, 6, 3, 3}, 2)), half(values({4}, 3))},
             1e-1);
    check_op(op::binary(binary_kind::mul).set_alpha(0.5f),
             {half(values({1, 3, 5, 5}, 4)), half(values({1, 3, 5, 5}, 5))}, 1e-2);
    check_op(op::pooling(pooling_kind::average_exclude_padding).kernel(3, 3).padding(1, 1, 1, 1),
             {half(values({1, 3, 8, 8}, 6))}, 1e-2);
    check_op(op::concat(1), {half(values({1, 2, 4, 4}, 7)), half(values({1, 3, 4, 4}, 8))}, 1e-2);
    check_op(
        op::batchnorm(),
        {half(values({1, 3, 4, 4}, 9)), half(values({3}, 10)), half(values({3}, 11, 0.5f, 1.5f))},
        1e-3);
    check_op(op::activation(activation_kind::relu6), {half(values({1, 3, 4, 4}, 12, -8.0f, 8.0f))},
             1e-3);
}

TEST_CASE("f16: clip to [-1, 1] as CLML's clip op (a client's case, reduced)") {
    // The client's fp16 case was 1x32x256x256; its fp16 tolerance 1e-3.
    check_op(op::activation(activation_kind::clip, -1.0f, 1.0f),
             {half(values({1, 32, 16, 16}, 106, -2.0f, 2.0f))}, 1e-3);
}
