// test_graph.cpp: graph semantics: empty graph, single writer (overlapping views count as one),
// cycles, virtual tensors (need a writer, shapes inferred at verify), un-verify on a new node or
// parameter, process verifying first, schedule/wait, node callbacks and abandon, graph
// parameters, node removal and queries; a grouped convolution written as two views against the
// reference's grouped conv2d.
#include <algorithm>
#include <cstdlib>

#include "tessera/reference/conv2d.hpp"
#include "vx_test_support.hpp"

using namespace vx_test;

namespace {

constexpr vx_enum relu = VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU;
constexpr vx_enum abs_function = VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS;

vx_node activation(vx_graph g, vx_tensor in, vx_tensor out, vx_enum f = relu) {
    vx_node n = vxActivationLayer(g, in, f, 0, 0, out);
    REQUIRE(n != nullptr);
    return n;
}

int callback_calls = 0;
vx_action VX_CALLBACK count_and_continue(vx_node) {
    ++callback_calls;
    return VX_ACTION_CONTINUE;
}
vx_action VX_CALLBACK abandon(vx_node) {
    ++callback_calls;
    return VX_ACTION_ABANDON;
}

}  // namespace

TEST_CASE("graph: an empty graph fails verify with VX_ERROR_INVALID_GRAPH") {
    test_context context;
    vx_graph g = vxCreateGraph(context);
    CHECK(vxVerifyGraph(g) == VX_ERROR_INVALID_GRAPH);
    CHECK(vxProcessGraph(g) == VX_ERROR_INVALID_GRAPH);
    CHECK(context.logged(VX_ERROR_INVALID_GRAPH, {"no nodes"}));
    vx_enum state = 0;
    CHECK(vxQueryGraph(g, VX_GRAPH_STATE, &state, sizeof(state)) == VX_SUCCESS);
    CHECK(state == VX_GRAPH_STATE_UNVERIFIED);
    vxReleaseGraph(&g);
}

TEST_CASE("graph: one writer per tensor, overlapping views counting as one") {
    test_context context;
    vx_tensor in = make_tensor(context, {4, 2}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {4, 2}, VX_TYPE_INT16, 8);
    vx_tensor half_in = make_tensor(context, {2, 2}, VX_TYPE_INT16, 8);
    vx_uint32 s0[] = {0, 0}, e0[] = {2, 2}, s1[] = {2, 0}, e1[] = {4, 2}, s2[] = {1, 0},
              e2[] = {3, 2};
    vx_tensor_view left_view = vxCreateTensorView(context, s0, e0, 2);
    vx_tensor_view right_view = vxCreateTensorView(context, s1, e1, 2);
    vx_tensor_view middle_view = vxCreateTensorView(context, s2, e2, 2);
    vx_tensor left = vxCreateTensorFromView(out, left_view);
    vx_tensor right = vxCreateTensorFromView(out, right_view);
    vx_tensor middle = vxCreateTensorFromView(out, middle_view);
    write_tensor(half_in, {-256, 256, -512, 512});
    {
        // Two writers of the same tensor.
        vx_graph g = vxCreateGraph(context);
        vx_node a = activation(g, in, out), b = activation(g, in, out, abs_function);
        CHECK(vxVerifyGraph(g) == VX_ERROR_MULTIPLE_WRITERS);
        CHECK(context.logged(VX_ERROR_MULTIPLE_WRITERS, {"write the same tensor"}));
        vxReleaseNode(&a);
        vxReleaseNode(&b);
        vxReleaseGraph(&g);
    }
    {
        // Overlapping views of one tensor: one object, two writers.
        vx_graph g = vxCreateGraph(context);
        vx_node a = activation(g, half_in, left), b = activation(g, half_in, middle);
        CHECK(vxVerifyGraph(g) == VX_ERROR_MULTIPLE_WRITERS);
        vxReleaseNode(&a);
        vxReleaseNode(&b);
        vxReleaseGraph(&g);
    }
    {
        // Disjoint views: a valid merge of two results into one tensor.
        vx_graph g = vxCreateGraph(context);
        vx_node a = activation(g, half_in, left), b = activation(g, half_in, right, abs_function);
        CHECK(vxVerifyGraph(g) == VX_SUCCESS);
        process(g);
        // Rows of out: [relu(-1), relu(1), |-1|, |1|], [relu(-2), relu(2), |-2|, |2|].
        CHECK(read_tensor(out) == raw_t{0, 256, 256, 256, 0, 512, 512, 512});
        vxReleaseNode(&a);
        vxReleaseNode(&b);
        vxReleaseGraph(&g);
    }
    for (vx_tensor* t : {&in, &out, &half_in, &left, &right, &middle}) vxReleaseTensor(t);
    for (vx_tensor_view* v : {&left_view, &right_view, &middle_view}) vxReleaseTensorView(v);
}

