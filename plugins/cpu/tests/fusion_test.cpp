// fusion_test.cpp: conv -> batchnorm -> activation graphs on the cpu backend run as one fused
// step (counted by the plugin's compile statistics, read through compiled_graph::partitions())
// and match the reference; chains whose intermediate tensors are read elsewhere are not fused
// and still match.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// The cpu plugin's compile statistics of the partitions it compiled, summed.
struct cpu_report {
    int partitions = 0;
    int nodes = 0;
    int steps = 0;
    int fused_nodes = 0;
};

void add_partition(cpu_report& r, const std::optional<compile_stats>& s) {
    REQUIRE(s.has_value());  // the cpu plugin fills the compiled_stats slot
    REQUIRE(s->nodes.has_value());
    REQUIRE(s->steps.has_value());
    REQUIRE(s->fused_nodes.has_value());
    ++r.partitions;
    r.nodes += *s->nodes;
    r.steps += *s->steps;
    r.fused_nodes += *s->fused_nodes;
}

cpu_report report_of(const compiled_graph& cg) {
    cpu_report r;
    for (const partition_report& p : cg.partitions())
        if (p.backend == "cpu") add_partition(r, p.stats);
    return r;
}

struct block_options {
    int channels_in = 5, channels_out = 24, groups = 1, kernel = 3;  // padded to keep H and W
    bool bias = true, affine = true;
    tsr_activation_kind bn_act = TSR_ACT_NONE;
    tsr_activation_kind act = TSR_ACT_RELU;
};

/// conv -> batchnorm -> activation on `t`; the batchnorm output is returned in `bn_out`.
graph::tensor_id conv_bn_act(graph& g, graph::tensor_id t, const std::string& name,
                             const block_options& o, int seed, graph::tensor_id* bn_out = nullptr) {
    const int c = o.channels_out;
    const int k = o.kernel, pad = o.kernel / 2;
    std::vector<graph::tensor_id> in{
        t, g.constant(name + ".w",
                      values(shape{c, o.channels_in / o.groups, k, k}, seed, -0.3f, 0.3f))};
    auto conv = op::conv2d().padding(pad, pad, pad, pad).groups(o.groups);
    if (o.bias) {
        conv.bias();
        in.push_back(g.constant(name + ".b", values(shape{c}, seed + 1, -0.1f, 0.1f)));
    }
    t = g.apply(name + ".conv", conv, in);
    std::vector<graph::tensor_id> bn_in{
        t, g.constant(name + ".mean", values(shape{c}, seed + 2, -0.2f, 0.2f)),
        g.constant(name + ".var", values(shape{c}, seed + 3, 0.6f, 1.4f))};
    if (o.affine) {
        bn_in.push_back(g.constant(name + ".scale", values(shape{c}, seed + 4, 0.5f, 1.5f)));
        bn_in.push_back(g.constant(name + ".shift", values(shape{c}, seed + 5, -0.1f, 0.1f)));
    }
    t = g.apply(name + ".bn", op::batchnorm().fuse(o.bn_act), bn_in);
    if (bn_out) *bn_out = t;
    if (o.act != TSR_ACT_NONE) t = g.apply(name + ".act", op::activation(o.act), {t});
    return t;
}

const shape input_shape = shape::nchw(2, 5, 12, 10);

/// Runs `build` on cpu and on the reference backend, compares every output, returns the report.
template <typename Build>
cpu_report check_against_reference(Build build, const std::string& config = "cpu") {
    load_cpu_plugin();
    graph g, r;
    build(g);
    build(r);
    auto cg = g.compile(config);
    const cpu_report report = report_of(cg);
    auto ref = r.compile("reference");
    for (int run = 0; run < 2; ++run) {  // a second run with new data reuses the compiled steps
        const tensor x = values(input_shape, 40 + run);
        const auto got = cg.run({{"x", x}});
        const auto want = ref.run({{"x", x}});
        REQUIRE(got.size() == want.size());
        for (const auto& entry : want) {
            const std::string& name = entry.first;  // clang 14 cannot capture a structured binding
            CAPTURE(name);
            check_close(got.at(name), entry.second, {1e-4, 0.0, 1e-5});
        }
    }
    return report;
}

}  // namespace

TEST_CASE("conv batchnorm relu nodes run as one fused step and match the reference") {
    const auto report = check_against_reference([](graph& g) {
        g.output(conv_bn_act(g, g.input("x", tensor_desc(input_shape, dtype::f32)), "b1",
                             block_options{}, 50));
    });
    CHECK(report.partitions == 1);
    CHECK(report.nodes == 3);
    CHECK(report.steps == 1);
    CHECK(report.fused_nodes == 2);
}

