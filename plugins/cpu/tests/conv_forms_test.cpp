// conv_forms_test.cpp: conv2d forms the runtime's Conv2d does not take as they are run natively
// on the cpu plugin: a per-location bias [O, OH, OW] (the runtime's residual), PReLU and other
// activations the runtime lacks (applied after it), ceil rounding, and i16 fixed point (the
// plugin's integer loops with OpenVX per-product rounding: byte for byte the reference's).
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

TEST_CASE("i16 fixed-point conv2d rounds every product on its own, as OpenVX does") {
    load_cpu_plugin();
    // Q8 x Q8 -> Q8: 3/256 * 0.5 is 1.5 units, rounded to 2 (nearest even) or 1 (toward zero)
    // before the two taps are added.
    const quantization q8{1.0f, 0, 8};
    const tensor x = stored_tensor(shape{1, 1, 1, 2}, dtype::i16, q8, {3, 3});
    const tensor w = stored_tensor(shape{1, 1, 1, 2}, dtype::i16, q8, {128, 128});
    op::conv2d conv;
    check_stored(run_native(conv, {x, w}).first.at(0), {4});
    conv.policies(rounding_policy::to_zero, overflow_policy::saturate);
    check_stored(run_native(conv, {x, w}).first.at(0), {2});
}

TEST_CASE("i16 fixed-point conv2d matches the reference exactly") {
    load_cpu_plugin();
    const quantization q8{1.0f, 0, 8};
    const tensor x = grid(shape{2, 4, 7, 6}, dtype::i16, 31, -3000.0, 97.0, 61, q8);
    const tensor w = grid(shape{6, 4, 3, 3}, dtype::i16, 32, -128.0, 5.0, 51, q8);
    const tensor w_grouped = grid(shape{6, 2, 3, 2}, dtype::i16, 33, -128.0, 5.0, 51, q8);
    const tensor bias = grid(shape{6}, dtype::i16, 34, -512.0, 17.0, 61, {1.0f, 0, 6});
    const tensor location_bias = grid(shape{6, 7, 6}, dtype::i32, 35, -900.0, 31.0, 61);
    for (const auto overflow : {overflow_policy::saturate, overflow_policy::wrap}) {
        op::conv2d conv;
        conv.padding(1, 1, 1, 1).bias().policies(rounding_policy::to_nearest_even, overflow);
        check_exact(conv, {x, w, bias});
        check_exact(conv, {x, w, location_bias});
        op::conv2d grouped;
        grouped.groups(2)
            .stride(2, 1)
            .dilation(1, 2)
            .padding(0, 1, 1, 0)
            .bias()
            .fuse(activation_kind::relu);
        check_exact(grouped, {x, w_grouped, bias});
        op::conv2d prelu;
        prelu.fuse(activation_kind::prelu).policies(rounding_policy::to_zero, overflow);
        check_exact(prelu, {x, w, grid(shape{6}, dtype::f32, 36, -0.5, 0.125, 9)});
    }
}
