// test_graphs.cpp: graphs on "qcom-ml|reference": results match the reference, consecutive
// qcom-ml ops keep the OPTIMAL layout (no transfer between them), a reorder is inserted where an
// op reads plain matrices, the recorded partition replays correctly with new inputs, and the
// backend reports its OpenCL devices.
#include "qcom_ml_plugin.hpp"

using namespace qcom_test;

namespace {

graph small_cnn() {
    graph g;
    const auto x = g.input("image", tensor_desc(shape{1, 3, 16, 16}, dtype::f32));
    auto t = g.apply("conv1", op::conv2d().padding(1, 1, 1, 1).bias().fuse(activation_kind::relu),
                     {x, g.constant("w1", values({8, 3, 3, 3}, 1, -0.5f, 0.5f)),
                      g.constant("b1", values({8}, 2, -0.1f, 0.1f))});
    t = g.apply("bn", op::batchnorm(),
                {t, g.constant("mean", values({8}, 3, -0.1f, 0.1f)),
                 g.constant("var", values({8}, 4, 0.5f, 1.5f)),
                 g.constant("scale", values({8}, 5, 0.5f, 1.5f)),
                 g.constant("shift", values({8}, 6, -0.1f, 0.1f))});
    t = g.apply("dw", op::conv2d().groups(8).padding(1, 1, 1, 1),
                {t, g.constant("wd", values({8, 1, 3, 3}, 7, -0.5f, 0.5f))});
    t = g.apply("relu6", op::activation(activation_kind::relu6), {t});
    const auto skip = g.apply("skip", op::binary(binary_kind::add).set_beta(0.5f), {t, t});
    t = g.apply("pool",
                op::pooling(pooling_kind::average_exclude_padding).kernel(2, 2).stride(2, 2),
                {skip});
    t = g.apply("fc", op::fully_connected().bias(),
                {t, g.constant("wf", values({10, 8 * 8 * 8}, 8, -0.05f, 0.05f)),
                 g.constant("bf", values({10}, 9, -0.1f, 0.1f))});
    t = g.apply("softmax", op::softmax().along(1), {t});
    g.output(t);
    return g;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t pos = text.find(what); pos != std::string::npos;
         pos = text.find(what, pos + 1))
        ++n;
    return n;
}

}  // namespace

TEST_CASE("a CNN on qcom-ml|reference matches the reference and keeps OPTIMAL between ops") {
    load_plugin();
    graph g = small_cnn();
    compiled_graph cg = g.compile("qcom-ml|reference");
    compiled_graph ref = g.compile("reference");
    const std::string report = cg.placement_report();
    INFO(report);
    CHECK(count(report, "-> qcom-ml") == 8);
    CHECK(count(report, "transfer") == 0);  // one partition, no host round trip between ops
    CHECK(count(report, "(inserted)") == 0);
    const tensor in = values({1, 3, 16, 16}, 10);
    CHECK(max_rel_diff(cg.run({{"image", in}}).at("softmax"),
                       ref.run({{"image", in}}).at("softmax")) <= 1e-5);
}

TEST_CASE("the recorded partition replays correctly across runs with new inputs") {
    load_plugin();
    graph g = small_cnn();
    compiled_graph cg = g.compile("qcom-ml");
    compiled_graph ref = g.compile("reference");
    for (int run = 0; run < 4; ++run) {
        CAPTURE(run);
        const tensor in = values({1, 3, 16, 16}, 20 + run, -2.0f, 2.0f);
        CHECK(max_rel_diff(cg.run({{"image", in}}).at("softmax"),
                           ref.run({{"image", in}}).at("softmax")) <= 1e-5);
    }
}

TEST_CASE("flatten -> gemm stays OPTIMAL on the device: no reorder, no transfer") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{1, 6, 4, 5}, dtype::f32));
    auto t = g.apply("act", op::activation(activation_kind::sigmoid), {x});
    t = g.apply("flat", op::reshape().set_dims({6, 20}), {t});
    t = g.apply("mm", op::gemm(), {t, g.constant("b", values({20, 3}, 30))});
    t = g.apply("relu", op::activation(activation_kind::relu), {t});
    g.output(t);
    compiled_graph cg = g.compile("qcom-ml|reference");
    const std::string report = cg.placement_report();
    INFO(report);
    CHECK(count(report, "-> qcom-ml") == 4);  // the four ops, no inserted reorder
    CHECK(count(report, "transfer") == 0);
    compiled_graph ref = g.compile("reference");
    for (int run = 0; run < 2; ++run) {
        const tensor in = values({1, 6, 4, 5}, 31 + run, -3.0f, 3.0f);
        CHECK(max_rel_diff(cg.run({{"x", in}}).at("relu"), ref.run({{"x", in}}).at("relu")) <=
              1e-5);
    }
}

