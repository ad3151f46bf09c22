// test_graph_plan.cpp: vxVerifyGraph's optimisations leave results unchanged and are observable
// in their log entries: an activation fused into the convolution / fully connected layer writing
// its virtual input (compared with the same network through a non-virtual tensor, which is not
// fused, and with the scalar kernels), independent nodes grouped into levels that run
// concurrently (compared with hand-computed values and single-node graphs), and virtual tensors
// sharing memory when their lifetimes do not overlap (chains against hand-computed sums, also
// after verifying again).
#include <cstdlib>
#include <string>

#include "vx_test_support.hpp"

using namespace vx_test;

namespace {

constexpr vx_enum plan_relu = VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU;
constexpr vx_enum plan_logistic = VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC;

bool plan_logged(const test_context& context, const std::string& text) {
    for (const log_entry& e : context.log())
        if (e.status == VX_SUCCESS && e.message.find(text) != std::string::npos) return true;
    return false;
}

/// A layer (convolution 3x3 pad 1, or fully connected) followed by an activation, through a
/// virtual or a plain intermediate tensor; returns the activation's output.
raw_t layer_then_activation(test_context& context, bool convolution, bool virtual_middle,
                            vx_enum function, int weight_range, bool scalar_kernels) {
    rng r(convolution ? 31 : 32);
    const std::vector<vx_size> in_dims =
        convolution ? std::vector<vx_size>{23, 9, 6} : std::vector<vx_size>{300};
    const std::vector<vx_size> w_dims =
        convolution ? std::vector<vx_size>{3, 3, 6, 5} : std::vector<vx_size>{300, 37};
    const std::vector<vx_size> out_dims =
        convolution ? std::vector<vx_size>{23, 9, 5} : std::vector<vx_size>{37};
    raw_t xv(element_count(in_dims)), wv(element_count(w_dims));
    for (auto& v : xv) v = r.uniform(-4000, 4000);
    for (auto& v : wv) v = r.uniform(-weight_range, weight_range);
    const raw_t bv = random_raw(out_dims.back(), r.next(), -3000, 3000);
    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
    vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {out_dims.back()}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(w, wv);
    write_tensor(b, bv);
    vx_graph graph = vxCreateGraph(context);
    std::vector<vx_uint32> dims32(out_dims.begin(), out_dims.end());
    vx_tensor middle = virtual_middle
                           ? vxCreateVirtualTensor(graph, static_cast<vx_uint32>(dims32.size()),
                                                   dims32.data(), VX_TYPE_INT16, 8)
                           : make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    REQUIRE(middle != nullptr);
    vx_node layer =
        convolution
            ? vxConvolutionLayer(graph, in, w, b, 1, 1, 32, VX_CONVERT_POLICY_SATURATE,
                                 VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                 VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, middle)
            : vxFullyConnectedLayer(graph, in, w, b, 0, 32, VX_CONVERT_POLICY_SATURATE,
                                    VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, middle);
    vx_node act = vxActivationLayer(graph, middle, function, 0, 0, out);
    REQUIRE(layer != nullptr);
    REQUIRE(act != nullptr);
    if (scalar_kernels) setenv("TESSERA_OPENVX_KERNELS", "scalar", 1);
    process(graph);
    unsetenv("TESSERA_OPENVX_KERNELS");
    const raw_t result = read_tensor(out);
    vxReleaseNode(&layer);
    vxReleaseNode(&act);
    vxReleaseGraph(&graph);
    for (vx_tensor* t : {&in, &w, &b, &out, &middle}) vxReleaseTensor(t);
    return result;
}

}  // namespace

TEST_CASE("graph plan: an activation is fused into the layer writing its virtual input") {
    for (bool convolution : {true, false})
        for (vx_enum function : {plan_relu, plan_logistic})
            for (int weight_range : {200, 20000}) {  // int16 kernel / the other kernels
                CAPTURE(convolution);
                CAPTURE(function);
                CAPTURE(weight_range);
                test_context context;
                const raw_t fused = layer_then_activation(context, convolution, true, function,
                                                          weight_range, false);
                CHECK(plan_logged(context, "1 activations fused into the layer before"));
                const bool int16_kernel = plan_logged(context, "runs the int16 SIMD");
                CHECK(int16_kernel == (weight_range == 200));
                context.clear_log();
                const raw_t plain = layer_then_activation(context, convolution, false, function,
                                                          weight_range, false);
                CHECK(!plan_logged(context, "fused"));
                check_equal(fused, plain, 0, "fused against a plain intermediate");
                const raw_t scalar =
                    layer_then_activation(context, convolution, true, function, weight_range, true);
                check_equal(fused, scalar, 0, "fused against the scalar kernels");
                // The activation changed something (so a skipped activation would fail).
                CHECK(fused != layer_then_activation(context, convolution, false,
                                                     VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR,
                                                     weight_range, false));
            }
}

