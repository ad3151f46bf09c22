// test_graphs.cpp: graphs on "myriad|reference": a custom GRN between two convolutions (all three
// on myriad, one partition, no transfer) against host references; a user's binding overriding the
// shipped GRN and the native activation; several config files; half tensors end to end;
// convolution weights kept on the device (written once when constant, anew when changed).
#include <dlfcn.h>

#include "myriad_plugin.hpp"

using namespace myriad_test;

namespace {

const char* relu_kernel = R"(
__kernel void relu_half(__global const half* src, __global half* dst, float negative_slope)
{
    const int i = get_global_id(0);
    const float v = vload_half(i, src);
    vstore_half(v > 0.0f ? v : v * negative_slope, i, dst);
}
)";

const char* relu_binding = R"(<CustomLayer name="ReLU" type="MVCL" version="1">
  <Kernel entry="relu_half"><Source filename="relu.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0" format="ANY"/>
    <Tensor arg-name="dst" type="output" port-index="0" format="ANY"/>
    <Scalar arg-name="negative_slope" type="float" source="negative_slope"/>
  </Parameters>
  <WorkSizes dim="input,0" global="B*F*Y*X"/>
</CustomLayer>
)";

/// A GRN binding whose kernel doubles its input (recognisably not the shipped GRN).
std::string doubling_grn_file() {
    write_file(
        "override", "double.cl",
        "__kernel void twice(__global const half* src, __global half* dst, float bias)\n"
        "{ const int i = get_global_id(0); vstore_half(2.0f * vload_half(i, src), i, dst); }\n");
    return write_file("override", "grn.xml", R"(<CustomLayer name="GRN" type="MVCL" version="1">
  <Kernel entry="twice"><Source filename="double.cl"/></Kernel>
  <Parameters>
    <Tensor arg-name="src" type="input" port-index="0"/>
    <Tensor arg-name="dst" type="output" port-index="0"/>
    <Scalar arg-name="bias" type="float" source="bias"/>
  </Parameters>
  <WorkSizes dim="input,0" global="B*F*Y*X"/>
</CustomLayer>
)");
}

std::string relu_file() {
    write_file("relu", "relu.cl", relu_kernel);
    return write_file("relu", "relu.xml", relu_binding);
}

op::custom grn() {
    return op::custom("GRN").set_attribute("bias", "1.0");
}

}  // namespace

TEST_CASE("conv 3x3 -> custom GRN -> conv 1x1 runs on myriad in one partition, as the reference") {
    load_plugins();
    const tensor x = values({1, 4, 8, 8}, 1);
    const tensor w1 = values({6, 4, 3, 3}, 2, -0.5f, 0.5f);
    const tensor w2 = values({3, 6, 1, 1}, 3, -0.5f, 0.5f);
    graph g;
    const auto in = g.input("x", x.desc());
    auto t = g.apply("conv1", op::conv2d().padding(1, 1, 1, 1), {in, g.constant("w1", w1)});
    t = g.apply("grn", grn(), {t});
    t = g.apply("conv2", op::conv2d(), {t, g.constant("w2", w2)});
    g.output(t);
    compiled_graph cg = g.compile("myriad|reference");
    const std::string report = cg.placement_report();
    INFO(report);
    CHECK(count(report, "-> myriad") == 3);
    CHECK(count(report, "transfer") == 0);
    CHECK(cg.partitions().size() == 1);

    const tensor c1 = reference::execute(op::conv2d().padding(1, 1, 1, 1), {x, w1}).at(0);
    const tensor want = reference::execute(op::conv2d(), {grn_reference(c1, 1.0), w2}).at(0);
    for (int run = 0; run < 2; ++run) {  // the second run reuses the created layers
        CAPTURE(run);
        check_close(cg.run({{"x", x}}).at("conv2"), want, tolerance_of("myriad"), 3);
    }
}

