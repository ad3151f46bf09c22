// ops_test.cpp: each op on the cpu backend against the reference backend, on odd shapes with
// strides, padding, dilation, groups and batch > 1.
#include "test_support.hpp"

using namespace cpu_test;

namespace {

void compare(const op_desc& op, const std::vector<tensor>& in, const char* expected_backend,
             float tol = 1e-4f) {
    load_cpu_plugin();
    std::string where;
    const auto got = run_op(op, in, "cpu", &where);
    CHECK(where == expected_backend);
    const auto want = reference::execute(op, in);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) check_close(got[i], want[i], tol, tol);
}

}  // namespace

TEST_CASE("conv2d: dense, strided, dilated, grouped, depthwise, fused bias/batchnorm/activation") {
    struct conv_case {
        std::int64_t n, c, h, w, o, kh, kw;
        op::conv2d op;
    };
    const conv_case cases[] = {
        {1, 3, 9, 11, 16, 3, 3, op::conv2d().padding(1, 1, 1, 1).bias()},
        {2, 5, 10, 7, 7, 3, 3,
         op::conv2d().stride(2, 2).padding(1, 0, 1, 2).bias().fuse(TSR_ACT_RELU)},
        {1, 8, 12, 12, 12, 3, 3, op::conv2d().dilation(2, 2).padding(2, 2, 2, 2).groups(4)},
        {1, 17, 6, 9, 40, 1, 1, op::conv2d().bias().fuse(TSR_ACT_RELU6)},
        {2, 16, 8, 8, 16, 3, 3, op::conv2d().padding(1, 1, 1, 1).groups(16).bias()},
        {1, 20, 7, 5, 24, 3, 3,
         op::conv2d().padding(1, 1, 1, 1).batchnorm(true, 1e-3f).fuse(TSR_ACT_CLIP, -0.5f, 0.75f)},
        {1, 3, 13, 13, 8, 7, 7, op::conv2d().stride(2, 2).padding(3, 3, 3, 3)},
    };
    int seed = 1;
    for (const auto& c : cases) {
        CAPTURE(c.c);
        CAPTURE(c.o);
        const std::int64_t group_in = c.c / c.op.tsr_conv2d_params::groups;
        std::vector<tensor> in{data(shape::nchw(c.n, c.c, c.h, c.w), seed++),
                               data(shape{c.o, group_in, c.kh, c.kw}, seed++, 0.3f)};
        if (c.op.has_bias) in.push_back(data(shape{c.o}, seed++, 0.1f));
        if (c.op.fuse_batchnorm) {
            in.push_back(data(shape{c.o}, seed++, 0.1f));
            in.push_back(data(shape{c.o}, seed++, 0.2f, 1.0f));
            in.push_back(data(shape{c.o}, seed++, 0.2f, 1.0f));
            in.push_back(data(shape{c.o}, seed++, 0.1f));
        }
        compare(c.op, in, "cpu");
    }
}

TEST_CASE("pooling: max, average with and without padding, global") {
    const tensor x = data(shape::nchw(2, 19, 11, 9), 3);
    compare(op::pooling(TSR_POOL_MAX).kernel(3, 3).stride(2, 2).padding(1, 1, 1, 1), {x}, "cpu");
    compare(
        op::pooling(TSR_POOL_AVERAGE_EXCLUDE_PADDING).kernel(3, 3).stride(1, 1).padding(1, 1, 1, 1),
        {x}, "cpu");
    compare(
        op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING).kernel(2, 3).stride(2, 1).padding(0, 1, 1, 0),
        {x}, "cpu");
    compare(op::pooling(TSR_POOL_GLOBAL_AVERAGE), {x}, "cpu");
    compare(op::pooling(TSR_POOL_GLOBAL_MAX), {x}, "cpu");
}

TEST_CASE("activations, element-wise, batchnorm") {
    const tensor x = data(shape::nchw(2, 21, 5, 7), 4, 2.0f);
    for (auto k : {TSR_ACT_RELU, TSR_ACT_RELU6, TSR_ACT_TANH, TSR_ACT_SIGMOID, TSR_ACT_ELU,
                   TSR_ACT_GELU, TSR_ACT_SOFT_RELU, TSR_ACT_ABS})
        compare(op::activation(k, 1.0f, 1.0f), {x}, "cpu");
    compare(op::activation(TSR_ACT_LEAKY_RELU, 0.1f), {x}, "cpu");
    const tensor y = data(shape::nchw(2, 21, 5, 7), 5, 1.0f, 2.5f);
    for (auto o : {TSR_BINARY_ADD, TSR_BINARY_SUB, TSR_BINARY_MUL, TSR_BINARY_DIV, TSR_BINARY_MIN,
                   TSR_BINARY_MAX})
        compare(op::binary(o), {x, y}, "cpu");
    compare(op::batchnorm(),
            {x, data(shape{21}, 6, 0.1f), data(shape{21}, 7, 0.2f, 1.0f),
             data(shape{21}, 8, 0.2f, 1.0f), data(shape{21}, 9)},
            "cpu");
}