TEST_CASE("graph: cycles and a node reading its own output fail verify") {
    test_context context;
    vx_tensor a = make_tensor(context, {3}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {3}, VX_TYPE_INT16, 8);
    vx_graph g = vxCreateGraph(context);
    vx_node n1 = activation(g, a, b), n2 = activation(g, b, a);
    CHECK(vxVerifyGraph(g) == VX_ERROR_INVALID_GRAPH);
    CHECK(context.logged(VX_ERROR_INVALID_GRAPH, {"cycle"}));
    vxReleaseNode(&n1);
    vxReleaseNode(&n2);
    vxReleaseGraph(&g);
    vx_graph self = vxCreateGraph(context);
    vx_node n3 = activation(self, a, a);
    CHECK(vxVerifyGraph(self) == VX_ERROR_INVALID_GRAPH);
    CHECK(context.logged(VX_ERROR_INVALID_GRAPH, {"reads the data it writes"}));
    vxReleaseNode(&n3);
    vxReleaseGraph(&self);
    vxReleaseTensor(&a);
    vxReleaseTensor(&b);
}

TEST_CASE("graph: virtual tensors need a writer; their shapes are inferred at verify") {
    test_context context;
    vx_tensor in = make_tensor(context, {5, 4, 2}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {3, 2, 2}, VX_TYPE_INT16, 8);
    write_tensor(in, random_raw(40, 5, -1000, 1000));
    {
        vx_graph g = vxCreateGraph(context);
        vx_uint32 dims[] = {5, 4, 2};
        vx_tensor unwritten = vxCreateVirtualTensor(g, 3, dims, VX_TYPE_INT16, 8);
        vx_tensor sink = make_tensor(context, {5, 4, 2}, VX_TYPE_INT16, 8);
        vx_node n = activation(g, unwritten, sink);
        CHECK(vxVerifyGraph(g) == VX_ERROR_INVALID_GRAPH);
        CHECK(context.logged(VX_ERROR_INVALID_GRAPH, {"virtual tensor no node"}));
        vxReleaseNode(&n);
        vxReleaseTensor(&unwritten);
        vxReleaseTensor(&sink);
        vxReleaseGraph(&g);
    }
    // in -abs-> v1 (shape unknown) -pool 3x3 max-> v2 (rank known, sizes unknown) -relu-> out
    vx_graph g = vxCreateGraph(context);
    vx_tensor v1 = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_INT16, 8);
    vx_uint32 unknown[] = {0, 0, 0};
    vx_tensor v2 = vxCreateVirtualTensor(g, 3, unknown, VX_TYPE_INT16, 8);
    vx_node n1 = activation(g, in, v1, abs_function);
    vx_node n2 = vxPoolingLayer(g, v1, VX_CONVOLUTIONAL_NETWORK_POOLING_MAX, 3, 3, 0, 0,
                                VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, v2);
    REQUIRE(n2 != nullptr);
    vx_node n3 = activation(g, v2, out);
    REQUIRE(vxVerifyGraph(g) == VX_SUCCESS);
    CHECK(tensor_dims(v1) == std::vector<vx_size>{5, 4, 2});
    CHECK(tensor_dims(v2) == std::vector<vx_size>{3, 2, 2});
    process(g);
    // Max of |x| over 3x3 windows, computed here.
    const raw_t x = read_tensor(in), got = read_tensor(out);
    for (vx_size c = 0; c < 2; ++c)
        for (vx_size oy = 0; oy < 2; ++oy)
            for (vx_size ox = 0; ox < 3; ++ox) {
                std::int64_t best = 0;
                for (vx_size j = 0; j < 3; ++j)
                    for (vx_size i = 0; i < 3; ++i)
                        best = std::max<std::int64_t>(best,
                                                      std::abs(x[(c * 4 + oy + j) * 5 + ox + i]));
                CHECK(got[(c * 2 + oy) * 3 + ox] == best);
            }
    for (vx_node* n : {&n1, &n2, &n3}) vxReleaseNode(n);
    vxReleaseTensor(&v1);
    vxReleaseTensor(&v2);
    vxReleaseGraph(&g);
    vxReleaseTensor(&in);
    vxReleaseTensor(&out);
}