TEST_CASE("an op that reads plain matrices gets a qcom-ml reorder, not a host transfer") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{6, 20}, dtype::f32));
    auto t = g.apply("act", op::activation(activation_kind::sigmoid), {x});
    t = g.apply("tr", op::transpose(), {t});  // CLML's matrix transpose: linear tensors only
    t = g.apply("relu", op::activation(activation_kind::relu), {t});
    g.output(t);
    compiled_graph cg = g.compile("qcom-ml|reference");
    const std::string report = cg.placement_report();
    INFO(report);
    CHECK(count(report, "-> qcom-ml") == 4);  // three ops and the inserted reorder
    CHECK(count(report, "transfer") == 0);
    compiled_graph ref = g.compile("reference");
    for (int run = 0; run < 2; ++run) {
        const tensor in = values({6, 20}, 33 + run, -3.0f, 3.0f);
        CHECK(max_rel_diff(cg.run({{"x", in}}).at("relu"), ref.run({{"x", in}}).at("relu")) <=
              1e-5);
    }
}

TEST_CASE("OPTIMAL outputs are reported with the size CLML gave, and read back through CLML") {
    const auto s = query_op(
        op::conv2d().padding(1, 1, 1, 1),
        {tensor_desc(shape{1, 3, 8, 8}, dtype::f32), tensor_desc(shape{4, 3, 3, 3}, dtype::f32)});
    REQUIRE(s.supported());
    REQUIRE(s.outputs.size() == 1);
    CHECK(s.outputs[0].is_opaque());
    CHECK(s.outputs[0].opaque_backend() == "qcom-ml");
    CHECK(s.outputs[0].opaque_format() == "optimal");
    CHECK(s.outputs[0].size_bytes() >= 4 * 8 * 8 * 4);
    CHECK(s.inputs[0].is_row_major());  // host-fed tensors stay plain
}

TEST_CASE("devices lists every OpenCL device with its kind and details") {
    load_plugin();
    backend b = backend::create("qcom-ml");
    const auto devices = b.devices();
    REQUIRE_FALSE(devices.empty());
    for (const auto& d : devices) {
        CHECK((d.kind == "gpu" || d.kind == "cpu" || d.kind == "accelerator"));
        CHECK(d.details.find("cl_khr_fp16") != std::string::npos);
        CHECK(d.details.find("driver") != std::string::npos);
    }
    CHECK_THROWS(backend::create(backend_request{"qcom-ml", {{"device", "999"}}}));
}

TEST_CASE(
    "an OPTIMAL tensor read by a later qcom-ml partition arrives in the layout its producer "
    "chose") {
    // conv (channels-last OPTIMAL output) -> abs (declined: runs on the reference) and -> relu in
    // a later qcom-ml partition, which lays out its own OPTIMAL tensor for the conv output.
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{1, 4, 6, 7}, dtype::f32));
    const auto y = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                           {x, g.constant("w", values({8, 4, 3, 3}, 40))});
    const auto a = g.apply("abs", op::activation(activation_kind::abs), {y});
    const auto r = g.apply("relu", op::activation(activation_kind::relu), {y});
    const auto s = g.apply("sum", op::binary(binary_kind::add), {a, r});
    g.output(s);
    compiled_graph cg = g.compile("qcom-ml|reference");
    compiled_graph ref = g.compile("reference");
    const std::string report = cg.placement_report();
    INFO(report);
    CHECK(count(report, "-> qcom-ml") >= 3);
    for (int run = 0; run < 2; ++run) {
        const tensor in = values({1, 4, 6, 7}, 41 + run);
        CHECK(max_rel_diff(cg.run({{"x", in}}).at("sum"), ref.run({{"x", in}}).at("sum")) <= 1e-5);
    }
}

TEST_CASE("a clip between qcom-ml ops (CLML's clip op) replays with new inputs") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{1, 4, 8, 8}, dtype::f32));
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                     {x, g.constant("w", values({8, 4, 3, 3}, 50))});
    t = g.apply("clip", op::activation(activation_kind::clip, -0.5f, 0.5f), {t});
    t = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {t});
    t = g.apply("relu6", op::activation(activation_kind::bounded_relu, 0.25f), {t});
    g.output(t);
    compiled_graph cg = g.compile("qcom-ml!");
    compiled_graph ref = g.compile("reference");
    for (int run = 0; run < 3; ++run) {
        CAPTURE(run);
        const tensor in = values({1, 4, 8, 8}, 51 + run, -2.0f, 2.0f);
        CHECK(max_rel_diff(cg.run({{"x", in}}).at("relu6"), ref.run({{"x", in}}).at("relu6")) <=
              1e-5);
    }
}
