// test_ops_compute.cpp: every mapped compute op on qcom-ml against the reference backend:
// conv2d (direct, grouped, depthwise, transposed, fused bias/batchnorm/activation), fully
// connected, gemm, pooling (5 modes), batchnorm, softmax. fp32 tolerance 1e-5 relative.
#include "test_support.hpp"

using namespace qcom_test;

TEST_CASE("conv2d direct: shapes a real CLML client exercised (scaled down)") {
    // (kh, kw, pads, stride, out, C, H, W, bias, relu)
    check_op(op::conv2d().padding(1, 1, 1, 1).bias(),
             {values({1, 14, 10, 10}, 1), values({4, 14, 3, 3}, 2), values({4}, 3)});
    check_op(op::conv2d().padding(1, 1, 1, 1),
             {values({1, 16, 10, 10}, 4), values({4, 16, 2, 2}, 5)});
    check_op(op::conv2d().padding(1, 1, 1, 1).stride(2, 2),
             {values({1, 14, 10, 10}, 6), values({4, 14, 5, 5}, 7)});
    check_op(op::conv2d().padding(1, 1, 1, 1).bias().fuse(TSR_ACT_RELU),
             {values({1, 6, 32, 32}, 8), values({4, 6, 5, 5}, 9), values({4}, 10)});
    check_op(op::conv2d().fuse(TSR_ACT_RELU),
             {values({1, 16, 20, 20}, 11), values({16, 16, 1, 3}, 12)});
    check_op(op::conv2d().fuse(TSR_ACT_RELU),
             {values({1, 64, 20, 20}, 13), values({8, 64, 3, 1}, 14)});
}

TEST_CASE("conv2d: dilation, SAME padding, batch 2, groups") {
    check_op(op::conv2d().dilation(2, 2).padding(TSR_PADDING_SAME),
             {values({2, 4, 9, 9}, 15), values({6, 4, 3, 3}, 16)});
    check_op(op::conv2d().groups(2).padding(1, 0, 0, 1).bias(),
             {values({1, 8, 7, 6}, 17), values({6, 4, 3, 3}, 18), values({6}, 19)});
}

TEST_CASE("conv2d depthwise (CLML DEPTHWISE mode and groups = C)") {
    check_op(op::conv2d().depthwise().padding(1, 1, 1, 1),
             {values({1, 11, 20, 20}, 20), values({11, 1, 3, 3}, 21)});
    check_op(op::conv2d().depthwise().padding(2, 2, 2, 2).bias(),
             {values({1, 32, 20, 20}, 22), values({32, 1, 5, 5}, 23), values({32}, 24)});
    check_op(op::conv2d().depthwise().padding(2, 2, 2, 2).stride(2, 2),
             {values({1, 128, 8, 8}, 25), values({128, 1, 3, 3}, 26)});
    check_op(op::conv2d().groups(16).padding(1, 1, 1, 1).stride(2, 2),
             {values({1, 16, 32, 32}, 27), values({16, 1, 3, 3}, 28)});
}

TEST_CASE("conv2d transposed, with output padding") {
    check_op(op::conv2d().transposed().stride(2, 2).padding(1, 1, 1, 1),
             {values({1, 4, 6, 6}, 29), values({4, 3, 3, 3}, 30)});
    check_op(op::conv2d().transposed().stride(2, 2).padding(1, 1, 1, 1).output_padding(1, 1).bias(),
             {values({1, 4, 5, 5}, 31), values({4, 2, 3, 3}, 32), values({2}, 33)});
}