TEST_CASE(
    "fusion covers batchnorm without scale and shift, its own activation, no bias and depthwise "
    "convs") {
    struct Variant {
        const char* name;
        block_options options;
        int seed;
        int fused_nodes;
    };
    block_options plain, bn_act, depthwise;
    plain.bias = false;  // batchnorm without scale and shift, conv without bias, relu6
    plain.affine = false;
    plain.act = TSR_ACT_RELU6;
    bn_act.bn_act = TSR_ACT_TANH;  // batchnorm with a fused activation, nothing after it
    bn_act.act = TSR_ACT_NONE;
    depthwise.channels_out = 5;  // depthwise conv, batchnorm, sigmoid
    depthwise.groups = 5;
    depthwise.act = TSR_ACT_SIGMOID;
    const Variant variants[] = {
        {"batchnorm without scale and shift, conv without bias, relu6", plain, 60, 2},
        {"batchnorm with a fused activation, nothing after it", bn_act, 70, 1},
        {"depthwise conv batchnorm sigmoid", depthwise, 80, 2},
    };
    for (const Variant& v : variants) {
        SUBCASE(v.name) {
            const auto report = check_against_reference([&](graph& g) {
                g.output(conv_bn_act(g, g.input("x", tensor_desc(input_shape, dtype::f32)), "b",
                                     v.options, v.seed));
            });
            CHECK(report.steps == 1);
            CHECK(report.fused_nodes == v.fused_nodes);
        }
    }
}

TEST_CASE(
    "consecutive fused blocks reuse buffers safely and stay bit-identical across thread counts") {
    // Blocks 2 and 3 are two-node chains (batchnorm with its own relu): the memory plan gives
    // such a chain's output the buffer of the chain's input, dead once the conv has read it.
    // Their 1x1 convs read that input in place (no padded copy), over two channel blocks.
    auto build = [](graph& g) {
        block_options a, b;
        a.channels_out = 32;
        b.channels_in = 32;
        b.channels_out = 32;
        b.kernel = 1;
        b.bn_act = TSR_ACT_RELU;
        b.act = TSR_ACT_NONE;
        graph::tensor_id t = g.input("x", tensor_desc(input_shape, dtype::f32));
        t = conv_bn_act(g, t, "b1", a, 90);
        t = conv_bn_act(g, t, "b2", b, 100);
        t = conv_bn_act(g, t, "b3", b, 110);
        g.output(t);
    };
    const auto report = check_against_reference(build);
    CHECK(report.nodes == 7);
    CHECK(report.steps == 3);
    CHECK(report.fused_nodes == 4);

    graph g1, g2;
    build(g1);
    build(g2);
    auto one = g1.compile("cpu:threads=1");
    auto two = g2.compile("cpu:threads=2");
    const tensor x = values(input_shape, 120);
    const tensor a = one.run({{"x", x}}).begin()->second, c = two.run({{"x", x}}).begin()->second;
    int differing = 0;
    for (std::int64_t i = 0; i < a.num_elements(); ++i)
        differing += a.data_as<float>()[i] != c.data_as<float>()[i];
    CHECK(differing == 0);
}

TEST_CASE("a batchnorm output that is also a graph output is not fused away") {
    const auto report = check_against_reference([](graph& g) {
        graph::tensor_id bn = -1;
        g.output(conv_bn_act(g, g.input("x", tensor_desc(input_shape, dtype::f32)), "b",
                             block_options{}, 130, &bn));
        g.output(bn);
    });
    // conv + batchnorm fuse (the conv output has one reader); the activation must read the
    // batchnorm output, so it stays a step of its own.
    CHECK(report.nodes == 3);
    CHECK(report.steps == 2);
    CHECK(report.fused_nodes == 1);
}

TEST_CASE("a conv output read by two nodes is not fused away") {
    const auto report = check_against_reference([](graph& g) {
        const auto x = g.input("x", tensor_desc(input_shape, dtype::f32));
        auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                         {x, g.constant("w", values(shape{8, 5, 3, 3}, 140, -0.3f, 0.3f))});
        auto side = g.apply("side", op::activation(TSR_ACT_TANH), {t});
        t = g.apply("bn", op::batchnorm(),
                    {t, g.constant("mean", values(shape{8}, 141, -0.2f, 0.2f)),
                     g.constant("var", values(shape{8}, 142, 0.6f, 1.4f))});
        t = g.apply("relu", op::activation(TSR_ACT_RELU), {t});
        g.output(t);
        g.output(side);
    });
    CHECK(report.nodes == 4);
    CHECK(report.fused_nodes == 0);
    CHECK(report.steps == 4);
}

