// test_ops_data.cpp: the mapped element-wise and data-movement ops on qcom-ml against the
// reference: activation (CLML functions, exact clip forms), binary (6 ops, alpha/beta,
// broadcasting), fill, concat, permute, transpose, reshape, depth-to-space, resize bilinear, pad.
#include "test_support.hpp"

using namespace qcom_test;

TEST_CASE("activation: every CLML function and the exact bounded forms") {
    const tensor src = values({1, 4, 9, 7}, 100, -8.0f, 8.0f);
    check_op(op::activation(TSR_ACT_RELU), {src});
    check_op(op::activation(TSR_ACT_RELU6), {src});
    check_op(op::activation(TSR_ACT_BOUNDED_RELU, 6.0f), {src});
    check_op(op::activation(TSR_ACT_CLIP, 0.0f, 6.0f), {src});
    check_op(op::activation(TSR_ACT_TANH, 1.0f, 1.0f), {src});
    check_op(op::activation(TSR_ACT_SIGMOID), {src});
    check_op(op::activation(TSR_ACT_ELU, 1.0f), {src});
    check_op(op::activation(TSR_ACT_ELU, 0.3f), {src});
    check_op(op::activation(TSR_ACT_LEAKY_RELU, 0.01f), {src});
    check_op(op::activation(TSR_ACT_LEAKY_RELU, 0.25f), {src});
    check_op(op::activation(TSR_ACT_PRELU), {src, values({4}, 101, 0.0f, 0.5f)});
    check_op(op::activation(TSR_ACT_RELU), {values({3, 10}, 102)});  // rank 2
}

TEST_CASE("activation: general clip and bounded_relu as CLML's clip op (interface V2)") {
    const tensor src = values({1, 4, 9, 7}, 104, -3.0f, 3.0f);
    check_op(op::activation(TSR_ACT_CLIP, -1.0f, 1.0f), {src});
    check_op(op::activation(TSR_ACT_CLIP, 0.5f, 2.0f), {src});
    check_op(op::activation(TSR_ACT_BOUNDED_RELU, 2.5f), {src});
    check_op(op::activation(TSR_ACT_CLIP, -0.25f, 0.75f), {values({3, 10}, 105)});  // rank 2
    // Rank 1: the clip op needs no broadcast (the two-op Binary form had to decline it).
    check_op(op::activation(TSR_ACT_CLIP, -0.5f, 0.25f), {values({37}, 107)});
    check_op(op::activation(TSR_ACT_BOUNDED_RELU, 0.5f), {values({37}, 108)});
    // The client's fp16 case (1x32x256x256 to [-1, 1]) reduced; its fp16 tolerance 1e-3.
    tensor half_src(tensor_desc(shape{1, 32, 16, 16}, dtype::f16));
    tensor::copy_elements(values({1, 32, 16, 16}, 106, -2.0f, 2.0f), half_src);
    check_op(op::activation(TSR_ACT_CLIP, -1.0f, 1.0f), {half_src}, 1e-3);
}

TEST_CASE("activation: NaN handling follows propagate_nan") {
    tensor src = values({1, 2, 2, 2}, 103);
    src.data_as<float>()[3] = std::nanf("");
    check_op(op::activation(TSR_ACT_RELU), {src});
    check_op(op::activation(TSR_ACT_RELU).set_propagate_nan(false), {src});
}

TEST_CASE("binary: add/sub/mul/min/max/div with alpha and beta, broadcasting of extent-1 axes") {
    const tensor a = values({2, 3, 4, 5}, 110), b = values({2, 3, 4, 5}, 111, 0.5f, 2.0f);
    for (auto o : {TSR_BINARY_ADD, TSR_BINARY_SUB, TSR_BINARY_MUL, TSR_BINARY_MIN, TSR_BINARY_MAX,
                   TSR_BINARY_DIV}) {
        CAPTURE(o);
        check_op(op::binary(o), {a, b});
        check_op(op::binary(o).set_alpha(0.5f).set_beta(-2.0f), {a, b});
    }
    check_op(op::binary(TSR_BINARY_ADD), {a, values({1, 3, 1, 1}, 112)});
    check_op(op::binary(TSR_BINARY_MUL), {values({1, 3, 4, 1}, 113), values({2, 1, 1, 5}, 114)});
    check_op(op::binary(TSR_BINARY_SUB), {values({6, 7}, 115), values({6, 7}, 116)});
}

TEST_CASE("fill") {
    load_plugin();
    const op::fill f(tensor_desc(shape{2, 3, 4, 5}, dtype::f32), 2.5);
    std::string report;
    const tensor got = run_op("qcom-ml!", f, {}, &report);
    INFO(report);
    CHECK(max_rel_diff(got, reference::execute(f, {}).at(0)) == 0.0);
}

TEST_CASE("concat: channels (shapes from a real client) and other axes") {
    check_op(op::concat(1), {values({1, 64, 16, 10}, 120), values({1, 64, 16, 10}, 121)});
    check_op(op::concat(1),
             {values({1, 32, 8, 8}, 122), values({1, 16, 8, 8}, 123), values({1, 8, 8, 8}, 124)});
    check_op(op::concat(3), {values({2, 3, 4, 5}, 125), values({2, 3, 4, 2}, 126)});
    check_op(op::concat(0), {values({2, 6}, 127), values({3, 6}, 128)});
}

TEST_CASE("permute, transpose, reshape") {
    check_op(op::permute().set_order({0, 2, 3, 1}), {values({2, 3, 4, 5}, 130)});
    check_op(op::permute().set_order({3, 1, 0, 2}), {values({2, 3, 4, 5}, 131)});
    check_op(op::permute().set_order({1, 0}), {values({6, 9}, 132)});
    check_op(op::transpose(), {values({13, 7}, 133)});
    check_op(op::transpose(1, 3), {values({2, 3, 4, 5}, 134)});
    check_op(op::reshape().set_dims({6, 20}), {values({2, 3, 4, 5}, 135)});
    check_op(op::reshape().set_dims({1, 12, 2, 5}), {values({2, 3, 4, 5}, 136)});
}

TEST_CASE("depth_to_space DCR (shapes from a real client)") {
    check_op(op::depth_to_space(4), {values({1, 64, 8, 8}, 140)});
    check_op(op::depth_to_space(2), {values({2, 12, 3, 5}, 141)});
}

TEST_CASE("resize_bilinear: x2, align corners, half-pixel centres") {
    check_op(op::resize_bilinear().set_size(16, 16), {values({1, 16, 8, 8}, 150)});
    check_op(op::resize_bilinear().set_size(14, 14).set_align_corners(true),
             {values({1, 16, 7, 7}, 151)});
    check_op(op::resize_bilinear().set_size(9, 13).set_half_pixel_centers(true),
             {values({1, 3, 5, 6}, 152)});
}

TEST_CASE("pad: constant, reflect, symmetric, edge") {
    const tensor src = values({1, 3, 5, 6}, 160);
    check_op(op::pad().set_pads({0, 0, 1, 2}, {0, 0, 2, 1}).set_value(1.5), {src});
    check_op(op::pad().set_mode(TSR_PAD_REFLECT).set_pads({0, 0, 2, 3}, {0, 0, 4, 1}), {src});
    check_op(op::pad().set_mode(TSR_PAD_SYMMETRIC).set_pads({0, 0, 5, 1}, {0, 0, 1, 6}), {src});
    check_op(op::pad().set_mode(TSR_PAD_EDGE).set_pads({0, 0, 3, 0}, {0, 0, 0, 7}), {src});
}
