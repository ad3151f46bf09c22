// graph_test.cpp: the zaiu backend as the host sees it: devices, layout choices and sizes,
// declines with reason codes, and graphs compiled with "zaiu|reference" (stick layouts kept
// between consecutive zaiu ops, fallbacks around declined ops, strict failures).
#include "zaiu_plugin.hpp"

using namespace zaiu_test;

namespace {

backend zaiu_backend() {
    return backend(plugin_registry::instance().find("zaiu"));
}

op_support ask(const op_desc& op, const std::vector<tensor_desc>& inputs) {
    const auto outs = op.infer(inputs);
    std::vector<tensor_desc> any;
    for (const auto& d : outs) any.push_back(d.with_layout(layout::any()));
    return zaiu_backend().query(op, inputs, any, "node");
}

int count_of(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("one emulator device naming the zDNN level") {
    const auto devices = zaiu_backend().devices();
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].kind == "emulator");
    CHECK(devices[0].details.find("zDNN 1.2.0") != std::string::npos);
    CHECK(devices[0].details.find("NNPA installed") != std::string::npos);
}

TEST_CASE("outputs get stick layouts sized as zDNN transformed buffers") {
    // NHWC (1,2,33,65) takes 8 pages (zdnn-facts): logical NCHW [1,65,2,33].
    const tensor_desc x(shape::nchw(1, 65, 2, 33), dtype::f32);
    const op_support s = ask(op::activation(activation_kind::relu), {x});
    REQUIRE(s.supported());
    CHECK(s.outputs[0].is_opaque());
    CHECK(s.outputs[0].opaque_backend() == "zaiu");
    CHECK(s.outputs[0].opaque_format() == "4DFEATURE-NHWC");
    CHECK(s.outputs[0].size_bytes() == 32768);
    CHECK(s.inputs[0].opaque_format() == "4DFEATURE-NHWC");
    // Conv weights [O,C,KH,KW] go to 4DKERNEL HWCK: (3,3,33,65) = 147456 bytes.
    const op_support c = ask(op::conv2d().padding(padding_kind::same),
                             {tensor_desc(shape::nchw(1, 33, 8, 8), dtype::f32),
                              tensor_desc(shape{65, 33, 3, 3}, dtype::f32)});
    REQUIRE(c.supported());
    CHECK(c.inputs[1].opaque_format() == "4DKERNEL-HWCK");
    CHECK(c.inputs[1].size_bytes() == 147456);
}

TEST_CASE("declines carry reason codes") {
    const tensor_desc x(shape::nchw(1, 4, 8, 8), dtype::f32);
    auto reason = [](const op_support& s) { return s.supported() ? TSR_REASON_NONE : s.reason; };
    CHECK(reason(ask(op::binary(binary_kind::add),
                     {x, tensor_desc(shape{1, 4, 1, 1}, dtype::f32)})) == TSR_REASON_SHAPE);
    CHECK(reason(ask(op::binary(binary_kind::add).set_alpha(2.0f), {x, x})) ==
          TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::conv2d().padding(1, 1, 1, 1).groups(4),
                     {x, tensor_desc(shape{4, 1, 3, 3}, dtype::f32)})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::conv2d().dilation(2, 2),
                     {x, tensor_desc(shape{4, 4, 3, 3}, dtype::f32)})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::conv2d().padding(2, 0, 0, 0),
                     {x, tensor_desc(shape{4, 4, 3, 3}, dtype::f32)})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::conv2d().transposed(), {x, tensor_desc(shape{4, 4, 3, 3}, dtype::f32)})) ==
          TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(
              op::pooling(pooling_kind::average_include_padding).kernel(3, 3).padding(1, 1, 1, 1),
              {x})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::pooling(pooling_kind::max).kernel(3, 3).padding(1, 0, 1, 0), {x})) ==
          TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::unary(unary_kind::abs), {x})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::activation(activation_kind::elu, 1.0f), {x})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::activation(activation_kind::gelu), {x})) ==
          TSR_REASON_ATTRIBUTE);  // erf form
    CHECK(reason(ask(op::reduce(reduce_kind::sum), {x})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::softmax().along(1), {x})) == TSR_REASON_ATTRIBUTE);
    CHECK(reason(ask(op::transpose(), {x})) == TSR_REASON_OP_KIND);
    CHECK(reason(ask(op::activation(activation_kind::relu),
                     {x.with_type(dtype::i8, {0.5f, 0, 0})})) == TSR_REASON_DTYPE);
    const op_support s =
        ask(op::binary(binary_kind::add), {x, tensor_desc(shape{1, 4, 1, 1}, dtype::f32)});
    CHECK(s.text.find("broadcast") != std::string::npos);
}

