// test_errors.cpp: every invalid argument combination of the node creators returns no node and
// logs the spec's status naming the parameter; shape errors found at verify return the status
// from vxVerifyGraph; invalid references and attribute queries.
#include "vx_test_support.hpp"

using namespace vx_test;

namespace {

constexpr vx_enum sat_policy = VX_CONVERT_POLICY_SATURATE, zero_rounding = VX_ROUND_POLICY_TO_ZERO;
constexpr vx_enum floor_rounding = VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR;

/// Objects of a 3x3 convolution of a 5x5x2 Q7.8 input into 3x3x4.
struct conv_objects {
    explicit conv_objects(test_context& c)
        : context(c),
          graph(vxCreateGraph(c)),
          in(make_tensor(c, {5, 5, 2}, VX_TYPE_INT16, 8)),
          weights(make_tensor(c, {3, 3, 2, 4}, VX_TYPE_INT16, 8)),
          bias(make_tensor(c, {4}, VX_TYPE_INT16, 8)),
          out(make_tensor(c, {3, 3, 4}, VX_TYPE_INT16, 8)) {}
    ~conv_objects() {
        for (vx_tensor* t : {&in, &weights, &bias, &out}) vxReleaseTensor(t);
        vxReleaseGraph(&graph);
    }
    /// Expects the creator to fail with `status` logged mentioning `parameter`.
    void expect_failure(vx_node node, vx_status status, const std::string& parameter) {
        CHECK(node == nullptr);
        CHECK_MESSAGE(context.logged(status, {parameter}),
                      "expected status "
                          << status << " naming " << parameter << "; last log: "
                          << (context.log().empty() ? "" : context.log().back().message));
        vx_uint32 nodes = 1;
        vxQueryGraph(graph, VX_GRAPH_NUMNODES, &nodes, sizeof(nodes));
        CHECK(nodes == 0);
        context.clear_log();
    }
    test_context& context;
    vx_graph graph;
    vx_tensor in, weights, bias, out;
};

}  // namespace