TEST_CASE("graph: adding a node or changing a parameter un-verifies; process verifies first") {
    test_context context;
    vx_tensor a = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_tensor c = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    write_tensor(a, {-256, 512});
    write_tensor(c, {-768, 1024});
    vx_graph g = vxCreateGraph(context);
    vx_node n1 = activation(g, a, b, abs_function);
    CHECK(vxIsGraphVerified(g) == vx_false_e);
    process(g);  // verifies first
    CHECK(vxIsGraphVerified(g) == vx_true_e);
    CHECK(read_tensor(b) == raw_t{256, 512});
    CHECK(vxSetParameterByIndex(n1, 0, reinterpret_cast<vx_reference>(c)) == VX_SUCCESS);
    CHECK(vxIsGraphVerified(g) == vx_false_e);
    process(g);
    CHECK(read_tensor(b) == raw_t{768, 1024});
    vx_tensor d = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_node n2 = activation(g, b, d);
    CHECK(vxIsGraphVerified(g) == vx_false_e);
    CHECK(vxVerifyGraph(g) == VX_SUCCESS);
    vx_uint32 nodes = 0;
    CHECK(vxQueryGraph(g, VX_GRAPH_NUMNODES, &nodes, sizeof(nodes)) == VX_SUCCESS);
    CHECK(nodes == 2);
    // Removing a node un-verifies too.
    CHECK(vxRemoveNode(&n2) == VX_SUCCESS);
    CHECK(n2 == nullptr);
    CHECK(vxIsGraphVerified(g) == vx_false_e);
    CHECK(vxQueryGraph(g, VX_GRAPH_NUMNODES, &nodes, sizeof(nodes)) == VX_SUCCESS);
    CHECK(nodes == 1);
    // A parameter of the wrong type is refused and changes nothing.
    vx_lut lut = vxCreateLUT(context, VX_TYPE_INT16, 4);
    CHECK(vxSetParameterByIndex(n1, 0, reinterpret_cast<vx_reference>(lut)) ==
          VX_ERROR_INVALID_TYPE);
    CHECK(vxSetParameterByIndex(n1, 9, reinterpret_cast<vx_reference>(a)) ==
          VX_ERROR_INVALID_PARAMETERS);
    vxReleaseLUT(&lut);
    vxReleaseNode(&n1);
    vxReleaseGraph(&g);
    for (vx_tensor* t : {&a, &b, &c, &d}) vxReleaseTensor(t);
}

TEST_CASE("graph: schedule and wait") {
    test_context context;
    vx_tensor a = make_tensor(context, {3}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {3}, VX_TYPE_INT16, 8);
    write_tensor(a, {-1, 0, 1});
    vx_graph g = vxCreateGraph(context);
    vx_node n = activation(g, a, b, abs_function);
    CHECK(vxWaitGraph(g) == VX_FAILURE);
    REQUIRE(vxScheduleGraph(g) == VX_SUCCESS);
    CHECK(vxScheduleGraph(g) == VX_ERROR_GRAPH_SCHEDULED);
    CHECK(vxWaitGraph(g) == VX_SUCCESS);
    CHECK(read_tensor(b) == raw_t{1, 0, 1});
    CHECK(vxWaitGraph(g) == VX_FAILURE);  // nothing scheduled any more
    vx_enum state = 0;
    vxQueryGraph(g, VX_GRAPH_STATE, &state, sizeof(state));
    CHECK(state == VX_GRAPH_STATE_COMPLETED);
    vx_perf_t perf{};
    CHECK(vxQueryGraph(g, VX_GRAPH_PERFORMANCE, &perf, sizeof(perf)) == VX_SUCCESS);
    CHECK(perf.num == 1);
    CHECK(vxQueryNode(n, VX_NODE_PERFORMANCE, &perf, sizeof(perf)) == VX_SUCCESS);
    CHECK(perf.num == 1);
    vxReleaseNode(&n);
    vxReleaseGraph(&g);
    vxReleaseTensor(&a);
    vxReleaseTensor(&b);
}

