// q78_test.cpp: i16 fixed point on openvx: hand-computed Q7.8 cases of the provisional contract
// (each product rounded and narrowed on its own, 64-bit accumulation, then the bias), and every
// op the plugin maps on random data, bit-identical to the reference backend (tolerance 0: the
// reference implements the same contract; see backends/openvx/README.md).
#include "openvx_plugin.hpp"

using namespace openvx_test;

namespace {

/// conv2d 1x1 kernel over [1, 2, 1, 1] ([N, C, H, W]): out = sum over the two channels.
std::vector<std::int16_t> conv_two_products(std::int16_t x0, std::int16_t x1, std::int16_t w0,
                                            std::int16_t w1, tsr_rounding rounding,
                                            tsr_overflow overflow,
                                            std::vector<std::int16_t> bias = {}) {
    op::conv2d c;
    c.policies(rounding, overflow);
    std::vector<tensor> in = {fixed(shape{1, 2, 1, 1}, {x0, x1}),
                              fixed(shape{1, 2, 1, 1}, {w0, w1})};
    if (!bias.empty()) {
        c.bias();
        in.push_back(fixed(shape{1}, bias));
    }
    return raw_of(check_exact(c, in).at(0));
}

}  // namespace

TEST_CASE("Q7.8 convolution rounds every product on its own") {
    // 3/256 * 0.5 = 1.5/256 per product: nearest even gives 2 units each (sum 4), to zero 1 each
    // (sum 2); a single rounding of the exact sum 3.0/256 would give 3 in both modes.
    CHECK(conv_two_products(3, 3, 128, 128, TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_SATURATE) ==
          std::vector<std::int16_t>{4});
    CHECK(conv_two_products(3, 3, 128, 128, TSR_ROUND_TO_ZERO, TSR_OVERFLOW_SATURATE) ==
          std::vector<std::int16_t>{2});
    // ties to even: 5 * 0.5 = 2.5 -> 2; 7 * 0.5 = 3.5 -> 4; negative -3 * 0.5 = -1.5 -> -2.
    CHECK(conv_two_products(5, 7, 128, 128, TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_SATURATE) ==
          std::vector<std::int16_t>{6});
    CHECK(conv_two_products(-3, 0, 128, 128, TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_SATURATE) ==
          std::vector<std::int16_t>{-2});
    CHECK(conv_two_products(-3, 0, 128, 128, TSR_ROUND_TO_ZERO, TSR_OVERFLOW_SATURATE) ==
          std::vector<std::int16_t>{-1});
}

TEST_CASE("Q7.8 convolution narrows every product, then the sum, with the overflow policy") {
    // 32767/256 * 2.0 = 65534 units: saturated to 32767, wrapped to -2; plus -256 * 2 = -512.
    CHECK(conv_two_products(32767, -256, 512, 512, TSR_ROUND_TO_NEAREST_EVEN,
                            TSR_OVERFLOW_SATURATE) == std::vector<std::int16_t>{32255});
    CHECK(conv_two_products(32767, -256, 512, 512, TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_WRAP) ==
          std::vector<std::int16_t>{-514});
    // The bias is added after the products: 32767 + 256 + 1000 saturates at the end.
    CHECK(conv_two_products(32767, 256, 256, 256, TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_SATURATE,
                            {1000}) == std::vector<std::int16_t>{32767});
    CHECK(conv_two_products(100, 256, 256, 256, TSR_ROUND_TO_NEAREST_EVEN, TSR_OVERFLOW_SATURATE,
                            {-1000}) == std::vector<std::int16_t>{-644});
}

TEST_CASE("Q7.8 fully connected: per-product rounding, then the bias") {
    op::fully_connected f;
    f.bias();
    // [1, 3] x [2, 3]^T: row 0 = 3*0.5 + 3*0.5 + 256*1 = 2 + 2 + 256 units, + bias 10;
    // row 1 = 3*(-0.5) * 2 + 0 = -2 - 2, + bias -10.
    const auto out = check_exact(
        f, {fixed(shape{1, 3}, {3, 3, 256}), fixed(shape{2, 3}, {128, 128, 256, -128, -128, 0}),
            fixed(shape{2}, {10, -10})});
    CHECK(raw_of(out.at(0)) == std::vector<std::int16_t>{270, -14});
}