TEST_CASE("errors: convolution arguments") {
    test_context context;
    conv_objects o(context);
    const auto conv = [&](vx_tensor in, vx_tensor w, vx_tensor b, vx_uint32 px, vx_uint8 bits,
                          vx_enum overflow, vx_enum rounding, vx_enum size_rounding,
                          vx_tensor out) {
        return vxConvolutionLayer(o.graph, in, w, b, px, 0, bits, overflow, rounding, size_rounding,
                                  out);
    };
    o.expect_failure(
        conv(o.in, o.weights, o.bias, 0, 32, 12345, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_PARAMETERS, "overflow_policy");
    o.expect_failure(conv(o.in, o.weights, o.bias, 0, 32, sat_policy, 12345, floor_rounding, o.out),
                     VX_ERROR_INVALID_PARAMETERS, "rounding_policy");
    o.expect_failure(conv(o.in, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, 12345, o.out),
                     VX_ERROR_INVALID_PARAMETERS, "down_scale_size_rounding");
    o.expect_failure(
        conv(o.in, o.weights, o.bias, 0, 8, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_PARAMETERS, "accumulator_bits");
    o.expect_failure(
        conv(o.in, o.weights, o.bias, 0, 65, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_PARAMETERS, "accumulator_bits");
    o.expect_failure(
        conv(nullptr, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_REFERENCE, "inputs");
    o.expect_failure(conv(o.in, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding,
                          reinterpret_cast<vx_tensor>(o.graph)),
                     VX_ERROR_INVALID_REFERENCE, "outputs");
    vx_tensor w8 = make_tensor(context, {3, 3, 2, 4}, VX_TYPE_INT8, 0);
    o.expect_failure(
        conv(o.in, w8, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_FORMAT, "weights");
    vx_tensor b4 = make_tensor(context, {4}, VX_TYPE_INT16, 4);
    o.expect_failure(
        conv(o.in, o.weights, b4, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_FORMAT, "biases");
    vx_tensor out12 = make_tensor(context, {3, 3, 4}, VX_TYPE_INT16, 12);
    vx_tensor w2 = make_tensor(context, {3, 3, 2, 4}, VX_TYPE_INT16, 2);
    o.expect_failure(
        conv(o.in, w2, nullptr, 0, 32, sat_policy, zero_rounding, floor_rounding, out12),
        VX_ERROR_INVALID_FORMAT, "outputs");
    vx_tensor w3 = make_tensor(context, {3, 3, 3, 4}, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(o.in, w3, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_DIMENSION, "weights");
    vx_tensor out5 = make_tensor(context, {3, 3, 5}, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(o.in, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, out5),
        VX_ERROR_INVALID_DIMENSION, "outputs");
    // 5 + 0 - 3 = 2: outputs of 3 (stride 1), 2 (stride 2), 1 (stride 3); none gives 4 or 5.
    vx_tensor out_big = make_tensor(context, {4, 3, 4}, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(o.in, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, out_big),
        VX_ERROR_INVALID_DIMENSION, "no integer stride");
    vx_tensor b_wrong = make_tensor(context, {3, 3, 3}, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(o.in, o.weights, b_wrong, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_DIMENSION, "biases");
    vx_tensor in2d = make_tensor(context, {5, 5}, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(in2d, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_DIMENSION, "inputs");
    vx_tensor big_kernel = make_tensor(context, {7, 7, 2, 4}, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(o.in, big_kernel, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, o.out),
        VX_ERROR_INVALID_DIMENSION, "larger than the padded input");
    // A virtual tensor of another graph is out of scope.
    vx_graph other = vxCreateGraph(context);
    vx_uint32 dims[] = {3, 3, 4};
    vx_tensor foreign = vxCreateVirtualTensor(other, 3, dims, VX_TYPE_INT16, 8);
    o.expect_failure(
        conv(o.in, o.weights, o.bias, 0, 32, sat_policy, zero_rounding, floor_rounding, foreign),
        VX_ERROR_INVALID_SCOPE, "outputs");
    // A valid call (and accumulator_bits 0, the widest) succeeds.
    vx_node ok =
        conv(o.in, o.weights, o.bias, 0, 0, sat_policy, zero_rounding, floor_rounding, o.out);
    CHECK(ok != nullptr);
    vxReleaseNode(&ok);
    for (vx_tensor* t :
         {&w8, &b4, &out12, &w2, &w3, &out5, &out_big, &b_wrong, &in2d, &big_kernel, &foreign})
        vxReleaseTensor(t);
    vxReleaseGraph(&other);
}

TEST_CASE("errors: fully connected, pooling, normalization, activation, softmax") {
    test_context context;
    conv_objects o(context);
    vx_tensor fc_in = make_tensor(context, {10, 2}, VX_TYPE_INT16, 8);
    vx_tensor fc_w = make_tensor(context, {10, 3}, VX_TYPE_INT16, 8);
    vx_tensor fc_out = make_tensor(context, {3, 2}, VX_TYPE_INT16, 8);
    vx_tensor fc_w_bad = make_tensor(context, {9, 3}, VX_TYPE_INT16, 8);
    vx_tensor fc_bias_bad = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    o.expect_failure(vxFullyConnectedLayer(o.graph, fc_in, fc_w, nullptr, 1, 32, sat_policy,
                                           zero_rounding, floor_rounding, fc_out),
                     VX_ERROR_INVALID_PARAMETERS, "pad");
    o.expect_failure(vxFullyConnectedLayer(o.graph, fc_in, fc_w_bad, nullptr, 0, 32, sat_policy,
                                           zero_rounding, floor_rounding, fc_out),
                     VX_ERROR_INVALID_DIMENSION, "weights");
    o.expect_failure(vxFullyConnectedLayer(o.graph, fc_in, fc_w, fc_bias_bad, 0, 32, sat_policy,
                                           zero_rounding, floor_rounding, fc_out),
                     VX_ERROR_INVALID_DIMENSION, "biases");
    o.expect_failure(vxFullyConnectedLayer(o.graph, fc_in, fc_w, nullptr, 0, 32, sat_policy,
                                           zero_rounding, floor_rounding, o.out),
                     VX_ERROR_INVALID_DIMENSION, "outputs");

    vx_tensor pool_out = make_tensor(context, {2, 2, 2}, VX_TYPE_INT16, 8);
    const vx_enum max_pool = VX_CONVOLUTIONAL_NETWORK_POOLING_MAX;
    o.expect_failure(vxPoolingLayer(o.graph, o.in, 999, 2, 2, 0, 0, floor_rounding, pool_out),
                     VX_ERROR_INVALID_PARAMETERS, "pool_type");
    o.expect_failure(vxPoolingLayer(o.graph, o.in, max_pool, 2, 2, 0, 0, 999, pool_out),
                     VX_ERROR_INVALID_PARAMETERS, "rounding");
    o.expect_failure(vxPoolingLayer(o.graph, o.in, max_pool, 0, 2, 0, 0, floor_rounding, pool_out),
                     VX_ERROR_INVALID_PARAMETERS, "pool_size_x");
    o.expect_failure(vxPoolingLayer(o.graph, o.in, max_pool, 2, 2, 2, 0, floor_rounding, pool_out),
                     VX_ERROR_INVALID_PARAMETERS, "pool_pad_x");
    o.expect_failure(vxPoolingLayer(o.graph, o.in, max_pool, 2, 2, 0, 0, floor_rounding, o.out),
                     VX_ERROR_INVALID_DIMENSION, "outputs");
    vx_tensor pool_u8 = make_tensor(context, {2, 2, 2}, VX_TYPE_UINT8, 0);
    o.expect_failure(vxPoolingLayer(o.graph, o.in, max_pool, 2, 2, 0, 0, floor_rounding, pool_u8),
                     VX_ERROR_INVALID_FORMAT, "outputs");

    vx_tensor same = make_tensor(context, {5, 5, 2}, VX_TYPE_INT16, 8);
    const vx_enum across = VX_CONVOLUTIONAL_NETWORK_NORM_ACROSS_MAPS;
    o.expect_failure(vxNormalizationLayer(o.graph, o.in, 999, 3, 0.1f, 0.75f, same),
                     VX_ERROR_INVALID_PARAMETERS, "type");
    o.expect_failure(vxNormalizationLayer(o.graph, o.in, across, 4, 0.1f, 0.75f, same),
                     VX_ERROR_INVALID_PARAMETERS, "norm_size");
    o.expect_failure(vxNormalizationLayer(o.graph, o.in, across, 3, 0.1f, 0.75f, o.out),
                     VX_ERROR_INVALID_DIMENSION, "outputs");

    o.expect_failure(vxActivationLayer(o.graph, o.in, 999, 0, 0, same), VX_ERROR_INVALID_PARAMETERS,
                     "func");
    o.expect_failure(
        vxActivationLayer(o.graph, o.in, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, 0, 0, o.out),
        VX_ERROR_INVALID_DIMENSION, "outputs");
    vx_tensor same_q4 = make_tensor(context, {5, 5, 2}, VX_TYPE_INT16, 4);
    o.expect_failure(
        vxActivationLayer(o.graph, o.in, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, 0, 0, same_q4),
        VX_ERROR_INVALID_FORMAT, "outputs");
    o.expect_failure(vxSoftmaxLayer(o.graph, o.in, o.out), VX_ERROR_INVALID_DIMENSION, "outputs");
    CHECK(vxSoftmaxLayer(nullptr, o.in, same) == nullptr);  // no graph: nothing to log to
    for (vx_tensor* t :
         {&fc_in, &fc_w, &fc_out, &fc_w_bad, &fc_bias_bad, &pool_out, &pool_u8, &same, &same_q4})
        vxReleaseTensor(t);
}

TEST_CASE("errors: tensor nodes") {
    test_context context;
    conv_objects o(context);
    vx_tensor a = make_tensor(context, {4, 3}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {4, 2}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {4, 3}, VX_TYPE_INT16, 8);
    vx_tensor a_q4 = make_tensor(context, {4, 3}, VX_TYPE_INT16, 4);
    vx_tensor u8 = make_tensor(context, {4, 3}, VX_TYPE_UINT8, 0);
    const vx_float32 one = 1.0f, negative = -1.0f;
    const vx_int32 int_one = 1;
    vx_scalar scale = vxCreateScalar(context, VX_TYPE_FLOAT32, &one);
    vx_scalar negative_scale = vxCreateScalar(context, VX_TYPE_FLOAT32, &negative);
    vx_scalar int_scale = vxCreateScalar(context, VX_TYPE_INT32, &int_one);
    o.expect_failure(vxTensorAddNode(o.graph, a, b, sat_policy, out), VX_ERROR_INVALID_DIMENSION,
                     "in2");
    o.expect_failure(vxTensorAddNode(o.graph, a, a, 999, out), VX_ERROR_INVALID_PARAMETERS,
                     "policy");
    o.expect_failure(vxTensorSubtractNode(o.graph, a, a_q4, sat_policy, out),
                     VX_ERROR_INVALID_FORMAT, "in2");
    o.expect_failure(vxTensorSubtractNode(o.graph, a, u8, sat_policy, out), VX_ERROR_INVALID_FORMAT,
                     "in2");
    o.expect_failure(vxTensorMultiplyNode(o.graph, a, a, int_scale, sat_policy, zero_rounding, out),
                     VX_ERROR_INVALID_TYPE, "scale");
    o.expect_failure(
        vxTensorMultiplyNode(o.graph, a, a, negative_scale, sat_policy, zero_rounding, out),
        VX_ERROR_INVALID_VALUE, "scale");
    o.expect_failure(vxTensorMultiplyNode(o.graph, a, a, scale, sat_policy, 999, out),
                     VX_ERROR_INVALID_PARAMETERS, "rounding_policy");
    o.expect_failure(vxTensorMultiplyNode(o.graph, a, a, nullptr, sat_policy, zero_rounding, out),
                     VX_ERROR_INVALID_REFERENCE, "scale");
    vx_lut lut8 = vxCreateLUT(context, VX_TYPE_UINT8, 256);
    o.expect_failure(vxTensorTableLookupNode(o.graph, a, lut8, out), VX_ERROR_INVALID_FORMAT,
                     "lut");
    o.expect_failure(vxTensorTableLookupNode(o.graph, a, nullptr, out), VX_ERROR_INVALID_REFERENCE,
                     "lut");
    vx_tensor t_out = make_tensor(context, {3, 4}, VX_TYPE_INT16, 8);
    o.expect_failure(vxTensorTransposeNode(o.graph, a, t_out, 0, 2), VX_ERROR_INVALID_PARAMETERS,
                     "dim2");
    o.expect_failure(vxTensorTransposeNode(o.graph, a, out, 0, 1), VX_ERROR_INVALID_DIMENSION,
                     "out");
    vx_node ok = vxTensorTransposeNode(o.graph, a, t_out, 1, 0);
    CHECK(ok != nullptr);
    vxReleaseNode(&ok);
    vxReleaseLUT(&lut8);
    for (vx_scalar* s : {&scale, &negative_scale, &int_scale}) vxReleaseScalar(s);
    for (vx_tensor* t : {&a, &b, &out, &a_q4, &u8, &t_out}) vxReleaseTensor(t);
}

TEST_CASE("errors: shapes found wrong at verify return the status from vxVerifyGraph") {
    test_context context;
    vx_graph g = vxCreateGraph(context);
    vx_tensor in = make_tensor(context, {4, 4, 2}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {2, 2, 2}, VX_TYPE_INT16, 8);
    // The virtual tensor claims 3 x 3 x 2 but the activation writing it infers 4 x 4 x 2.
    vx_uint32 dims[] = {3, 0, 0};
    vx_tensor v = vxCreateVirtualTensor(g, 3, dims, VX_TYPE_INT16, 8);
    vx_node n1 = vxActivationLayer(g, in, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, 0, 0, v);
    vx_node n2 =
        vxPoolingLayer(g, v, VX_CONVOLUTIONAL_NETWORK_POOLING_MAX, 2, 2, 0, 0, floor_rounding, out);
    REQUIRE(n1 != nullptr);
    REQUIRE(n2 != nullptr);
    CHECK(vxVerifyGraph(g) == VX_ERROR_INVALID_DIMENSION);
    CHECK(context.logged(VX_ERROR_INVALID_DIMENSION, {"vxActivationLayer", "outputs", "virtual"}));
    CHECK(vxProcessGraph(g) == VX_ERROR_INVALID_DIMENSION);
    vx_status node_status = VX_SUCCESS;
    CHECK(vxQueryNode(n1, VX_NODE_STATUS, &node_status, sizeof(node_status)) == VX_SUCCESS);
    CHECK(node_status == VX_ERROR_INVALID_DIMENSION);
    vxReleaseNode(&n1);
    vxReleaseNode(&n2);
    vxReleaseTensor(&v);
    vxReleaseTensor(&in);
    vxReleaseTensor(&out);
    vxReleaseGraph(&g);
}

TEST_CASE("errors: invalid references and attribute queries") {
    test_context context;
    vx_tensor t = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_size wrong_size = 0;
    CHECK(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &wrong_size, sizeof(wrong_size)) ==
          VX_ERROR_INVALID_PARAMETERS);
    CHECK(vxQueryTensor(t, VX_TENSOR_DIMS, nullptr, 0) == VX_ERROR_INVALID_PARAMETERS);
    CHECK(vxQueryTensor(t, VX_GRAPH_STATE, &wrong_size, sizeof(wrong_size)) ==
          VX_ERROR_NOT_SUPPORTED);
    CHECK(vxQueryTensor(reinterpret_cast<vx_tensor>(static_cast<vx_context>(context)),
                        VX_TENSOR_DATA_TYPE, &wrong_size,
                        sizeof(wrong_size)) == VX_ERROR_INVALID_REFERENCE);
    CHECK(vxQueryContext(context, VX_CONTEXT_REFERENCES, &wrong_size, sizeof(wrong_size)) ==
          VX_ERROR_INVALID_PARAMETERS);
    CHECK(vxReleaseGraph(reinterpret_cast<vx_graph*>(&t)) == VX_ERROR_INVALID_REFERENCE);
    CHECK(t != nullptr);  // untouched by the failed release
    CHECK(vxRetainReference(nullptr) == VX_ERROR_INVALID_REFERENCE);
    CHECK(vxVerifyGraph(nullptr) == VX_ERROR_INVALID_REFERENCE);
    CHECK(vxProcessGraph(reinterpret_cast<vx_graph>(t)) == VX_ERROR_INVALID_REFERENCE);
    CHECK(vxCreateTensorView(context, nullptr, nullptr, 1) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_PARAMETERS, {"vxCreateTensorView"}));
    vx_uint32 dims[] = {2}, zero[] = {0};
    CHECK(vxCreateTensorAddressing(context, dims, zero, 1) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_PARAMETERS, {"vxCreateTensorAddressing"}));
    vxReleaseTensor(&t);
}