TEST_CASE("graph: node callbacks; VX_ACTION_ABANDON stops with VX_ERROR_GRAPH_ABANDONED") {
    test_context context;
    vx_tensor a = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_tensor c = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    write_tensor(a, {-5, 5});
    write_tensor(c, {77, 77});
    vx_graph g = vxCreateGraph(context);
    vx_node first = activation(g, a, b, abs_function);
    vx_node second = activation(g, b, c);
    callback_calls = 0;
    REQUIRE(vxAssignNodeCallback(second, count_and_continue) == VX_SUCCESS);
    CHECK((vxRetrieveNodeCallback(second) == &count_and_continue) == true);
    process(g);
    CHECK(callback_calls == 1);
    CHECK(read_tensor(c) == raw_t{5, 5});
    // Abandon after the first node: the second does not run.
    write_tensor(c, {77, 77});
    REQUIRE(vxAssignNodeCallback(first, abandon) == VX_SUCCESS);
    callback_calls = 0;
    CHECK(vxProcessGraph(g) == VX_ERROR_GRAPH_ABANDONED);
    CHECK(callback_calls == 1);
    CHECK(read_tensor(c) == raw_t{77, 77});
    vx_enum state = 0;
    vxQueryGraph(g, VX_GRAPH_STATE, &state, sizeof(state));
    CHECK(state == VX_GRAPH_STATE_ABANDONED);
    // A second callback cannot replace the first without clearing it.
    CHECK(vxAssignNodeCallback(first, count_and_continue) == VX_ERROR_NOT_SUPPORTED);
    CHECK(vxAssignNodeCallback(first, nullptr) == VX_SUCCESS);
    vxReleaseNode(&first);
    vxReleaseNode(&second);
    vxReleaseGraph(&g);
    for (vx_tensor* t : {&a, &b, &c}) vxReleaseTensor(t);
}

TEST_CASE("graph parameters and parameter objects") {
    test_context context;
    vx_tensor a = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_tensor a2 = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {2}, VX_TYPE_INT16, 8);
    write_tensor(a, {-1, 1});
    write_tensor(a2, {-9, 9});
    vx_graph g = vxCreateGraph(context);
    vx_node n = activation(g, a, b, abs_function);
    vx_parameter p = vxGetParameterByIndex(n, 0);
    REQUIRE(p != nullptr);
    vx_enum direction = 0, type = 0;
    CHECK(vxQueryParameter(p, VX_PARAMETER_DIRECTION, &direction, sizeof(direction)) == VX_SUCCESS);
    CHECK(vxQueryParameter(p, VX_PARAMETER_TYPE, &type, sizeof(type)) == VX_SUCCESS);
    CHECK(direction == VX_INPUT);
    CHECK(type == VX_TYPE_TENSOR);
    vx_reference current = nullptr;
    CHECK(vxQueryParameter(p, VX_PARAMETER_REF, &current, sizeof(current)) == VX_SUCCESS);
    CHECK(current == reinterpret_cast<vx_reference>(a));
    vxReleaseReference(&current);
    REQUIRE(vxAddParameterToGraph(g, p) == VX_SUCCESS);
    vx_uint32 count = 0;
    vxQueryGraph(g, VX_GRAPH_NUMPARAMETERS, &count, sizeof(count));
    CHECK(count == 1);
    process(g);
    CHECK(read_tensor(b) == raw_t{1, 1});
    CHECK(vxSetGraphParameterByIndex(g, 0, reinterpret_cast<vx_reference>(a2)) == VX_SUCCESS);
    CHECK(vxIsGraphVerified(g) == vx_false_e);
    process(g);
    CHECK(read_tensor(b) == raw_t{9, 9});
    vx_parameter again = vxGetGraphParameterByIndex(g, 0);
    CHECK(again != nullptr);
    vxReleaseParameter(&again);
    vxReleaseParameter(&p);
    vxReleaseNode(&n);
    vxReleaseGraph(&g);
    for (vx_tensor* t : {&a, &a2, &b}) vxReleaseTensor(t);
}

