// elementwise_chain_test.cpp: whole-model element-wise work on the cpu plugin. Runs of
// element-wise nodes (the Erf GELU with its bias add, a decomposed layer norm's scaling tail)
// run as one fused step and match the reference; a chain value read outside the chain ends the
// chain; a squeeze-excite multiply of [N, C, 1, 1] over [N, C, H, W] stays in nchw16c (no
// conversions around it); sqrt runs natively.
#include <cmath>

#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

struct cpu_counts {
    int nodes = 0, steps = 0, fused = 0, emulated = 0;
};

cpu_counts counts_of(const compiled_graph& cg) {
    cpu_counts c;
    for (const partition_report& p : cg.partitions()) {
        if (p.backend != "cpu") continue;
        REQUIRE(p.stats.has_value());
        c.nodes += p.stats->nodes.value_or(0);
        c.steps += p.stats->steps.value_or(0);
        c.fused += p.stats->fused_nodes.value_or(0);
        c.emulated += p.stats->emulated_nodes.value_or(0);
    }
    return c;
}

tensor scalar(float v) {
    tensor t(tensor_desc(shape{1}, dtype::f32));
    t.data_as<float>()[0] = v;
    return t;
}

/// Builds the graph twice (cpu, reference), runs both on input "x" of `dims` and compares every
/// output; returns the cpu plugin's counts.
template <typename Build>
cpu_counts check_against_reference(const shape& dims, Build build, double tolerance = 1e-5,
                                   const std::string& config = "cpu") {
    load_cpu_plugin();
    graph g, r;
    build(g);
    build(r);
    auto cg = g.compile(config);
    auto ref = r.compile("reference");
    for (int run = 0; run < 2; ++run) {
        const tensor x = values(dims, 90 + run, -3.0f, 3.0f);
        const auto got = cg.run({{"x", x}});
        const auto want = ref.run({{"x", x}});
        REQUIRE(got.size() == want.size());
        for (const auto& entry : want) {
            const std::string& name = entry.first;
            CAPTURE(name);
            check_close(got.at(name), entry.second, {tolerance, 0.0, tolerance});
        }
    }
    return counts_of(cg);
}

const shape tokens{1, 6, 40};

/// x + bias, then x * 0.5 * (1 + erf(x / sqrt 2)) as exporters write it: 6 nodes.
graph::tensor_id biased_gelu(graph& g, graph::tensor_id x) {
    const auto biased = g.apply("bias", op::binary(TSR_BINARY_ADD),
                                {x, g.constant("b", values(shape{40}, 91, -0.5f, 0.5f))});
    auto t = g.apply("div", op::binary(TSR_BINARY_DIV),
                     {biased, g.constant("sqrt2", scalar(std::sqrt(2.0f)))});
    t = g.apply("erf", op::unary(TSR_UNARY_ERF), {t});
    t = g.apply("one_plus", op::binary(TSR_BINARY_ADD), {t, g.constant("one", scalar(1.0f))});
    t = g.apply("times_x", op::binary(TSR_BINARY_MUL), {biased, t});
    return g.apply("half", op::binary(TSR_BINARY_MUL), {t, g.constant("0.5", scalar(0.5f))});
}

}  // namespace

TEST_CASE("the Erf GELU with its bias add runs as one step and matches the reference") {
    const cpu_counts c = check_against_reference(tokens, [](graph& g) {
        g.output(biased_gelu(g, g.input("x", tensor_desc(tokens, dtype::f32))));
    });
    CHECK(c.nodes == 6);
    CHECK(c.steps == 1);
    CHECK(c.fused == 5);
    CHECK(c.emulated == 0);
}

TEST_CASE("large chains and layer norms split over threads give the reference's results") {
    const shape large{1, 64, 1100};  // over one thread's share of elements: split in two
    const auto build = [&](graph& g) {
        const auto x = g.input("x", tensor_desc(large, dtype::f32));
        auto t = g.apply("bias", op::binary(TSR_BINARY_ADD),
                         {x, g.constant("b", values(shape{1100}, 102, -0.5f, 0.5f))});
        t = g.apply("erf", op::unary(TSR_UNARY_ERF), {t});
        t = g.apply("half", op::binary(TSR_BINARY_MUL), {t, g.constant("h", scalar(0.5f))});
        g.output(g.apply("norm", op::layer_norm().from_axis(-1), {t}));
    };
    for (const char* config : {"cpu:threads=1", "cpu:threads=2", "cpu:threads=3"}) {
        CAPTURE(config);
        const cpu_counts c = check_against_reference(large, build, 1e-5, config);
        CHECK(c.fused == 2);
    }
}

TEST_CASE("a chain value read after the chain ends the chain before it") {
    graph::tensor_id biased = 0;
    const cpu_counts c = check_against_reference(tokens, [&](graph& g) {
        const auto x = g.input("x", tensor_desc(tokens, dtype::f32));
        auto t = g.apply("scale", op::binary(TSR_BINARY_MUL), {x, g.constant("s", scalar(1.5f))});
        t = g.apply("shift", op::binary(TSR_BINARY_ADD), {t, g.constant("c", scalar(0.25f))});
        biased = t;
        t = g.apply("neg", op::unary(TSR_UNARY_NEG), {t});
        t = g.apply("abs", op::unary(TSR_UNARY_ABS), {t});
        g.output(biased);  // read outside the chain: the chain stops at "shift"
        g.output(t);
    });
    CHECK(c.nodes == 4);
    CHECK(c.steps == 2);  // scale+shift, neg+abs
    CHECK(c.fused == 2);
}