TEST_CASE("conv2d fused epilogues: batchnorm, batchnorm + activation, PReLU, leaky ReLU, ELU") {
    const tensor src = values({1, 5, 9, 9}, 40), w = values({6, 5, 3, 3}, 41), b = values({6}, 42);
    const tensor mean = values({6}, 43), var = values({6}, 44, 0.5f, 2.0f), scale = values({6}, 45),
                 shift = values({6}, 46);
    check_op(op::conv2d().padding(1, 1, 1, 1).bias().batchnorm(true, 1e-3f),
             {src, w, b, mean, var, scale, shift});
    check_op(op::conv2d().padding(1, 1, 1, 1).batchnorm().fuse(TSR_ACT_RELU6),
             {src, w, mean, var, scale, shift});
    check_op(op::conv2d().bias().fuse(TSR_ACT_PRELU), {src, w, b, values({6}, 47, 0.0f, 0.5f)});
    check_op(op::conv2d().fuse(TSR_ACT_LEAKY_RELU, 0.2f), {src, w});
    check_op(op::conv2d().fuse(TSR_ACT_ELU, 0.7f), {src, w});
    check_op(op::conv2d().fuse(TSR_ACT_SIGMOID), {src, w});
}

TEST_CASE("fully connected: dense shapes from a real client, flatten, weight orientation") {
    check_op(op::fully_connected(), {values({5, 16}, 50), values({32, 16}, 51)});
    check_op(op::fully_connected().bias(),
             {values({1, 512}, 52), values({100, 512}, 53), values({100}, 54)});
    check_op(op::fully_connected().flatten_from(1).bias(),
             {values({2, 4, 6, 6}, 55), values({10, 144}, 56), values({10}, 57)});
    check_op(op::fully_connected().transposed_weights(),
             {values({3, 64}, 58), values({64, 20}, 59)});
}

TEST_CASE("gemm: transposes and alpha") {
    op::gemm g;
    g.alpha = 0.5f;
    check_op(g, {values({12, 20}, 60), values({20, 7}, 61)});
    op::gemm t;
    t.trans_a = 1;
    t.trans_b = 1;
    check_op(t, {values({20, 12}, 62), values({7, 20}, 63)});
}

TEST_CASE("pooling: all five modes") {
    const tensor src = values({1, 8, 15, 15}, 70);
    check_op(op::pooling(TSR_POOL_MAX).kernel(3, 3).stride(2, 2), {src});
    check_op(
        op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING).kernel(3, 3).stride(1, 1).padding(1, 1, 1, 1),
        {src});
    check_op(
        op::pooling(TSR_POOL_AVERAGE_EXCLUDE_PADDING).kernel(3, 3).stride(1, 1).padding(0, 0, 1, 1),
        {src});
    check_op(op::pooling(TSR_POOL_GLOBAL_MAX), {src});
    check_op(op::pooling(TSR_POOL_GLOBAL_AVERAGE), {src});
    check_op(op::pooling(TSR_POOL_MAX).kernel(3, 3).stride(2, 2), {values({1, 64, 35, 35}, 71)});
}

TEST_CASE("batchnorm: statistics with and without scale/shift") {
    const tensor src = values({2, 6, 5, 7}, 80), mean = values({6}, 81),
                 var = values({6}, 82, 0.2f, 3.0f);
    check_op(op::batchnorm(), {src, mean, var, values({6}, 83), values({6}, 84)});
    op::batchnorm eps;
    eps.epsilon = 0.01f;
    check_op(eps, {src, mean, var});
}

TEST_CASE("softmax: channel (1x5, 1x1000), instance and spatial") {
    check_op(op::softmax().along(1), {values({1, 5}, 90, -3.0f, 3.0f)});
    check_op(op::softmax().along(1), {values({1, 1000}, 91, -5.0f, 5.0f)});
    check_op(op::softmax().along(1), {values({2, 6, 3, 4}, 92, -3.0f, 3.0f)});
    op::softmax spatial;
    spatial.axis = 2;
    spatial.axis_count = 2;
    check_op(spatial, {values({2, 3, 4, 5}, 93, -3.0f, 3.0f)});
    op::softmax instance;
    instance.axis = 1;
    instance.axis_count = 3;
    check_op(instance, {values({2, 3, 4, 5}, 94, -3.0f, 3.0f)});
}