TEST_CASE("Q7.8 conv2d forms match the reference bit for bit") {
    const tensor x = random_fixed(shape{2, 3, 9, 8}, 1, -600, 600);
    const tensor w = random_fixed(shape{4, 3, 3, 3}, 2, -200, 200);
    const tensor b = random_fixed(shape{4}, 3, -300, 300);
    for (auto rounding : {TSR_ROUND_TO_ZERO, TSR_ROUND_TO_NEAREST_EVEN})
        for (auto overflow : {TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE}) {
            CAPTURE(rounding);
            CAPTURE(overflow);
            op::conv2d c = op::conv2d().padding(1, 1, 1, 1).bias();
            c.policies(rounding, overflow);
            check_exact(c, {x, w, b}, {false, true, true});
            op::conv2d s = op::conv2d().stride(2, 2);
            s.policies(rounding, overflow);
            check_exact(s, {x, w});
        }
    // per-location bias [O, OH, OW], a fused relu and a fused bounded relu
    check_exact(op::conv2d().bias(), {x, w, random_fixed(shape{4, 7, 6}, 4, -300, 300)});
    check_exact(op::conv2d().padding(1, 1, 1, 1).fuse(TSR_ACT_RELU), {x, w});
    check_exact(op::conv2d().fuse(TSR_ACT_BOUNDED_RELU, 1.0f), {x, w});
    // grouped and depthwise convolution: one layer per group on views
    const tensor x4 = random_fixed(shape{2, 4, 7, 6}, 40, -600, 600);
    check_exact(op::conv2d().groups(2).padding(1, 1, 1, 1).bias(),
                {x4, random_fixed(shape{6, 2, 3, 3}, 41, -200, 200),
                 random_fixed(shape{6}, 42, -300, 300)});
    check_exact(op::conv2d().depthwise().padding(1, 1, 1, 1).bias().fuse(TSR_ACT_RELU6),
                {x4, random_fixed(shape{8, 1, 3, 3}, 43, -200, 200),
                 random_fixed(shape{8}, 44, -300, 300)});
    check_exact(op::conv2d().groups(4).bias(), {x4, random_fixed(shape{4, 1, 3, 3}, 45, -200, 200),
                                                random_fixed(shape{4, 5, 4}, 46, -300, 300)});
    // ceil rounding where OpenVX's last window is Tessera's
    check_exact(op::conv2d().stride(2, 2).rounding_mode(TSR_OUTPUT_CEIL), {x, w});
}

TEST_CASE("Q7.8 fully connected forms match the reference bit for bit") {
    const tensor x = random_fixed(shape{3, 2, 4, 5}, 5, -500, 500);
    for (int axis : {1, 2}) {
        CAPTURE(axis);
        std::int64_t inner = 1;
        for (int d = axis; d < 4; ++d) inner *= x.dims()[d];
        const tensor w = random_fixed(shape{6, inner}, 6, -100, 100);
        check_exact(op::fully_connected().flatten_from(axis).bias(),
                    {x, w, random_fixed(shape{6}, 7, -300, 300)});
        check_exact(op::fully_connected().flatten_from(axis).fuse(TSR_ACT_RELU), {x, w});
    }
}

