// test_declines.cpp: what myriad declines, with the reason code the host branches on, and the
// errors of a bad config.
#include "myriad_plugin.hpp"

using namespace myriad_test;

TEST_CASE("ops without a Myriad layer form are declined as op kind") {
    const tensor_desc x(shape{1, 4, 6, 6}, dtype::f32);
    const auto pool = query_op(op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {x});
    CHECK_FALSE(pool.supported());
    CHECK(pool.reason == TSR_REASON_OP_KIND);
    CHECK(pool.text.find("pooling") != std::string::npos);
    const auto unknown = query_op(op::custom("NoSuchLayer"), {x});
    CHECK(unknown.reason == TSR_REASON_OP_KIND);
    CHECK(unknown.text.find("NoSuchLayer") != std::string::npos);
    const auto sigmoid = query_op(op::activation(TSR_ACT_SIGMOID), {x});
    CHECK(sigmoid.reason == TSR_REASON_OP_KIND);  // no binding for Sigmoid
}

TEST_CASE("attributes no binding serves are declined as attribute") {
    const tensor_desc x(shape{1, 4, 6, 6}, dtype::f32);
    const tensor_desc w3(shape{4, 4, 3, 3}, dtype::f32);
    struct attribute_case {
        op_desc op;
        std::vector<tensor_desc> inputs;
    };
    const std::vector<attribute_case> cases = {
        {op::conv2d().padding(1, 1, 1, 1).stride(2, 2), {x, w3}},  // no stride-2 binding
        {op::conv2d().padding(1, 1, 1, 1).groups(2),
         {x, tensor_desc(shape{4, 2, 3, 3}, dtype::f32)}},
        {op::conv2d().padding(1, 1, 1, 1).fuse(TSR_ACT_RELU), {x, w3}},
        {op::conv2d().padding(1, 1, 1, 1).bias(), {x, w3, tensor_desc(shape{4}, dtype::f32)}},
        {op::custom("GRN").add_source_text("__kernel void k() {}", "k"), {x}},
        {op::custom("ShuffleChannels").set_attribute("axis", "2").set_attribute("group", "2"), {x}},
        {op::custom("GRN"), {x}},  // no bias parameter: the binding's Scalar cannot be bound
        {op::binary(TSR_BINARY_ADD).set_beta(0.5f), {x, x}},
    };
    for (const auto& c : cases) {
        CAPTURE(c.op.describe());
        const auto s = query_op(c.op, c.inputs);
        CHECK_FALSE(s.supported());
        CHECK(s.reason == TSR_REASON_ATTRIBUTE);
        CHECK_FALSE(s.text.empty());
    }
}

TEST_CASE("unsupported dtypes and ranks") {
    const auto bf16 = query_op(op::custom("GRN").set_attribute("bias", "1"),
                               {tensor_desc(shape{1, 4, 4, 4}, dtype::bf16)});
    CHECK(bf16.reason == TSR_REASON_DTYPE);
    const auto broadcast =
        query_op(op::binary(TSR_BINARY_ADD),
                 {tensor_desc(shape{1, 4, 4, 4}, dtype::f32), tensor_desc(shape{4}, dtype::f32)});
    CHECK(broadcast.reason == TSR_REASON_SHAPE);
    const auto rank5 = query_op(op::custom("GRN").set_attribute("bias", "1"),
                                {tensor_desc(shape{1, 2, 4, 4, 4}, dtype::f32)});
    CHECK(rank5.reason == TSR_REASON_SHAPE);
}

TEST_CASE("accepted ops name the binding and the precision that runs") {
    const auto s = query_op(op::custom("GRN").set_attribute("bias", "1"),
                            {tensor_desc(shape{1, 4, 4, 4}, dtype::f32)});
    REQUIRE(s.supported());
    CHECK(s.level == TSR_SUPPORT_NATIVE);
    CHECK(s.text.find("grn.xml") != std::string::npos);
    CHECK((s.text.find("fp16") != std::string::npos ||
           s.text.find("half promoted to float") != std::string::npos));
}

TEST_CASE("a bad config is an error naming the file or option") {
    load_plugins();
    auto create = [](const std::string& key, const std::string& value) {
        backend_request r;
        r.name = "myriad";
        r.options = {{key, value}};
        return backend::create(r);
    };
    CHECK_THROWS_WITH_AS(create("config", "/nonexistent/customLayers.xml"),
                         doctest::Contains("customLayers.xml"), error);
    const std::string broken = write_file("broken", "bad.xml", "<CustomLayer name=\"X\"");
    CHECK_THROWS_WITH_AS(create("config", broken), doctest::Contains("bad.xml"), error);
    CHECK_THROWS_WITH_AS(create("device", "x"), doctest::Contains("device=x"), error);
    CHECK_THROWS_WITH_AS(create("device", "999"), doctest::Contains("OpenCL device 999 not found"),
                         error);
    CHECK_THROWS_WITH_AS(create("speed", "1"), doctest::Contains("unknown option 'speed'"), error);
    CHECK_THROWS_WITH_AS(create("config", "a.xml;"), doctest::Contains("empty file name"), error);
}
