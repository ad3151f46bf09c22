// decline_test.cpp: what openvx declines, with the reason code the host branches on, and the
// option errors.
#include "openvx_plugin.hpp"

using namespace openvx_test;

TEST_CASE("ops the Neural Network extension lacks are declined as op kind") {
    // f32 under precision=q7.8, so that the op kind is the only reason
    const tensor_desc x(shape{2, 8}, dtype::f32);
    const std::vector<std::pair<op_desc, std::vector<tensor_desc>>> cases = {
        {op::matmul(), {x, tensor_desc(shape{8, 3}, dtype::f32)}},
        {op::unary(TSR_UNARY_EXP), {x}},
        {op::reshape({4, 4}), {x}},
    };
    for (const auto& c : cases) {
        const op_desc& o = c.first;
        CAPTURE(o.name());
        const auto s = query_op(o, c.second, "q7.8");
        CHECK_FALSE(s.supported());
        CHECK(s.reason == TSR_REASON_OP_KIND);
        CHECK(s.text.find("OpenVX") != std::string::npos);
    }
}

TEST_CASE("attributes without an exact OpenVX form are declined as attribute") {
    const tensor_desc x(shape{1, 4, 6, 6}, dtype::i16, layout::row_major(), q7_8);
    const tensor_desc w(shape{4, 4, 3, 3}, dtype::i16, layout::row_major(), q7_8);
    struct attribute_case {
        op_desc op;
        std::vector<tensor_desc> inputs;
        const char* says;
    };
    const std::vector<attribute_case> cases = {
        {op::conv2d().transposed(), {x, w}, "transposed"},
        {op::conv2d().dilation(2, 2), {x, w}, "dilation"},
        {op::conv2d().padding(1, 0, 1, 0), {x, w}, "both sides"},
        // in 6, kernel 3, stride 3: out 2, which OpenVX reaches with its smallest skip 2
        {op::conv2d().stride(3, 3), {x, w}, "derives the stride"},
        // max pooling with padding: OpenVX pads with zeros
        {op::pooling(TSR_POOL_MAX).kernel(3, 3).padding(1, 1, 1, 1), {x}, "pads with zeros"},
        // ceil rounding whose last window starts in the padding (in 5, pad 1, kernel 2, stride
        // 2: the fourth window starts at 6 = in + pad): Tessera drops it, OpenVX keeps it
        {op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING)
             .kernel(2, 2)
             .stride(2, 2)
             .padding(1, 1, 1, 1)
             .rounding_mode(TSR_OUTPUT_CEIL),
         {tensor_desc(shape{1, 4, 5, 5}, dtype::i16, layout::row_major(), q7_8)},
         "ceil"},
        {op::activation(TSR_ACT_GELU), {x}, "nine"},
        {op::activation(TSR_ACT_LINEAR, 0.5f, 0.0f), {x}, "integers"},
        {op::binary(TSR_BINARY_MAX), {x, x}, "add, subtract and multiply"},
        {op::softmax().along(0), {tensor_desc(shape{3, 4}, dtype::f32)}, "innermost"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.op.describe());
        const bool f32 = c.inputs[0].type() == dtype::f32;
        const auto s = query_op(c.op, c.inputs, f32 ? "q7.8" : "");
        CHECK_FALSE(s.supported());
        CHECK(s.reason == TSR_REASON_ATTRIBUTE);
        CHECK_MESSAGE(s.text.find(c.says) != std::string::npos, s.text);
    }
}

TEST_CASE("dtypes OpenVX does not hold are declined as dtype") {
    const tensor_desc q8(shape{1, 4, 6, 6}, dtype::i8, layout::row_major(), {0.5f, 3, 0});
    const auto s = query_op(op::activation(TSR_ACT_RELU), {q8});
    CHECK(s.reason == TSR_REASON_DTYPE);
    CHECK(s.text.find("scale 1") != std::string::npos);
    const tensor_desc x8(shape{1, 4, 6, 6}, dtype::i8);
    const tensor_desc w8(shape{4, 4, 3, 3}, dtype::i8);
    const auto c = query_op(op::conv2d(), {x8, w8});
    CHECK(c.reason == TSR_REASON_DTYPE);
    CHECK(query_op(op::activation(TSR_ACT_RELU), {x8}).level == TSR_SUPPORT_NATIVE);
    const auto f16 =
        query_op(op::activation(TSR_ACT_RELU), {tensor_desc(shape{4}, dtype::f16)}, "q7.8");
    CHECK(f16.reason == TSR_REASON_DTYPE);
}

TEST_CASE("unknown options and values are errors naming them") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{4}, dtype::f32));
    g.output(g.apply("relu", op::activation(TSR_ACT_RELU), {x}));
    for (const char* config : {"openvx:speed=fast", "openvx:precision=q15"}) {
        CAPTURE(config);
        bool threw = false;
        try {
            g.compile(config);
        } catch (const error& e) {
            threw = true;
            CHECK(e.code() == status::invalid_argument);
            const std::string what = e.what();
            CHECK(
                (what.find("speed") != std::string::npos || what.find("q15") != std::string::npos));
        }
        CHECK(threw);
    }
}