TEST_CASE("graph: grouped convolution written as two views (AlexNet style)") {
    test_context context;
    rng r(61);
    const vx_size w = 6, h = 5, c = 4, o = 6, k = 3, ow = 4, oh = 3;
    const raw_t xv = random_raw(w * h * c, r.next(), -4000, 4000);
    const raw_t w0 = random_raw(k * k * 2 * 3, r.next(), -4000, 4000);
    const raw_t w1 = random_raw(k * k * 2 * 3, r.next(), -4000, 4000);
    vx_tensor in = make_tensor(context, {w, h, c}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {ow, oh, o}, VX_TYPE_INT16, 8);
    vx_tensor weights0 = make_tensor(context, {k, k, 2, 3}, VX_TYPE_INT16, 8);
    vx_tensor weights1 = make_tensor(context, {k, k, 2, 3}, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(weights0, w0);
    write_tensor(weights1, w1);
    vx_uint32 is0[] = {0, 0, 0}, ie0[] = {6, 5, 2}, is1[] = {0, 0, 2}, ie1[] = {6, 5, 4};
    vx_uint32 os0[] = {0, 0, 0}, oe0[] = {4, 3, 3}, os1[] = {0, 0, 3}, oe1[] = {4, 3, 6};
    vx_tensor_view views[] = {
        vxCreateTensorView(context, is0, ie0, 3), vxCreateTensorView(context, is1, ie1, 3),
        vxCreateTensorView(context, os0, oe0, 3), vxCreateTensorView(context, os1, oe1, 3)};
    vx_tensor in0 = vxCreateTensorFromView(in, views[0]),
              in1 = vxCreateTensorFromView(in, views[1]);
    vx_tensor out0 = vxCreateTensorFromView(out, views[2]),
              out1 = vxCreateTensorFromView(out, views[3]);
    vx_graph g = vxCreateGraph(context);
    const vx_enum floor_rounding = VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR;
    vx_node n0 = vxConvolutionLayer(g, in0, weights0, nullptr, 0, 0, 32, VX_CONVERT_POLICY_SATURATE,
                                    VX_ROUND_POLICY_TO_NEAREST_EVEN, floor_rounding, out0);
    vx_node n1 = vxConvolutionLayer(g, in1, weights1, nullptr, 0, 0, 32, VX_CONVERT_POLICY_SATURATE,
                                    VX_ROUND_POLICY_TO_NEAREST_EVEN, floor_rounding, out1);
    REQUIRE(n0 != nullptr);
    REQUIRE(n1 != nullptr);
    process(g);
    // The reference's grouped conv2d: weights [O = 6, C/groups = 2, k, k] = both halves in order.
    raw_t all_weights = w0;
    all_weights.insert(all_weights.end(), w1.begin(), w1.end());
    auto op =
        tessera::op::conv2d().groups(2).policies(TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_SATURATE);
    const raw_t expected =
        raw_of(op_test::run1(op, {to_reference({w, h, c, 1}, xv, VX_TYPE_INT16, 8),
                                  to_reference({k, k, 2, o}, all_weights, VX_TYPE_INT16, 8)}));
    check_equal(read_tensor(out), expected, 0, "grouped convolution");
    vxReleaseNode(&n0);
    vxReleaseNode(&n1);
    vxReleaseGraph(&g);
    for (vx_tensor* t : {&in, &out, &weights0, &weights1, &in0, &in1, &out0, &out1})
        vxReleaseTensor(t);
    for (vx_tensor_view& v : views) vxReleaseTensorView(&v);
}

TEST_CASE("graph: views of a virtual tensor split an intermediate result") {
    test_context context;
    vx_tensor in = make_tensor(context, {3, 2, 4}, VX_TYPE_INT16, 8);
    vx_tensor out_a = make_tensor(context, {3, 2, 2}, VX_TYPE_INT16, 8);
    vx_tensor out_b = make_tensor(context, {3, 2, 2}, VX_TYPE_INT16, 8);
    const raw_t x = random_raw(24, 71, -3000, 3000);
    write_tensor(in, x);
    vx_graph g = vxCreateGraph(context);
    vx_uint32 dims[] = {3, 2, 4};
    vx_tensor mid = vxCreateVirtualTensor(g, 3, dims, VX_TYPE_INT16, 8);
    vx_uint32 s0[] = {0, 0, 0}, e0[] = {3, 2, 2}, s1[] = {0, 0, 2}, e1[] = {3, 2, 4};
    vx_tensor_view v0 = vxCreateTensorView(context, s0, e0, 3),
                   v1 = vxCreateTensorView(context, s1, e1, 3);
    vx_tensor lower = vxCreateTensorFromView(mid, v0), upper = vxCreateTensorFromView(mid, v1);
    REQUIRE(lower != nullptr);
    REQUIRE(upper != nullptr);
    // A view of a virtual tensor is virtual too.
    vx_uint32 extent[] = {3, 2, 2}, strides[] = {2, 6, 12};
    vx_tensor_addressing addr = vxCreateTensorAddressing(context, extent, strides, 3);
    std::int16_t buffer[12];
    CHECK(vxCopyTensorPatch(lower, nullptr, addr, buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) ==
          VX_ERROR_OPTIMIZED_AWAY);
    vx_node n1 = activation(g, in, mid, abs_function);
    vx_node n2 = activation(g, lower, out_a);
    vx_node n3 =
        vxActivationLayer(g, upper, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR, -1, 0, out_b);
    REQUIRE(n3 != nullptr);
    process(g);
    const raw_t a = read_tensor(out_a), b = read_tensor(out_b);
    for (std::size_t i = 0; i < 12; ++i) {
        CHECK(a[i] == std::abs(x[i]));
        CHECK(b[i] == -std::abs(x[12 + i]));
    }
    // A view of a virtual tensor whose shape is still unknown cannot be made.
    vx_tensor unknown = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_INT16, 8);
    CHECK(vxCreateTensorFromView(unknown, v0) == nullptr);
    CHECK(context.logged(VX_ERROR_INVALID_DIMENSION, {"vxCreateTensorFromView"}));
    for (vx_node* n : {&n1, &n2, &n3}) vxReleaseNode(n);
    for (vx_tensor* t : {&in, &out_a, &out_b, &mid, &lower, &upper, &unknown}) vxReleaseTensor(t);
    vxReleaseTensorView(&v0);
    vxReleaseTensorView(&v1);
    vxReleaseTensorAddressing(&addr);
    vxReleaseGraph(&g);
}