TEST_CASE("a decomposed layer norm runs natively, its tail as one step, and matches") {
    const cpu_counts c = check_against_reference(tokens, [](graph& g) {
        const auto x = g.input("x", tensor_desc(tokens, dtype::f32));
        const auto mean_of = [&](const std::string& name, graph::tensor_id t) {
            return g.apply(name, op::reduce(TSR_REDUCE_MEAN).along(-1), {t});
        };
        const auto centered = g.apply("sub", op::binary(TSR_BINARY_SUB), {x, mean_of("mean", x)});
        auto var = mean_of("var", g.apply("pow", op::binary(TSR_BINARY_POW),
                                          {centered, g.constant("two", scalar(2.0f))}));
        var = g.apply("eps", op::binary(TSR_BINARY_ADD), {var, g.constant("e", scalar(1e-5f))});
        const auto stddev = g.apply("sqrt", op::unary(TSR_UNARY_SQRT), {var});
        auto t = g.apply("div", op::binary(TSR_BINARY_DIV), {centered, stddev});  // per row
        t = g.apply("gamma", op::binary(TSR_BINARY_MUL),
                    {t, g.constant("g", values(shape{40}, 92, 0.5f, 1.5f))});
        g.output(g.apply("beta", op::binary(TSR_BINARY_ADD),
                         {t, g.constant("be", values(shape{40}, 93, -0.2f, 0.2f))}));
    });
    CHECK(c.emulated == 0);
    // eps+sqrt on [1, 6, 1] and div+gamma+beta on [1, 6, 40] are chains; sub and pow are not
    // (the centred values are read again by div).
    CHECK(c.fused == 3);
}

TEST_CASE("sqrt, rsqrt, neg, abs and reciprocal run natively and match the reference") {
    load_cpu_plugin();
    const tensor x = values(shape{3, 37}, 94, 0.05f, 9.0f);
    for (const auto kind :
         {TSR_UNARY_SQRT, TSR_UNARY_RSQRT, TSR_UNARY_NEG, TSR_UNARY_ABS, TSR_UNARY_RECIPROCAL}) {
        op::unary u(kind);
        if (kind == TSR_UNARY_RSQRT) u.set_epsilon(0.01f);
        std::string report;
        const tensor got = run_op(u, {x}, "cpu!", {}, &report).at(0);
        CAPTURE(report);
        CHECK(report.find(" 0 emulated,") != std::string::npos);
        check_close(got, reference::execute(u, {x}).at(0), {1e-6, 0.0, 1e-6});
    }
}

TEST_CASE("a squeeze-excite multiply stays in nchw16c and matches the reference") {
    // The larger image (2 x 40 x 28 x 30 = 67200 outputs) splits its multiply over 3 threads.
    for (const shape& image : {shape::nchw(2, 20, 7, 5), shape::nchw(2, 40, 28, 30)}) {
        const std::int64_t c = image[1];
        const auto build = [&](graph& g, bool scales_first) {
            const auto x = g.input("x", tensor_desc(image, dtype::f32));
            const auto features =
                g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                        {x, g.constant("w", values(shape{c, c, 3, 3}, 95, -0.2f, 0.2f))});
            auto s = g.apply("gap", op::pooling(TSR_POOL_GLOBAL_AVERAGE), {features});
            s = g.apply("squeeze", op::conv2d().bias(),
                        {s, g.constant("w1", values(shape{8, c, 1, 1}, 96, -0.5f, 0.5f)),
                         g.constant("b1", values(shape{8}, 97, -0.1f, 0.1f))});
            s = g.apply("relu", op::activation(TSR_ACT_RELU), {s});
            s = g.apply("excite", op::conv2d().bias(),
                        {s, g.constant("w2", values(shape{c, 8, 1, 1}, 98, -0.5f, 0.5f)),
                         g.constant("b2", values(shape{c}, 99, -0.1f, 0.1f))});
            s = g.apply("gate", op::activation(TSR_ACT_HARD_SIGMOID, 1.0f / 6.0f, 0.5f), {s});
            g.output(g.apply("scale", op::binary(TSR_BINARY_MUL),
                             scales_first ? std::vector<graph::tensor_id>{s, features}
                                          : std::vector<graph::tensor_id>{features, s}));
        };
        for (const bool scales_first : {true, false}) {
            CAPTURE(image.to_string());
            CAPTURE(scales_first);
            for (const char* config : {"cpu", "cpu:threads=3"})
                check_against_reference(
                    image, [&](graph& g) { build(g, scales_first); }, 1e-5, config);
            graph g;
            build(g, scales_first);
            auto cg = g.compile("cpu");
            const std::string report = cg.placement_report();
            CAPTURE(report);
            int inserted = 0;
            for (const auto& p : cg.placements()) inserted += p.inserted;
            CHECK(inserted == 0);  // no conversion around the multiply (a plain one would need two)
        }
    }
}

TEST_CASE("a per-channel divide in nchw16c keeps the channels past C zero for the next conv") {
    // 20 channels: the second block has 12 padding lanes, which must stay 0 for the next conv.
    const cpu_counts c = check_against_reference(shape::nchw(1, 20, 4, 3), [](graph& g) {
        const auto x = g.input("x", tensor_desc(shape::nchw(1, 20, 4, 3), dtype::f32));
        const auto features =
            g.apply("conv", op::conv2d(), {x, g.constant("w", values(shape{20, 20, 1, 1}, 100))});
        // the padding lanes of the maxima are 0: without the zeroing, 0 / 0 there
        const auto s = g.apply("gap", op::pooling(TSR_POOL_GLOBAL_MAX), {features});
        const auto scaled = g.apply("div", op::binary(TSR_BINARY_DIV), {features, s});
        g.output(g.apply("mix", op::conv2d(),
                         {scaled, g.constant("w2", values(shape{16, 20, 1, 1}, 101))}));
    });
    CHECK(c.emulated == 0);
}
