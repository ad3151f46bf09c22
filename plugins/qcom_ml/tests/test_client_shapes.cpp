// test_client_shapes.cpp: qcom-ml on the (scaled-down) shapes a real CLML client ran: wide
// channel counts, long softmax vectors, large depthwise and pooling inputs. The random small
// shapes of every op and form are the conformance suite's (tests/conformance).
#include "qcom_ml_plugin.hpp"

using namespace qcom_test;

TEST_CASE("conv2d direct, depthwise and transposed on client shapes") {
    check_op(op::conv2d().padding(1, 1, 1, 1).bias(),
             {values({1, 14, 10, 10}, 1), values({4, 14, 3, 3}, 2), values({4}, 3)});
    check_op(op::conv2d().padding(1, 1, 1, 1).bias().fuse(activation_kind::relu),
             {values({1, 6, 32, 32}, 8), values({4, 6, 5, 5}, 9), values({4}, 10)});
    check_op(op::conv2d().fuse(activation_kind::relu),
             {values({1, 64, 20, 20}, 13), values({8, 64, 3, 1}, 14)});
    check_op(op::conv2d().depthwise().padding(2, 2, 2, 2).stride(2, 2),
             {values({1, 128, 8, 8}, 25), values({128, 1, 3, 3}, 26)});
    check_op(op::conv2d().groups(16).padding(1, 1, 1, 1).stride(2, 2),
             {values({1, 16, 32, 32}, 27), values({16, 1, 3, 3}, 28)});
}

TEST_CASE("fully connected, pooling, softmax, concat, depth_to_space on client shapes") {
    check_op(op::fully_connected().bias(),
             {values({1, 512}, 52), values({100, 512}, 53), values({100}, 54)});
    check_op(op::pooling(pooling_kind::max).kernel(3, 3).stride(2, 2),
             {values({1, 64, 35, 35}, 71)});
    check_op(op::softmax().along(1), {values({1, 1000}, 91, -5.0f, 5.0f)});
    check_op(op::concat(1), {values({1, 64, 16, 10}, 120), values({1, 64, 16, 10}, 121)});
    check_op(op::depth_to_space(4), {values({1, 64, 8, 8}, 140)});
}