TEST_CASE("graph plan: no fusion when another node also reads the layer's output") {
    test_context context;
    vx_tensor in = make_tensor(context, {4, 4, 2}, VX_TYPE_INT16, 8);
    vx_tensor w = make_tensor(context, {1, 1, 2, 2}, VX_TYPE_INT16, 8);
    vx_tensor out_a = make_tensor(context, {4, 4, 2}, VX_TYPE_INT16, 8);
    vx_tensor out_b = make_tensor(context, {4, 4, 2}, VX_TYPE_INT16, 8);
    raw_t xv(32), wv{256, -256, 128, 64};
    for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<std::int64_t>(i) * 64 - 1000;
    write_tensor(in, xv);
    write_tensor(w, wv);
    vx_graph graph = vxCreateGraph(context);
    vx_uint32 dims[3] = {4, 4, 2};
    vx_tensor middle = vxCreateVirtualTensor(graph, 3, dims, VX_TYPE_INT16, 8);
    vx_node conv = vxConvolutionLayer(graph, in, w, nullptr, 0, 0, 0, VX_CONVERT_POLICY_SATURATE,
                                      VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                      VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, middle);
    vx_node a = vxActivationLayer(graph, middle, plan_relu, 0, 0, out_a);
    vx_node b =
        vxActivationLayer(graph, middle, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS, 0, 0, out_b);
    process(graph);
    CHECK(!plan_logged(context, "fused"));
    // Hand-computed: pixel i of output channel o is x0 * w(0,o) + x1 * w(1,o) (exact: the
    // weights are multiples of 2^6 and the inputs of 2^6 too), then plan_relu / abs.
    const raw_t ra = read_tensor(out_a), rb = read_tensor(out_b);
    for (std::size_t o = 0; o < 2; ++o)
        for (std::size_t i = 0; i < 16; ++i) {
            const std::int64_t v = (xv[i] * wv[o * 2] + xv[16 + i] * wv[o * 2 + 1]) / 256;
            CHECK(ra[o * 16 + i] == (v > 0 ? v : 0));
            CHECK(rb[o * 16 + i] == (v < 0 ? -v : v));
        }
    vxReleaseNode(&conv);
    vxReleaseNode(&a);
    vxReleaseNode(&b);
    vxReleaseGraph(&graph);
    for (vx_tensor* t : {&in, &w, &out_a, &out_b, &middle}) vxReleaseTensor(t);
}