TEST_CASE("graph: virtual shapes are inferred again after a parameter change") {
    test_context context;
    vx_tensor in4 = make_tensor(context, {4}, VX_TYPE_INT16, 8);
    vx_tensor out4 = make_tensor(context, {4}, VX_TYPE_INT16, 8);
    vx_tensor in6 = make_tensor(context, {6}, VX_TYPE_INT16, 8);
    vx_tensor out6 = make_tensor(context, {6}, VX_TYPE_INT16, 8);
    write_tensor(in4, {-1, 2, -3, 4});
    write_tensor(in6, {-5, 6, -7, 8, -9, 10});
    vx_graph g = vxCreateGraph(context);
    vx_tensor v = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_INT16, 8);
    vx_node n1 = activation(g, in4, v, abs_function);
    vx_node n2 = vxActivationLayer(g, v, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR, -1, 0, out4);
    REQUIRE(n2 != nullptr);
    process(g);
    CHECK(read_tensor(out4) == raw_t{-1, -2, -3, -4});
    CHECK(vxSetParameterByIndex(n1, 0, reinterpret_cast<vx_reference>(in6)) == VX_SUCCESS);
    CHECK(vxSetParameterByIndex(n2, 1, reinterpret_cast<vx_reference>(out6)) == VX_SUCCESS);
    process(g);
    CHECK(tensor_dims(v) == std::vector<vx_size>{6});
    CHECK(read_tensor(out6) == raw_t{-5, -6, -7, -8, -9, -10});
    vxReleaseNode(&n1);
    vxReleaseNode(&n2);
    for (vx_tensor* t : {&in4, &out4, &in6, &out6, &v}) vxReleaseTensor(t);
    vxReleaseGraph(&g);
}