namespace {

/// conv -> batchnorm as a hand-built partition (tensors: 0 x, 1 w, 2 conv out, 3 mean, 4 var,
/// 5 bn out) compiled through the C ABI with the given tensor flags (null: none given).
cpu_report compile_by_hand(const std::uint8_t* flags) {
    load_cpu_plugin();
    backend b(plugin_registry::instance().find("cpu"));
    const tensor_desc x(shape::nchw(1, 5, 6, 6), dtype::f32), w(shape{8, 5, 3, 3}, dtype::f32),
        c(shape{8}, dtype::f32);
    const op_desc conv = op::conv2d().padding(1, 1, 1, 1), bn = op::batchnorm();
    const op_support cs =
        b.query(conv, {x, w},
                {tensor_desc(shape::nchw(1, 8, 6, 6), dtype::f32).with_layout(layout::any())});
    REQUIRE(cs.supported());
    const op_support bs =
        b.query(bn, {cs.outputs[0], c, c}, {cs.outputs[0].with_layout(layout::any())});
    REQUIRE(bs.supported());
    const tsr_tensor_desc t[6] = {
        cs.inputs[0].c_desc(), w.c_desc(), cs.outputs[0].c_desc(), c.c_desc(), c.c_desc(),
        bs.outputs[0].c_desc()};
    const std::int32_t conv_in[2] = {0, 1}, conv_out[1] = {2}, bn_in[3] = {2, 3, 4},
                       bn_out[1] = {5};
    tsr_node nodes[2]{};
    const op_desc* ops[2] = {&conv, &bn};
    const std::int32_t* ins[2] = {conv_in, bn_in};
    const std::int32_t* outs[2] = {conv_out, bn_out};
    const tsr_tensor_desc in_descs[2][3] = {{t[0], t[1], t[1]}, {t[2], t[3], t[4]}};
    const tsr_tensor_desc out_descs[2] = {t[2], t[5]};
    for (int k = 0; k < 2; ++k) {
        nodes[k].struct_size = sizeof nodes[k];
        nodes[k].op.struct_size = sizeof nodes[k].op;
        nodes[k].op.kind = ops[k]->kind();
        nodes[k].op.params = ops[k]->c_params();
        nodes[k].op.name = k == 0 ? "conv" : "bn";
        nodes[k].op.num_inputs = k == 0 ? 2 : 3;
        nodes[k].op.inputs = in_descs[k];
        nodes[k].op.num_outputs = 1;
        nodes[k].op.outputs = &out_descs[k];
        nodes[k].input_ids = ins[k];
        nodes[k].output_ids = outs[k];
    }
    tsr_partition p{};
    p.struct_size = sizeof p;
    p.num_tensors = 6;
    p.tensors = t;
    p.num_nodes = 2;
    p.nodes = nodes;
    p.tensor_flags = flags;
    const compiled_partition compiled = b.compile(p);
    cpu_report r;
    add_partition(r, compiled.stats());
    return r;
}

}  // namespace

TEST_CASE("the plugin fuses only across tensors the host says are not read later") {
    const std::uint8_t only_result[6] = {0, 0, 0, 0, 0, TSR_TENSOR_READ_LATER};
    const std::uint8_t conv_out_too[6] = {0, 0, TSR_TENSOR_READ_LATER, 0, 0, TSR_TENSOR_READ_LATER};
    CHECK(compile_by_hand(only_result).steps == 1);
    CHECK(compile_by_hand(conv_out_too).steps == 2);
    CHECK(compile_by_hand(nullptr).steps == 2);  // an older host says nothing: no fusion
}

