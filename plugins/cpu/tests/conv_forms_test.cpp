// conv_forms_test.cpp: conv2d forms the runtime's Conv2d does not take as they are run natively
// on the cpu plugin: a per-location bias [O, OH, OW] (the runtime's residual), PReLU and other
// activations the runtime lacks (applied after it) and ceil rounding.
#include "stored_values.hpp"

using namespace cpu_test;

TEST_CASE("conv2d with a per-location bias [O, OH, OW] is answered native, as with bias [O]") {
    load_cpu_plugin();
    const op_desc conv = op::conv2d().padding(1, 1, 1, 1).bias();
    const std::vector<tensor_desc> in{tensor_desc(shape::nchw(1, 3, 6, 5), dtype::f32),
                                      tensor_desc(shape{4, 3, 3, 3}, dtype::f32),
                                      tensor_desc(shape{4, 6, 5}, dtype::f32)};
    const std::vector<tensor_desc> out{
        tensor_desc(shape::nchw(1, 4, 6, 5), dtype::f32).with_layout(layout::any())};
    CHECK(backend::create("cpu").query(conv, in, out).level == TSR_SUPPORT_NATIVE);
    const std::vector<tensor_desc> per_channel{in[0], in[1], tensor_desc(shape{4}, dtype::f32)};
    CHECK(backend::create("cpu").query(conv, per_channel, out).level == TSR_SUPPORT_NATIVE);
}

TEST_CASE("conv2d with a per-location bias, PReLU or ceil rounding runs natively") {
    load_cpu_plugin();
    const tensor x = values(shape{2, 5, 9, 8}, 15);
    const tensor w = values(shape{20, 5, 3, 3}, 16, -0.5f, 0.5f);
    const tensor w_depthwise = values(shape{5, 1, 3, 3}, 17, -0.5f, 0.5f);
    SUBCASE("bias [O, OH, OW], relu") {
        op::conv2d conv;
        conv.padding(1, 1, 1, 1).bias().fuse(activation_kind::relu);
        check_near(conv, {x, w, values(shape{20, 9, 8}, 18)});
    }
    SUBCASE("bias [O, OH, OW], batchnorm") {
        op::conv2d conv;
        conv.padding(1, 1, 1, 1).bias().batchnorm(true, 1e-3f);
        check_near(
            conv,
            {x, w, values(shape{20, 9, 8}, 19), values(shape{20}, 20),
             values(shape{20}, 21, 0.5f, 2.0f), values(shape{20}, 22), values(shape{20}, 23)},
            3);
    }
    SUBCASE("depthwise, bias [O, OH, OW]") {
        op::conv2d conv;
        conv.depthwise().padding(1, 1, 1, 1).bias();
        check_near(conv, {x, w_depthwise, values(shape{5, 9, 8}, 24)});
    }
    SUBCASE("PReLU slope [O] and [1]") {
        op::conv2d conv;
        conv.padding(1, 1, 1, 1).bias().fuse(activation_kind::prelu);
        check_near(conv, {x, w, values(shape{20}, 25), values(shape{20}, 26, -0.5f, 0.5f)});
        check_near(conv, {x, w, values(shape{20}, 25), values(shape{1}, 27, -0.5f, 0.5f)});
    }
    SUBCASE("depthwise, PReLU") {
        op::conv2d conv;
        conv.depthwise().stride(2, 2).fuse(activation_kind::prelu);
        check_near(conv, {x, w_depthwise, values(shape{5}, 28, -0.5f, 0.5f)});
    }
    SUBCASE("ceil rounding") {
        op::conv2d conv;
        conv.stride(2, 2).padding(1, 0, 0, 1).rounding_mode(output_rounding::ceil);
        check_near(conv, {x, w});
        conv.bias().fuse(activation_kind::prelu);
        check_near(conv, {x, w, values(shape{20}, 29), values(shape{20}, 30, -0.5f, 0.5f)});
    }
}