TEST_CASE("graph plan: independent nodes run in one level, results unchanged") {
    test_context context;
    rng r(41);
    // Two convolution branches of one input, then their sum.
    const std::vector<vx_size> in_dims{30, 12, 8}, w_dims{3, 3, 8, 8}, out_dims{30, 12, 8};
    raw_t xv(element_count(in_dims)), wa(element_count(w_dims)), wb(element_count(w_dims));
    for (auto& v : xv) v = r.uniform(-2000, 2000);
    for (auto& v : wa) v = r.uniform(-200, 200);
    for (auto& v : wb) v = r.uniform(-200, 200);
    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
    vx_tensor w_a = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor w_b = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor a = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    vx_tensor sum = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(w_a, wa);
    write_tensor(w_b, wb);
    const auto conv = [&](vx_graph g, vx_tensor w, vx_tensor out) {
        vx_node n = vxConvolutionLayer(g, in, w, nullptr, 1, 1, 0, VX_CONVERT_POLICY_SATURATE,
                                       VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                       VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
        REQUIRE(n != nullptr);
        return n;
    };
    // Each branch alone first: the expected values.
    raw_t expected_a, expected_b;
    for (int branch = 0; branch < 2; ++branch) {
        vx_graph g = vxCreateGraph(context);
        vx_node n = conv(g, branch ? w_b : w_a, branch ? b : a);
        process(g);
        (branch ? expected_b : expected_a) = read_tensor(branch ? b : a);
        vxReleaseNode(&n);
        vxReleaseGraph(&g);
    }
    write_tensor(a, raw_t(expected_a.size(), 0));
    write_tensor(b, raw_t(expected_b.size(), 0));
    context.clear_log();
    vx_graph graph = vxCreateGraph(context);
    vx_node na = conv(graph, w_a, a), nb = conv(graph, w_b, b);
    vx_node add = vxTensorAddNode(graph, a, b, VX_CONVERT_POLICY_SATURATE, sum);
    REQUIRE(add != nullptr);
    for (int run = 0; run < 3; ++run) process(graph);
    CHECK(plan_logged(context, "3 nodes in 2 levels (up to 2 run concurrently)"));
    check_equal(read_tensor(a), expected_a, 0, "branch a");
    check_equal(read_tensor(b), expected_b, 0, "branch b");
    raw_t expected_sum(expected_a.size());
    for (std::size_t i = 0; i < expected_sum.size(); ++i) {
        const std::int64_t v = expected_a[i] + expected_b[i];
        expected_sum[i] = v > 32767 ? 32767 : (v < -32768 ? -32768 : v);
    }
    check_equal(read_tensor(sum), expected_sum, 0, "sum of the branches");
    vxReleaseNode(&na);
    vxReleaseNode(&nb);
    vxReleaseNode(&add);
    vxReleaseGraph(&graph);
    for (vx_tensor* t : {&in, &w_a, &w_b, &a, &b, &sum}) vxReleaseTensor(t);
}

TEST_CASE("graph plan: virtual tensors with disjoint lifetimes share memory") {
    test_context context;
    const std::vector<vx_size> dims{7, 3};
    const std::size_t n = element_count(dims);
    vx_tensor in = make_tensor(context, dims, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, dims, VX_TYPE_INT16, 8);
    vx_tensor steps[4];
    raw_t xv(n), step_values[4];
    for (std::size_t i = 0; i < n; ++i) xv[i] = static_cast<std::int64_t>(i) * 3 - 20;
    write_tensor(in, xv);
    for (int s = 0; s < 4; ++s) {
        steps[s] = make_tensor(context, dims, VX_TYPE_INT16, 8);
        step_values[s] = raw_t(n);
        for (std::size_t i = 0; i < n; ++i)
            step_values[s][i] = static_cast<std::int64_t>((s + 1) * 100 + static_cast<int>(i));
        write_tensor(steps[s], step_values[s]);
    }
    vx_graph graph = vxCreateGraph(context);
    vx_uint32 dims32[2] = {7, 3};
    // in + s0 -> v0, v0 + s1 -> v1, v1 + s2 -> v2, v2 + s3 -> out: v0 and v2 can share.
    vx_tensor v[3];
    for (vx_tensor& t : v) t = vxCreateVirtualTensor(graph, 2, dims32, VX_TYPE_INT16, 8);
    vx_node nodes[4];
    for (int s = 0; s < 4; ++s) {
        nodes[s] = vxTensorAddNode(graph, s == 0 ? in : v[s - 1], steps[s],
                                   VX_CONVERT_POLICY_SATURATE, s == 3 ? out : v[s]);
        REQUIRE(nodes[s] != nullptr);
    }
    raw_t expected(n);
    for (std::size_t i = 0; i < n; ++i)
        expected[i] =
            xv[i] + step_values[0][i] + step_values[1][i] + step_values[2][i] + step_values[3][i];
    process(graph);
    CHECK(plan_logged(context, "3 virtual tensors in 2 buffers (84 of 126 bytes)"));
    check_equal(read_tensor(out), expected, 0, "chain through shared memory");
    // Verified again (a parameter set): planned again, same results.
    context.clear_log();
    REQUIRE(vxSetParameterByIndex(nodes[3], 1, reinterpret_cast<vx_reference>(steps[3])) ==
            VX_SUCCESS);
    process(graph);
    CHECK(plan_logged(context, "3 virtual tensors in 2 buffers"));
    check_equal(read_tensor(out), expected, 0, "chain after verifying again");
    for (vx_node& node : nodes) vxReleaseNode(&node);
    vxReleaseGraph(&graph);
    for (vx_tensor& t : v) vxReleaseTensor(&t);
    for (vx_tensor& t : steps) vxReleaseTensor(&t);
    vxReleaseTensor(&in);
    vxReleaseTensor(&out);
}