TEST_CASE("Q7.8 pooling, activations, softmax-free pointwise ops match the reference") {
    const tensor x = random_fixed(shape{2, 3, 7, 6}, 8, -3000, 3000);
    check_exact(op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {x});
    check_exact(op::pooling(TSR_POOL_MAX).kernel(3, 3).stride(2, 2).rounding_mode(TSR_OUTPUT_CEIL),
                {x});
    check_exact(op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING).kernel(3, 3).padding(1, 1, 1, 1),
                {x});
    check_exact(op::pooling(TSR_POOL_AVERAGE_EXCLUDE_PADDING).kernel(2, 3).stride(1, 2), {x});
    check_exact(op::pooling(TSR_POOL_GLOBAL_AVERAGE), {x});
    check_exact(op::pooling(TSR_POOL_GLOBAL_MAX), {x});
    const std::vector<op::activation> acts = {op::activation(TSR_ACT_RELU),
                                              op::activation(TSR_ACT_RELU6),
                                              op::activation(TSR_ACT_BOUNDED_RELU, 3),
                                              op::activation(TSR_ACT_SIGMOID),
                                              op::activation(TSR_ACT_TANH, 1, 1),
                                              op::activation(TSR_ACT_TANH, 2, 2),
                                              op::activation(TSR_ACT_SOFT_RELU),
                                              op::activation(TSR_ACT_ABS),
                                              op::activation(TSR_ACT_SQUARE),
                                              op::activation(TSR_ACT_SQRT),
                                              op::activation(TSR_ACT_LINEAR, 2, -1)};
    for (const auto& a : acts) {
        CAPTURE(op_desc(a).describe());
        check_exact(a, {x});
    }
}

TEST_CASE("Q7.8 add, subtract and multiply with broadcasting match the reference") {
    const tensor a = random_fixed(shape{2, 3, 4, 5}, 9, -20000, 20000);
    const std::vector<tensor> others = {random_fixed(shape{2, 3, 4, 5}, 10, -20000, 20000),
                                        random_fixed(shape{1, 3, 1, 1}, 11, -20000, 20000),
                                        random_fixed(shape{5}, 12, -20000, 20000),
                                        random_fixed(shape{4, 1}, 13, -20000, 20000)};
    for (const auto& b : others)
        for (auto overflow : {TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE}) {
            CAPTURE(b.dims().to_string());
            CAPTURE(overflow);
            for (auto kind : {TSR_BINARY_ADD, TSR_BINARY_SUB}) {
                op::binary op(kind);
                op.set_overflow(overflow);
                check_exact(op, {a, b});
            }
            for (auto rounding : {TSR_ROUND_TO_ZERO, TSR_ROUND_TO_NEAREST_EVEN})
                for (float scale : {1.0f, 1.0f / 255.0f, 1.0f / 32768.0f}) {
                    op::binary m(TSR_BINARY_MUL);
                    m.set_overflow(overflow).set_rounding(rounding).set_alpha(scale);
                    check_exact(m, {a, b});
                }
        }
}

TEST_CASE("table lookup (i16 and u8) and transpose / permute are exact") {
    const tensor x = random_fixed(shape{3, 4, 5}, 14, -40, 40);
    check_exact(op::table_lookup(), {x, random_fixed(shape{64}, 15, -30000, 30000)});
    tensor u(tensor_desc(shape{2, 9}, dtype::u8));
    tensor lut(tensor_desc(shape{200}, dtype::u8));
    for (std::int64_t i = 0; i < u.num_elements(); ++i)
        u.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>(i * 29 % 256);
    for (std::int64_t i = 0; i < lut.num_elements(); ++i)
        lut.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>(255 - i);
    check_exact(op::table_lookup(), {u, lut});
    const tensor t = random_fixed(shape{2, 3, 4, 5}, 16, -30000, 30000);
    check_exact(op::transpose(), {t});
    check_exact(op::transpose(0, 2), {t});
    check_exact(op::permute({3, 1, 0, 2}), {t});
    check_exact(op::permute({0, 1, 2, 3}), {t});
}

