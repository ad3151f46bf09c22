// stem_conv_test.cpp: a convolution of few input channels over an image (a network's RGB or grey
// stem) reads its input row-major as nchw instead of padding 3 channels to a block of 16, alone
// and heading a fused chain, and matches the reference; wider and 1x1-image convolutions keep
// asking for nchw16c.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

op_support query_conv(int channels, int size) {
    const std::vector<tensor_desc> in{tensor_desc(shape::nchw(1, channels, size, size), dtype::f32),
                                      tensor_desc(shape{24, channels, 3, 3}, dtype::f32)};
    const std::vector<tensor_desc> out{
        tensor_desc(shape::nchw(1, 24, size, size), dtype::f32).with_layout(layout::any())};
    return backend::create("cpu").query(op::conv2d().padding(1, 1, 1, 1), in, out);
}

}  // namespace

TEST_CASE("a 3-channel stem convolution asks for its input row-major, wider ones nchw16c") {
    load_cpu_plugin();
    const op_support stem = query_conv(3, 12);
    REQUIRE(stem.level == TSR_SUPPORT_NATIVE);
    CHECK(stem.inputs.at(0).is_row_major());
    CHECK(stem.outputs.at(0).is_opaque());  // nchw16c
    CHECK(query_conv(16, 12).inputs.at(0).is_opaque());
    CHECK(query_conv(3, 1).inputs.at(0).is_opaque());  // a squeeze-excite style 1x1 image
}

TEST_CASE("stem convolutions reading nchw match the reference, alone and fused") {
    load_cpu_plugin();
    struct form {
        const char* name;
        int channels, stride, dilation, pad_top, pad_left;
        bool fused, batchnorm;
    };
    const form forms[] = {
        {"3 channels, stride 2, bias", 3, 2, 1, 1, 1, false, false},
        {"3 channels, stride 2, bias, relu6 fused", 3, 2, 1, 1, 1, true, false},
        {"1 channel, dilation 2, uneven padding, batchnorm and relu6 fused", 1, 1, 2, 2, 0, true,
         true},
        {"15 channels, stride 1", 15, 1, 1, 1, 1, false, false},
    };
    for (const form& f : forms) {
        CAPTURE(f.name);
        const shape image = shape::nchw(2, f.channels, 17, 14);
        const auto build = [&](graph& g) {
            const auto x = g.input("x", tensor_desc(image, dtype::f32));
            const auto conv = op::conv2d()
                                  .padding(f.pad_top, 1, f.pad_left, 1)
                                  .stride(f.stride, f.stride)
                                  .dilation(f.dilation, f.dilation)
                                  .bias();
            auto t =
                g.apply("stem", conv,
                        {x, g.constant("w", values(shape{20, f.channels, 3, 3}, 110, -0.4f, 0.4f)),
                         g.constant("b", values(shape{20}, 111, -0.1f, 0.1f))});
            if (f.batchnorm)
                t = g.apply("bn", op::batchnorm(),
                            {t, g.constant("mean", values(shape{20}, 113, -0.2f, 0.2f)),
                             g.constant("var", values(shape{20}, 114, 0.5f, 1.5f)),
                             g.constant("scale", values(shape{20}, 115, 0.5f, 1.5f)),
                             g.constant("shift", values(shape{20}, 116, -0.1f, 0.1f))});
            if (f.fused) t = g.apply("relu6", op::activation(TSR_ACT_RELU6), {t});
            g.output(t);
        };
        graph g, r;
        build(g);
        build(r);
        auto cg = g.compile("cpu");
        auto ref = r.compile("reference");
        const tensor x = values(image, 112, -2.0f, 2.0f);
        const auto want = ref.run({{"x", x}}).begin()->second;
        for (int run = 0; run < 2; ++run)
            check_close(cg.run({{"x", x}}).begin()->second, want, {1e-5, 0.0, 1e-5});
    }
}

TEST_CASE("a one-channel-in, one-channel-out convolution (run as depthwise) matches the reference") {
    load_cpu_plugin();
    const shape image = shape::nchw(1, 1, 5, 5);
    const auto build = [&](graph& g) {
        const auto x = g.input("x", tensor_desc(image, dtype::f32));
        g.output(g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                         {x, g.constant("w", values(shape{1, 1, 3, 3}, 120, -1.0f, 1.0f))}));
    };
    graph g, r;
    build(g);
    build(r);
    auto cg = g.compile("cpu!");
    auto ref = r.compile("reference");
    const tensor x = values(image, 121, -2.0f, 2.0f);
    check_close(cg.run({{"x", x}}).begin()->second, ref.run({{"x", x}}).begin()->second,
                {1e-5, 0.0, 1e-5});
}