TEST_CASE("activations with a clipping value clip on cpu as on the reference") {
    // The runtime's activations have no clipping value: min(f(x), clip) runs on the reference
    // kernels inside the plugin (found by the graph fuzzer: relu with a clip was left unclipped).
    const tensor x = data(shape::nchw(2, 21, 5, 7), 4, 2.0f);
    compare(op::activation(TSR_ACT_RELU, 0.0f).set_clipping_value(0.5f), {x}, "cpu");
    compare(op::activation(TSR_ACT_LEAKY_RELU, 0.1f).set_clipping_value(1.25f), {x}, "cpu");
    compare(op::activation(TSR_ACT_RELU, 0.0f).set_clipping_value(0.5f),
            {data(shape{3, 17}, 5, 2.0f)}, "cpu");
}

TEST_CASE("fully connected, gemm, softmax on row-major tensors") {
    compare(op::fully_connected().bias(),
            {data(shape{3, 37}, 10), data(shape{11, 37}, 11, 0.2f), data(shape{11}, 12)}, "cpu");
    compare(op::fully_connected().flatten_from(1),
            {data(shape::nchw(2, 4, 3, 3), 13), data(shape{5, 36}, 14, 0.2f)}, "cpu");
    compare(op::gemm(), {data(shape{17, 23}, 15), data(shape{23, 9}, 16), data(shape{17, 9}, 17)},
            "cpu");
    compare(op::softmax(), {data(shape{4, 33}, 18, 3.0f)}, "cpu");
}

TEST_CASE("softmax and log-softmax with beta scale the input on cpu as on the reference") {
    // Found by the graph fuzzer: the plugin configured the runtime's softmax with beta 1.
    const tensor x = data(shape{5, 29}, 30, 3.0f);
    compare(op::softmax().scaled_by(2.5f), {x}, "cpu");
    compare(op::softmax().scaled_by(0.25f).logarithmic(), {x}, "cpu");
}

TEST_CASE("gemm with C [N] broadcast over every row, plain and scaled") {
    const tensor a = data(shape{19, 23}, 21), b = data(shape{23, 13}, 22);
    const tensor row = data(shape{13}, 23, 1.0f, 0.5f);
    compare(op::gemm(), {a, b, row}, "cpu");                     // bias in the kernel epilogue
    compare(op::gemm().scales(2.0f, 0.5f), {a, b, row}, "cpu");  // repeated into D, scaled
    compare(op::gemm().transpose(true, true),
            {data(shape{23, 19}, 24), data(shape{13, 23}, 25), row}, "cpu");
    compare(op::gemm().scales(1.0f, 0.0f), {a, b, row}, "cpu");  // beta 0: C ignored
}

TEST_CASE("conv2d with a per-location bias [O, OH, OW] runs, through the reference kernel") {
    const tensor x = data(shape::nchw(1, 3, 6, 5), 26);
    compare(op::conv2d().padding(1, 1, 1, 1).bias(),
            {x, data(shape{4, 3, 3, 3}, 27, 0.3f), data(shape{4, 6, 5}, 28)}, "cpu");
    load_cpu_plugin();
    const op_support s = backend::create("cpu").query(
        op::conv2d().padding(1, 1, 1, 1).bias(),
        {x.desc(), tensor_desc(shape{4, 3, 3, 3}, dtype::f32),
         tensor_desc(shape{4, 6, 5}, dtype::f32)},
        {tensor_desc(shape::nchw(1, 4, 6, 5), dtype::f32).with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_EMULATED);
}

TEST_CASE("ops the runtime lacks run through the plugin's reference kernels") {
    compare(op::unary(TSR_UNARY_EXP), {data(shape{3, 5}, 19)}, "cpu");
    compare(op::softmax().along(0), {data(shape{6, 4}, 20)}, "cpu");
    load_cpu_plugin();
    backend b = backend::create("cpu");
    const tensor_desc d(shape{3, 5}, dtype::f32);
    const op_support s = b.query(op::unary(TSR_UNARY_EXP), {d}, {d.with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_EMULATED);
    CHECK(s.text.find("reference kernel") == 0);
}