TEST_CASE("a Q7.8 network runs as one vx_graph with virtual intermediates") {
    load_plugin();
    graph g;
    const tensor_desc in(shape{1, 2, 8, 8}, dtype::i16, layout::row_major(), q7_8);
    const auto x = g.input("x", in);
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1).bias(),
                     {x, g.constant("w", random_fixed(shape{4, 2, 3, 3}, 20, -100, 100)),
                      g.constant("b", random_fixed(shape{4}, 21, -50, 50))});
    t = g.apply("relu", op::activation(TSR_ACT_RELU), {t});
    t = g.apply("pool", op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {t});
    t = g.apply("fc", op::fully_connected().bias(),
                {t, g.constant("fw", random_fixed(shape{3, 64}, 22, -60, 60)),
                 g.constant("fb", random_fixed(shape{3}, 23, -50, 50))});
    g.output(t);
    const tensor image = random_fixed(shape{1, 2, 8, 8}, 24, -400, 400);
    compiled_graph on_vx = g.compile("openvx!");
    compiled_graph on_ref = g.compile("reference");
    INFO(on_vx.placement_report());
    REQUIRE(on_vx.partitions().size() == 1);
    REQUIRE(on_vx.partitions()[0].stats.has_value());
    CHECK(on_vx.partitions()[0].stats->nodes == 4);
    CHECK(on_vx.partitions()[0].stats->steps == 1);
    for (int run = 0; run < 2; ++run) {  // the verified graph runs again with the same answer
        const tensor got = on_vx.run({{"x", image}}).begin()->second;
        const tensor want = on_ref.run({{"x", image}}).begin()->second;
        CHECK(raw_of(got) == raw_of(want));
    }
}

TEST_CASE("i16 softmax and lrn: the reference computes what OpenVX computes") {
    // softmax of (0, 1): (1/(1+e), e/(1+e)) = (0.268941, 0.731059) -> 68.85 and 187.15 units.
    const auto s = check_exact(op::softmax(), {fixed(shape{1, 2}, {0, 256})});
    CHECK(raw_of(s.at(0)) == std::vector<std::int16_t>{69, 187});
    // across 3 channels, alpha 3 (scaled: 1 per element), beta 1, on x = (1, 2): both windows
    // hold 1 + 4 = 5, so y = x / 6 = (0.1667, 0.3333) -> 42.67 and 85.33 units.
    const auto l = check_exact(op::lrn().window(3).coefficients(3.0f, 1.0f),
                               {fixed(shape{1, 2, 1, 1}, {256, 512})});
    CHECK(raw_of(l.at(0)) == std::vector<std::int16_t>{43, 85});
    const tensor x = random_fixed(shape{2, 5, 4, 3}, 30, -1500, 1500);
    check_exact(op::lrn().window(5).coefficients(1e-2f, 0.75f), {x});
    check_exact(op::lrn().kind(TSR_LRN_WITHIN_CHANNEL).window(3).coefficients(1e-1f, 0.5f), {x});
    check_exact(op::softmax(), {x});
}

TEST_CASE("plain i8 and u8 tensors (scale 1, zero point 0) match the reference") {
    auto bytes = [](dtype t, const shape& dims, int seed) {
        tensor x(tensor_desc(dims, t));
        for (std::int64_t i = 0; i < x.num_elements(); ++i) {
            const int v = static_cast<int>((i * 73 + seed * 31) % 256);
            if (t == dtype::u8)
                x.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
            else
                x.data_as<std::int8_t>()[i] = static_cast<std::int8_t>(v - 128);
        }
        return x;
    };
    const tensor a = bytes(dtype::i8, shape{2, 3, 5, 4}, 1), b = bytes(dtype::i8, shape{4}, 2);
    for (auto act : {TSR_ACT_RELU, TSR_ACT_ABS, TSR_ACT_SQUARE, TSR_ACT_SIGMOID})
        check_exact(op::activation(act), {a});
    for (auto overflow : {TSR_OVERFLOW_WRAP, TSR_OVERFLOW_SATURATE})
        for (auto kind : {TSR_BINARY_ADD, TSR_BINARY_SUB, TSR_BINARY_MUL}) {
            CAPTURE(overflow);
            CAPTURE(kind);
            op::binary o(kind);
            o.set_overflow(overflow);
            check_exact(o, {a, b});
        }
    const tensor u = bytes(dtype::u8, shape{1, 2, 6, 6}, 3);
    check_exact(op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {u});
    check_exact(op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING).kernel(3, 3).padding(1, 1, 1, 1),
                {u});
    check_exact(op::permute({0, 3, 2, 1}), {u});
}