TEST_CASE("new weights in a later run reach the convolution") {
    load_plugins();
    const tensor x = values({1, 3, 5, 6}, 4);
    graph g;
    const auto in = g.input("x", x.desc());
    const auto w = g.input("w", tensor_desc(shape{2, 3, 3, 3}, dtype::f32));
    g.output(g.apply("conv", op::conv2d().padding(1, 1, 1, 1), {in, w}));
    compiled_graph cg = g.compile("myriad!");
    for (std::uint32_t seed : {5u, 6u}) {
        CAPTURE(seed);
        const tensor wv = values({2, 3, 3, 3}, seed);
        check_close(cg.run({{"x", x}, {"w", wv}}).at("conv"),
                    reference::execute(op::conv2d().padding(1, 1, 1, 1), {x, wv}).at(0),
                    tolerance_of("myriad"), 2);
    }
}

namespace {

/// Layer::write_blob calls so far in this process (libtessera_myriad, loaded by the plugin).
unsigned long long blob_writes() {
    void* lib = dlopen("libtessera_myriad.so.0", RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(lib != nullptr);
    auto* count = reinterpret_cast<unsigned long long (*)()>(dlsym(lib, "myriad_blob_writes"));
    const bool exported = count != nullptr;
    REQUIRE(exported);
    const unsigned long long n = count();
    dlclose(lib);
    return n;
}

}  // namespace

TEST_CASE("constant weights go to the device once: a second run neither reads nor rewrites them") {
    load_plugins();
    const tensor x = values({1, 3, 6, 5}, 21);
    const tensor w = values({4, 3, 3, 3}, 22, -0.5f, 0.5f);
    graph g;
    const auto in = g.input("x", x.desc());
    g.output(g.apply("conv", op::conv2d().padding(1, 1, 1, 1), {in, g.constant("w", w)}));
    compiled_graph cg = g.compile("myriad!");
    const tensor want = reference::execute(op::conv2d().padding(1, 1, 1, 1), {x, w}).at(0);
    const unsigned long long before = blob_writes();
    const tensor first = cg.run({{"x", x}}).at("conv");
    CHECK(blob_writes() == before + 1);  // the weights, converted on the device at the first run
    check_close(first, want, tolerance_of("myriad"), 2);
    const tensor second = cg.run({{"x", x}}).at("conv");
    CHECK(blob_writes() == before + 1);  // unchanged buffer: not read back, not rewritten
    REQUIRE(second.num_elements() == first.num_elements());
    for (std::int64_t i = 0; i < first.num_elements(); ++i)
        REQUIRE(second.data_as<float>()[i] == first.data_as<float>()[i]);
}

TEST_CASE("weights computed in the partition are taken anew at every run") {
    load_plugins();
    const tensor x = values({1, 2, 5, 4}, 23);
    graph g;
    const auto in = g.input("x", x.desc());
    const auto w_in = g.input("w", tensor_desc(shape{3, 2, 3, 3}, dtype::f32));
    const auto w = g.apply("double_w", op::binary(TSR_BINARY_ADD), {w_in, w_in});
    g.output(g.apply("conv", op::conv2d().padding(1, 1, 1, 1), {in, w}));
    compiled_graph cg = g.compile("myriad!");
    INFO(cg.placement_report());
    CHECK(cg.partitions().size() == 1);
    for (std::uint32_t seed : {24u, 25u, 25u}) {
        CAPTURE(seed);
        const tensor wv = values({3, 2, 3, 3}, seed, -0.5f, 0.5f);
        const tensor doubled = reference::execute(op::binary(TSR_BINARY_ADD), {wv, wv}).at(0);
        const unsigned long long before = blob_writes();
        check_close(cg.run({{"x", x}, {"w", wv}}).at("conv"),
                    reference::execute(op::conv2d().padding(1, 1, 1, 1), {x, doubled}).at(0),
                    tolerance_of("myriad"), 2);
        CHECK(blob_writes() == before + 1);
    }
}

TEST_CASE("a user's GRN binding overrides the shipped GRN") {
    load_plugins();
    const tensor x = values({1, 3, 4, 5}, 7, -4.0f, 4.0f);
    std::string report;
    const tensor got =
        run_op(grn(), {x}, "myriad!:config=" + doubling_grn_file(), {}, &report).at(0);
    INFO(report);
    tensor want(x.desc());
    for (std::int64_t i = 0; i < x.num_elements(); ++i)
        want.data_as<float>()[i] = to_half(2.0f * to_half(x.data_as<float>()[i]));
    check_close(got, want, {0.0, 0.0, 0.0});
    // Without the user's file the shipped GRN runs.
    check_close(run_op(grn(), {x}, "myriad!").at(0), grn_reference(x, 1.0), tolerance_of("myriad"),
                2);
}

TEST_CASE("a user's ReLU binding takes the native activation onto myriad") {
    load_plugins();
    const tensor x = values({2, 3, 4, 5}, 8, -2.0f, 2.0f);
    const op::activation leaky(TSR_ACT_LEAKY_RELU, 0.25f);
    std::string report;
    const tensor got =
        run_op(leaky, {x}, "myriad:config=" + relu_file() + "|reference", {}, &report).at(0);
    INFO(report);
    CHECK(count(report, "-> myriad") == 1);
    check_close(got, reference::execute(leaky, {x}).at(0), tolerance_of("myriad"), 2);
    // Without a binding for ReLU the activation is declined (op kind) and runs elsewhere.
    graph g;
    g.output(g.apply("leaky", leaky, {g.input("x", x.desc())}));
    compiled_graph cg = g.compile("myriad|reference");
    REQUIRE(cg.placements().size() == 1);
    CHECK(cg.placements()[0].backend == "reference");
    REQUIRE(cg.placements()[0].declined.size() == 1);
    CHECK(cg.placements()[0].declined[0].find("no custom layer binding for layer type 'ReLU'") !=
          std::string::npos);
    CHECK(cg.placements()[0].declined[0].find("(op kind)") != std::string::npos);
}

TEST_CASE("several config files: searched in order, each adding its layer types") {
    load_plugins();
    const std::string config = "myriad!:config=" + relu_file() + ";" + doubling_grn_file();
    graph g;
    const auto in = g.input("x", tensor_desc(shape{1, 2, 3, 3}, dtype::f32));
    auto t = g.apply("relu", op::activation(TSR_ACT_RELU), {in});
    t = g.apply("grn", grn(), {t});
    g.output(t);
    compiled_graph cg = g.compile(config);
    const tensor x = values({1, 2, 3, 3}, 9, -2.0f, 2.0f);
    const tensor got = cg.run({{"x", x}}).at("grn");
    tensor want(x.desc());
    for (std::int64_t i = 0; i < x.num_elements(); ++i)
        want.data_as<float>()[i] = to_half(2.0f * std::max(0.0f, to_half(x.data_as<float>()[i])));
    check_close(got, want, {0.0, 0.0, 0.0});
}

TEST_CASE("half tensors reach half kernels without conversions: ReorgYolo on f16 is exact") {
    load_plugins();
    const tensor x32 = values({1, 2, 4, 6}, 10, -8.0f, 8.0f);
    tensor x(tensor_desc(x32.dims(), dtype::f16));
    tensor::copy_elements(x32, x);
    const op::custom reorg = op::custom("ReorgYolo")
                                 .set_attribute("stride", "2")
                                 .set_output(tensor_desc(shape{1, 8, 2, 3}, dtype::f16));
    const tensor got = run_op(reorg, {x}, "myriad!").at(0);
    REQUIRE(got.type() == dtype::f16);
    tensor want(tensor_desc(shape{1, 8, 2, 3}, dtype::f32));
    for (std::int64_t c = 0; c < 8; ++c)
        for (std::int64_t h = 0; h < 2; ++h)
            for (std::int64_t w = 0; w < 3; ++w) {
                const std::int64_t offset = c / 2;
                want.at<float>(0, c, h, w) =
                    static_cast<float>(x.get({0, c % 2, h * 2 + offset / 2, w * 2 + offset % 2}));
            }
    check_close(got, want, {0.0, 0.0, 0.0});
}

TEST_CASE("binary ops of one shape run as the shipped Eltwise") {
    load_plugins();
    const tensor a = values({2, 3, 4, 5}, 11, -3.0f, 3.0f);
    const tensor b = values({2, 3, 4, 5}, 12, 0.5f, 2.0f);
    for (tsr_binary_op kind : {TSR_BINARY_ADD, TSR_BINARY_SUB, TSR_BINARY_MUL, TSR_BINARY_DIV,
                               TSR_BINARY_MAX, TSR_BINARY_MIN}) {
        CAPTURE(kind);
        check_op("myriad!", op::binary(kind), {a, b}, tolerance_of("myriad"), 3);
    }
}