TEST_CASE("consecutive zaiu ops keep the sticks, results match the reference") {
    graph g;
    const tensor image = values(shape::nchw(1, 3, 13, 17), 70, -1, 1);
    const auto x = g.input("x", image.desc());
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1).bias(),
                     {x, g.constant("w", values(shape{6, 3, 3, 3}, 71, -0.5f, 0.5f)),
                      g.constant("b", values(shape{6}, 72, -0.2f, 0.2f))});
    t = g.apply("bn", op::batchnorm(),
                {t, g.constant("m", values(shape{6}, 73, -0.1f, 0.1f)),
                 g.constant("v", values(shape{6}, 74, 0.5f, 1.5f))});
    t = g.apply("relu", op::activation(activation_kind::relu), {t});
    t = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {t});
    t = g.apply("fc", op::fully_connected().bias(),
                {t, g.constant("fw", values(shape{10, 6 * 6 * 8}, 75, -0.1f, 0.1f)),
                 g.constant("fb", values(shape{10}, 76, -0.1f, 0.1f))});
    t = g.apply("softmax", op::softmax(), {t});
    g.output(t);

    compiled_graph ref = g.compile("reference");
    compiled_graph z = g.compile("zaiu|reference");
    const std::string report = z.placement_report();
    CAPTURE(report);
    CHECK(count_of(report, "-> zaiu") >= 6);
    CHECK(count_of(report, "-> reference") == 0);
    CHECK(count_of(report, "transfer") == 0);
    CHECK(count_of(report, "[reorder] -> zaiu (inserted)") ==
          1);  // NHWC sticks -> [N, C*H*W] rows for the fc
    const tensor expected = ref.run({{"x", image}}).at("softmax");
    const tensor actual = z.run({{"x", image}}).at("softmax");
    check_close(actual, expected, tolerance_of("zaiu"), 8, "6-op chain");
}

TEST_CASE("declined ops fall back with the reason in the report") {
    graph g;
    const tensor image = values(shape::nchw(1, 4, 9, 9), 80, -1, 1);
    const auto x = g.input("x", image.desc());
    auto t = g.apply("relu", op::activation(activation_kind::relu), {x});
    t = g.apply("dw", op::conv2d().padding(1, 1, 1, 1).groups(4),
                {t, g.constant("w", values(shape{4, 1, 3, 3}, 81, -0.5f, 0.5f))});
    t = g.apply("sig", op::activation(activation_kind::sigmoid), {t});
    t = g.apply("abs", op::unary(unary_kind::abs), {t});
    g.output(t);
    compiled_graph z = g.compile("zaiu|reference");
    const std::string report = z.placement_report();
    CAPTURE(report);
    CHECK(report.find("dw [conv2d] -> reference") != std::string::npos);
    CHECK(report.find("declined by zaiu: zDNN conv2d has no groups (depthwise) (attribute)") !=
          std::string::npos);
    CHECK(report.find("abs [unary] -> reference") != std::string::npos);
    CHECK(count_of(report, "transfer") == 3);  // relu -> dw, dw -> sig, sig -> abs
    check_close(z.run({{"x", image}}).at("abs"),
                g.compile("reference").run({{"x", image}}).at("abs"), tolerance_of("zaiu"), 2,
                "fallback chain");
}

TEST_CASE("a strict zaiu! fails with unsupported on an op the zAIU lacks") {
    graph g;
    const auto x = g.input("x", tensor_desc(shape{4, 6}, dtype::f32));
    g.output(g.apply("neg", op::unary(unary_kind::neg), {x}));
    try {
        (void)g.compile("zaiu!");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::unsupported);
        CHECK(std::string(e.what()).find("unary neg has no zDNN counterpart") != std::string::npos);
    }
}

TEST_CASE("host copies: any strided host layout in, row-major out, f16 on the way") {
    backend b = zaiu_backend();
    const tensor host = values(shape::nchw(2, 70, 3, 5), 90, -3, 3);
    const op_support s = ask(op::activation(activation_kind::relu), {host.desc()});
    REQUIRE(s.supported());
    buffer buf = b.allocate(s.inputs[0]);
    buf.copy_from_host(host.clone(layout::nhwc()), s.inputs[0]);
    tensor back(tensor_desc(host.dims(), dtype::f16));
    buf.copy_to_host(s.inputs[0], back);
    check_close(back, host, tolerance_of("zaiu"), 1, "round trip");
}
