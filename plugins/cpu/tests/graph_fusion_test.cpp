// graph_fusion_test.cpp: graph-level rewrites of the cpu backend beyond conv chains: a layer norm
// written as ONNX's decomposition (ReduceMean, Sub, square, ReduceMean, Add, Sqrt, Div, Mul, Add)
// runs as one step, and a MatMul whose B is a graph constant packs B once. Each graph is compared
// with the reference backend and the fusion read from the plugin's compile statistics.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

struct fusion_counts {
    int nodes = 0, steps = 0, fused_nodes = 0;
};

fusion_counts fusion_counts_of(const compiled_graph& cg) {
    fusion_counts c;
    for (const partition_report& p : cg.partitions()) {
        if (p.backend != "cpu") continue;
        REQUIRE(p.stats.has_value());
        REQUIRE(p.stats->nodes.has_value());
        REQUIRE(p.stats->steps.has_value());
        REQUIRE(p.stats->fused_nodes.has_value());
        c.nodes += *p.stats->nodes;
        c.steps += *p.stats->steps;
        c.fused_nodes += *p.stats->fused_nodes;
    }
    return c;
}

/// Builds the graph twice, runs it on cpu and on the reference with `feeds(run)` for two runs
/// (the second reuses the compiled steps with new values), compares every output, returns the
/// cpu counts.
template <typename Build, typename Feeds>
fusion_counts compare_with_reference(Build build, Feeds feeds, const tolerance& tol) {
    load_cpu_plugin();
    graph g, r;
    build(g);
    build(r);
    auto cg = g.compile("cpu");
    auto ref = r.compile("reference");
    for (int run = 0; run < 2; ++run) {
        const std::map<std::string, tensor> in = feeds(run);
        const auto got = cg.run(in);
        const auto want = ref.run(in);
        REQUIRE(got.size() == want.size());
        for (const auto& entry : want) {
            const std::string& name = entry.first;  // clang 14 cannot capture a structured binding
            CAPTURE(name);
            CAPTURE(run);
            check_close(got.at(name), entry.second, tol);
        }
    }
    return fusion_counts_of(cg);
}

const shape rows_shape{2, 5, 24};

struct norm_options {
    bool square_as_mul = false;  ///< centered * centered instead of the square activation
    bool gamma = true, beta = true;
    bool scalar_gamma = false;
    bool centered_is_output = false;  ///< the centered tensor is also a graph output
};

tensor scalar_tensor(float v) {
    tensor t(tensor_desc(shape{1}, dtype::f32));
    t.data_as<float>()[0] = v;
    return t;
}

/// The decomposed layer norm of x over its last dim; returns the number of nodes.
int decomposed_norm(graph& g, const norm_options& o) {
    const auto x = g.input("x", tensor_desc(rows_shape, dtype::f32));
    const auto mean_of = [&](const std::string& name, graph::tensor_id t) {
        return g.apply(name, op::reduce(reduce_kind::mean).along(-1).keep(true), {t});
    };
    const auto centered = g.apply("sub", op::binary(binary_kind::sub), {x, mean_of("mean", x)});
    const auto squared = o.square_as_mul
                             ? g.apply("square", op::binary(binary_kind::mul), {centered, centered})
                             : g.apply("square", op::activation(TSR_ACT_SQUARE), {centered});
    const auto shifted =
        g.apply("add_eps", op::binary(binary_kind::add),
                {mean_of("variance", squared), g.constant("eps", scalar_tensor(1e-5f))});
    const auto deviation = g.apply("sqrt", op::unary(unary_kind::sqrt), {shifted});
    auto y = g.apply("div", op::binary(binary_kind::div), {centered, deviation});
    int nodes = 7;
    if (o.gamma) {
        const shape gamma_shape = o.scalar_gamma ? shape{1} : shape{24};
        y = g.apply("mul_gamma", op::binary(binary_kind::mul),
                    {y, g.constant("gamma", values(gamma_shape, 7, 0.5f, 1.5f))});
        ++nodes;
    }
    if (o.beta) {
        y = g.apply("add_beta", op::binary(binary_kind::add),
                    {g.constant("beta", values(shape{24}, 8, -0.2f, 0.2f)), y});
        ++nodes;
    }
    g.output(y);
    if (o.centered_is_output) g.output(centered);
    return nodes;
}

std::map<std::string, tensor> rows_feed(int run) {
    return {{"x", values(rows_shape, 30 + run, -2.0f, 3.0f)}};
}

}  // namespace

TEST_CASE("a decomposed layer norm runs as one step and matches the reference") {
    struct Variant {
        const char* name;
        norm_options options;
    };
    norm_options with_mul, bare, scalar;
    with_mul.square_as_mul = true;
    bare.gamma = false;
    bare.beta = false;
    scalar.scalar_gamma = true;
    const Variant variants[] = {{"with gamma and beta", norm_options{}},
                                {"square written as a product", with_mul},
                                {"no gamma or beta", bare},
                                {"a scalar gamma", scalar}};
    for (const Variant& v : variants) {
        SUBCASE(v.name) {
            int nodes = 0;
            const auto counts =
                compare_with_reference([&](graph& g) { nodes = decomposed_norm(g, v.options); },
                                       rows_feed, {1e-5, 0.0, 1e-5});
            CHECK(counts.nodes == nodes);
            CHECK(counts.steps == 1);
            CHECK(counts.fused_nodes == nodes - 1);
        }
    }
}

TEST_CASE("a decomposed layer norm whose centered values are read elsewhere is not fused") {
    norm_options o;
    o.centered_is_output = true;
    const auto counts = compare_with_reference([&](graph& g) { decomposed_norm(g, o); }, rows_feed,
                                               {1e-5, 0.0, 1e-5});
    CHECK(counts.steps > 1);
    CHECK(counts.nodes - counts.fused_nodes == counts.steps);
}

TEST_CASE("a matmul with a constant B matches the reference over runs with new A values") {
    const shape a_shape{3, 20, 32};
    const auto counts = compare_with_reference(
        [&](graph& g) {
            const auto a = g.input("a", tensor_desc(a_shape, dtype::f32));
            g.output(g.apply("mm", op::matmul(),
                             {a, g.constant("w", values(shape{32, 40}, 9, -0.5f, 0.5f))}));
        },
        [&](int run) {
            return std::map<std::string, tensor>{{"a", values(a_shape, 40 + run)}};
        },
        {1e-5, 0.0, 1e-5});
    CHECK(counts.nodes == 1);
    CHECK(counts.steps == 1);
}

TEST_CASE("a matmul whose B is a graph input sees B's new values on every run") {
    // B is not constant: packing it once would keep the first run's values.
    const shape a_shape{20, 32}, b_shape{32, 40};
    for (const bool transposed : {false, true}) {
        CAPTURE(transposed);
        const shape b_dims = transposed ? shape{40, 32} : b_shape;
        compare_with_reference(
            [&](graph& g) {
                const auto a = g.input("a", tensor_desc(a_shape, dtype::f32));
                const auto b = g.input("b", tensor_desc(b_dims, dtype::f32));
                g.output(g.apply("mm", op::matmul().transpose(false, transposed), {a, b}));
            },
            [&](int run) {
                return std::map<std::string, tensor>{{"a", values(a_shape, 50)},
                                                     {"b", values(b_dims, 60 + run)}};
            },
            {1e-5, 0.0, 1e-5});
    }
}