namespace {

struct residual_options {
    int channels = 24, kernel = 3;
    bool conv_first = true;  ///< Add(conv, skip) rather than Add(skip, conv)
    bool relu_after = true;  ///< a ReLU after the add
    bool batchnorm = true;
};

/// x -> conv bn relu (the skip tensor) -> conv [bn] -> add(skip) [-> relu]: a ResNet basic block
/// (3x3) or a MobileNetV2 projection with its skip connection (1x1). The add's convolution-side
/// operand is returned in `before_add`.
void residual_block(graph& g, const residual_options& o, int seed,
                    graph::tensor_id* before_add = nullptr) {
    block_options first;
    first.channels_out = o.channels;
    const auto skip =
        conv_bn_act(g, g.input("x", tensor_desc(input_shape, dtype::f32)), "b1", first, seed);
    const int c = o.channels, k = o.kernel, pad = o.kernel / 2;
    auto t = g.apply("b2.conv", op::conv2d().padding(pad, pad, pad, pad).bias(),
                     {skip, g.constant("b2.w", values(shape{c, c, k, k}, seed + 10, -0.2f, 0.2f)),
                      g.constant("b2.b", values(shape{c}, seed + 11, -0.1f, 0.1f))});
    if (o.batchnorm)
        t = g.apply("b2.bn", op::batchnorm(),
                    {t, g.constant("b2.mean", values(shape{c}, seed + 12, -0.2f, 0.2f)),
                     g.constant("b2.var", values(shape{c}, seed + 13, 0.6f, 1.4f))});
    if (before_add) *before_add = t;
    t = g.apply("add", op::binary(binary_kind::add),
                o.conv_first ? std::vector{t, skip} : std::vector{skip, t});
    if (o.relu_after) t = g.apply("relu", op::activation(TSR_ACT_RELU), {t});
    g.output(t);
}

}  // namespace

TEST_CASE("a residual add and its relu run in the preceding convolution's step") {
    struct Variant {
        const char* name;
        residual_options options;
        int fused_nodes;  // of the second block: batchnorm, add, relu as present
    };
    residual_options plain, swapped, no_relu, pointwise, no_bn, chunked, odd;
    swapped.conv_first = false;
    no_relu.relu_after = false;
    pointwise.kernel = 1;  // runs over the flattened plane
    no_bn.batchnorm = false;
    chunked.channels = 96;  // 3x3 over 96 channels: Winograd F(2x2, 3x3) (K chunks where direct)
    odd.channels = 20;      // a partly filled channel block
    const Variant variants[] = {
        {"3x3 conv bn add relu", plain, 3},
        {"add with the skip tensor first", swapped, 3},
        {"no activation after the add", no_relu, 2},
        {"1x1 projection", pointwise, 3},
        {"conv add relu without batchnorm", no_bn, 2},
        {"reduction in chunks", chunked, 3},
        {"20 channels", odd, 3},
    };
    for (const Variant& v : variants) {
        SUBCASE(v.name) {
            const auto report =
                check_against_reference([&](graph& g) { residual_block(g, v.options, 150); });
            CHECK(report.partitions == 1);
            CHECK(report.steps == 2);  // block 1, and block 2 with its add
            CHECK(report.fused_nodes == 2 + v.fused_nodes);
        }
    }
}

TEST_CASE("a residual add whose other operand is read elsewhere stays a step of its own") {
    const auto report = check_against_reference([](graph& g) {
        graph::tensor_id bn = -1;
        residual_block(g, residual_options{}, 160, &bn);
        g.output(bn);
    });
    // conv + batchnorm still fuse; the add and relu run as their own steps
    CHECK(report.nodes == 7);
    CHECK(report.fused_nodes == 3);
    CHECK(report.steps == 4);
}

TEST_CASE("a chain's stages fuse across nodes between them that do not touch the chain") {
    // A ResNet downsampling block in the order an ONNX export lists it: the shortcut convolution
    // comes between the first convolution's batchnorm and its relu.
    const auto report = check_against_reference([](graph& g) {
        const auto x = g.input("x", tensor_desc(input_shape, dtype::f32));
        block_options first;
        first.act = TSR_ACT_NONE;
        const auto a = conv_bn_act(g, x, "b1", first, 170);
        const auto shortcut =
            g.apply("shortcut.conv", op::conv2d().bias(),
                    {x, g.constant("shortcut.w", values(shape{24, 5, 1, 1}, 180, -0.3f, 0.3f)),
                     g.constant("shortcut.b", values(shape{24}, 181, -0.1f, 0.1f))});
        const auto r = g.apply("b1.act", op::activation(TSR_ACT_RELU), {a});
        block_options second;
        second.channels_in = 24;
        second.act = TSR_ACT_NONE;
        const auto t = conv_bn_act(g, r, "b2", second, 190);
        const auto sum = g.apply("add", op::binary(binary_kind::add), {t, shortcut});
        g.output(g.apply("relu", op::activation(TSR_ACT_RELU), {sum}));
    });
    // b1.conv + bn + relu (across the shortcut), the shortcut, b2.conv + bn + add + relu
    CHECK(report.nodes == 8);
    CHECK(report.steps == 3);
    CHECK(report.fused_nodes == 5);
}
