// test_declines.cpp: what qcom-ml declines, with the reason code the host branches on, and the
// fallback along "qcom-ml|reference" that records it.
#include "qcom_ml_plugin.hpp"

using namespace qcom_test;

TEST_CASE("ops CLML lacks are declined as op kind") {
    const auto s =
        query_op(op::unary(unary_kind::exp), {tensor_desc(shape{1, 4, 4, 4}, dtype::f32)});
    CHECK_FALSE(s.supported());
    CHECK(s.reason == TSR_REASON_OP_KIND);
    CHECK(s.text.find("unary") != std::string::npos);
}

TEST_CASE("attributes without an exact CLML form are declined as attribute") {
    const tensor_desc x(shape{1, 4, 6, 6}, dtype::f32);
    struct attribute_case {
        op_desc op;
        std::vector<tensor_desc> inputs;
    };
    const std::vector<attribute_case> cases = {
        {op::activation(activation_kind::soft_relu), {x}},
        {op::activation(activation_kind::gelu), {x}},
        {op::activation(activation_kind::tanh, 2.0f, 1.0f), {x}},
        {op::softmax().along(1).logarithmic(), {x}},
        {op::depth_to_space(2, depth_to_space_kind::crd), {x}},
        {op::binary(binary_kind::add).set_gamma(1.0f), {x, x, x}},
        {op::pad().set_pads({0, 1, 0, 0}, {0, 0, 0, 0}), {x}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.op.name());
        const auto s = query_op(c.op, c.inputs);
        CHECK_FALSE(s.supported());
        CHECK(s.reason == TSR_REASON_ATTRIBUTE);
        CHECK_FALSE(s.text.empty());
    }
}

TEST_CASE("unsupported dtypes and shapes") {
    const auto s =
        query_op(op::activation(activation_kind::relu),
                 {tensor_desc(shape{1, 4, 4, 4}, dtype::i8, layout::row_major(), {0.1f, 0, 0})});
    CHECK(s.reason == TSR_REASON_DTYPE);
    const auto r = query_op(op::binary(binary_kind::add), {tensor_desc(shape{2, 3, 4}, dtype::f32),
                                                           tensor_desc(shape{4}, dtype::f32)});
    CHECK(r.reason == TSR_REASON_SHAPE);
}

TEST_CASE("declined ops fall back to the reference with the reason recorded") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{1, 4, 8, 8}, dtype::f32));
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                     {x, g.constant("w", values({4, 4, 3, 3}, 1))});
    t = g.apply("exp", op::unary(unary_kind::exp), {t});
    t = g.apply("clip", op::activation(activation_kind::soft_relu), {t});
    t = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {t});
    g.output(t);
    compiled_graph cg = g.compile("qcom-ml|reference");
    const auto& p = cg.placements();
    REQUIRE(p.size() == 4);
    CHECK(p[0].backend == "qcom-ml");
    CHECK(p[1].backend == "reference");
    REQUIRE(p[1].declined.size() == 1);
    CHECK(p[1].declined[0].find("qcom-ml: ") == 0);
    CHECK(p[1].declined[0].find("(op kind)") != std::string::npos);
    CHECK(p[2].backend == "reference");
    CHECK(p[2].declined[0].find("(attribute)") != std::string::npos);
    CHECK(p[3].backend == "qcom-ml");
    const tensor in = values({1, 4, 8, 8}, 2);
    compiled_graph ref = g.compile("reference");
    CHECK(max_rel_diff(cg.run({{"x", in}}).at("pool"), ref.run({{"x", in}}).at("pool")) <= 1e-5);
}

TEST_CASE("PReLU: a slope varying along an axis other than the channel is declined") {
    const tensor_desc src(shape{2, 3, 4, 3}, dtype::f32);
    const op::activation prelu(activation_kind::prelu);
    // [1, 1, 1, W] with W == C: CLML would read it as one slope per channel.
    const op_support per_column =
        query_op(prelu, {src, tensor_desc(shape{1, 1, 1, 3}, dtype::f32)});
    CHECK(per_column.level == TSR_SUPPORT_NONE);
    CHECK(per_column.reason == TSR_REASON_SHAPE);
    CHECK(query_op(prelu, {src, tensor_desc(shape{1, 3}, dtype::f32)}).level == TSR_SUPPORT_NONE);
    // Per-channel slopes in any admitted spelling stay mapped, and compute right.
    CHECK(query_op(prelu, {src, tensor_desc(shape{1, 3, 1, 1}, dtype::f32)}).supported());
    CHECK(query_op(prelu, {src, tensor_desc(shape{3, 1, 1}, dtype::f32)}).supported());
    check_op(prelu, {values(src.dims(), 1), values(shape{1, 3, 1, 1}, 2)});
}
