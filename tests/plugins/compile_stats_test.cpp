// compile_stats_test.cpp: the plugin ABI's compile statistics (tsr_compile_stats and the
// compiled_stats slot, ABI 1.1) as the host reads them: from the SDK's plugins, from plugins with
// an ABI 1.0 table, a shorter (older) and a longer (newer) struct, and the cpu plugin's counts
// checked against the placements the host made; and the steps a plugin runs nodes in (ABI 1.2)
// as the host's memory plan uses them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include <tessera/plugin/backend.hpp>
#include <tessera/plugin/compile_stats.hpp>
#include <tessera/reference/backend.hpp>
#include <tessera/tessera.hpp>

#include "common/activation_chain.hpp"

using namespace tessera;

namespace {

tensor ramp(const shape& s) {
    tensor t(tensor_desc(s, dtype::f32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = static_cast<float>(i % 11) * 0.25f - 1.0f;
    return t;
}

/// x -> relu -> sigmoid, compiled for `config`; checks the run against the built-in reference.
compiled_graph relu_sigmoid(const std::string& config) {
    const shape s = shape::nchw(1, 3, 4, 5);
    auto build = [&](graph& g) {
        auto t = g.apply("relu", op::activation(activation_kind::relu),
                         {g.input("x", tensor_desc(s, dtype::f32))});
        g.output(g.apply("sigmoid", op::activation(activation_kind::sigmoid), {t}));
    };
    graph g, r;
    build(g);
    build(r);
    compiled_graph cg = g.compile(config);
    const tensor x = ramp(s);
    const tensor got = cg.run({{"x", x}}).begin()->second;
    const tensor want = r.compile("reference").run({{"x", x}}).begin()->second;
    REQUIRE(got.num_elements() == want.num_elements());
    for (std::int64_t i = 0; i < got.num_elements(); ++i)
        CHECK(got.data_as<float>()[i] == want.data_as<float>()[i]);
    return cg;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the SDK fills compile statistics: the reference backend counts its nodes and steps") {
    const compiled_graph cg = relu_sigmoid("reference");
    REQUIRE(cg.partitions().size() == 1);
    const partition_report& p = cg.partitions()[0];
    CHECK(p.backend == "reference");
    CHECK(p.nodes == std::vector<std::string>{"relu", "sigmoid"});
    REQUIRE(p.stats.has_value());
    CHECK(p.stats->nodes == 2);
    CHECK(p.stats->steps == 2);
    CHECK(p.stats->fused_nodes == 0);
    CHECK(p.stats->emulated_nodes == 0);
    CHECK(p.stats->reorders == 0);
    CHECK(contains(cg.placement_report(),
                   "  partition 1 on reference: 2 nodes in 2 steps, 0 fused, 0 emulated, "
                   "0 reorders\n"));
}

TEST_CASE("an ABI 1.0 plugin, whose table ends before compiled_stats, loads, runs, reports none") {
    const load_record r = plugin_registry::instance().load(STATS_ABI10_PLUGIN);
    REQUIRE(r.result == load_result::loaded);
    const compiled_graph cg = relu_sigmoid("stats-abi10");
    REQUIRE(cg.partitions().size() == 1);
    CHECK(cg.partitions()[0].backend == "stats-abi10");
    CHECK_FALSE(cg.partitions()[0].stats.has_value());  // the slot past the table is not called
    CHECK(contains(cg.placement_report(),
                   "  partition 1 on stats-abi10: 2 nodes (the plugin reports no compile "
                   "statistics)\n"));
}

TEST_CASE("a shorter, older tsr_compile_stats is read up to the size the plugin returned") {
    REQUIRE(plugin_registry::instance().load(STATS_SHORT_PLUGIN).result == load_result::loaded);
    const compiled_graph cg = relu_sigmoid("stats-short");
    REQUIRE(cg.partitions().size() == 1);
    const auto& s = cg.partitions()[0].stats;
    REQUIRE(s.has_value());
    CHECK(s->nodes == 7);
    CHECK(s->steps == 5);
    CHECK(s->fused_nodes == 2);
    CHECK_FALSE(s->emulated_nodes.has_value());  // the plugin wrote 99 past its struct_size
    CHECK_FALSE(s->reorders.has_value());
    CHECK(contains(cg.placement_report(),
                   "  partition 1 on stats-short: 7 nodes in 5 steps, 2 "
                   "fused\n"));
}

TEST_CASE("a longer, newer tsr_compile_stats: the host reads the counts it knows") {
    REQUIRE(plugin_registry::instance().load(STATS_LONG_PLUGIN).result == load_result::loaded);
    const compiled_graph cg = relu_sigmoid("stats-long");
    REQUIRE(cg.partitions().size() == 1);
    const auto& s = cg.partitions()[0].stats;
    REQUIRE(s.has_value());
    CHECK(s->nodes == 7);
    CHECK(s->steps == 5);
    CHECK(s->fused_nodes == 2);
    CHECK(s->emulated_nodes == 1);
    CHECK(s->reorders == 3);
}

TEST_CASE("an SDK plugin that keeps no counts reports the SDK's: nodes, emulated, reorders") {
    REQUIRE(plugin_registry::instance().load(STATS_SDK_PLUGIN).result == load_result::loaded);
    const compiled_graph cg = relu_sigmoid("stats-sdk");
    REQUIRE(cg.placements().size() == 2);
    CHECK(cg.placements()[1].level == TSR_SUPPORT_EMULATED);
    REQUIRE(cg.partitions().size() == 1);
    const auto& s = cg.partitions()[0].stats;
    REQUIRE(s.has_value());
    CHECK(s->nodes == 2);
    CHECK(s->emulated_nodes == 1);  // sigmoid
    CHECK(s->reorders == 0);
    CHECK_FALSE(s->steps.has_value());
    CHECK_FALSE(s->fused_nodes.has_value());
    CHECK(contains(cg.placement_report(),
                   "  partition 1 on stats-sdk: 2 nodes, 1 emulated, "
                   "0 reorders\n"));
}

namespace {

/// x -> six linear activations (2x + 1), compiled for `config`; checks every output value.
compiled_graph six_activations(const std::string& config) {
    graph g;
    const tensor_desc d(shape::nchw(1, 8, 16, 16), dtype::f32);
    g.output(tessera_test::linear_activation_chain(g, d, 6));
    compiled_graph cg = g.compile(config);
    const tensor x = ramp(d.dims());
    const tensor out = cg.run({{"x", x}}).at("act5");
    for (std::int64_t i = 0; i < x.num_elements(); ++i) {
        const float v = tessera_test::linear_activation_chain_value(x.data_as<float>()[i], 6);
        CHECK(out.data_as<float>()[i] == doctest::Approx(v).epsilon(1e-6));
    }
    return cg;
}

}  // namespace

TEST_CASE("nodes a backend runs as one step never share a buffer with a tensor the step reads") {
    // Node by node the plan alternates two buffers: act3 would take act1's buffer, which the
    // step running act2 and act3 together still reads (the fixture writes a step's outputs
    // first, so that plan gives NaN). With the fixture's steps (ABI 1.2, compiled_node_steps)
    // the host keeps act1 live to the end of that step: one more buffer.
    REQUIRE(plugin_registry::instance().load(STATS_FUSED_PLUGIN).result == load_result::loaded);
    CHECK(six_activations("reference").memory().buffers == 3);
    const compiled_graph fused = six_activations("stats-fused");
    CHECK(fused.memory().buffers == 4);
    CHECK(fused.memory().tensors == 7);
}

namespace {

/// x -> a = relu(x) -> t = reshape(a) -> u = a + reshape(t): two reshapes of a, read together.
compiled_graph relu_reshaped_sum(const std::string& config) {
    graph g;
    const shape s = shape::nchw(2, 3, 4, 5);
    const auto a = g.apply("relu", op::activation(activation_kind::relu),
                           {g.input("x", tensor_desc(s, dtype::f32))});
    const auto t = g.apply("flat", op::reshape({120}), {a});
    const auto back = g.apply("back", op::reshape({2, 3, 4, 5}), {t});
    g.output(g.apply("sum", op::binary(binary_kind::add), {a, back}));
    return g.compile(config);
}

/// a = relu(x); t = reshape(a); c = tanh(sigmoid(z)), defined once a is dead but t is not (the
/// graph's order: relu, sigmoid, then their readers reshape and tanh); out = reshape(t) + c.
compiled_graph reshape_outlives_source(const std::string& config) {
    graph g;
    const shape s = shape::nchw(2, 3, 4, 5);
    const auto x = g.input("x", tensor_desc(s, dtype::f32));
    const auto z = g.input("z", tensor_desc(s, dtype::f32));
    const auto a = g.apply("relu", op::activation(activation_kind::relu), {x});
    const auto p = g.apply("sigmoid", op::activation(activation_kind::sigmoid), {z});
    const auto t = g.apply("flat", op::reshape({120}), {a});
    const auto c = g.apply("tanh", op::activation(activation_kind::tanh), {p});
    const auto back = g.apply("back", op::reshape({2, 3, 4, 5}), {t});
    g.output(g.apply("out", op::binary(binary_kind::add), {back, c}));
    return g.compile(config);
}

tensor signed_ramp(const shape& s) {
    tensor x(tensor_desc(s, dtype::f32));
    for (std::int64_t i = 0; i < x.num_elements(); ++i)
        x.data_as<float>()[i] = 0.05f * static_cast<float>(i) - 3.0f;
    return x;
}

void load_alias_plugin() {
    const load_result loaded = plugin_registry::instance().load(STATS_ALIAS_PLUGIN).result;
    REQUIRE((loaded == load_result::loaded || loaded == load_result::duplicate));
}

}  // namespace

TEST_CASE("a reshape the plugin aliases shares its source's buffer (ABI 1.3)") {
    load_alias_plugin();
    // reference: x, a, t and (a and t live at the sum) the sum's own; aliased: t and its
    // reshape back live in a's buffer.
    CHECK(relu_reshaped_sum("reference").memory().buffers == 4);
    compiled_graph cg = relu_reshaped_sum("stats-alias");
    CHECK(cg.memory().buffers == 3);
    CHECK(cg.memory().tensors == 5);
    const tensor x = signed_ramp(shape::nchw(2, 3, 4, 5));
    const tensor out = cg.run({{"x", x}}).at("sum");
    for (std::int64_t i = 0; i < x.num_elements(); ++i)
        CHECK(out.data_as<float>()[i] == 2.0f * std::max(0.0f, x.data_as<float>()[i]));
}

TEST_CASE("an aliased reshape's buffer stays live until the reshape's last reader") {
    load_alias_plugin();
    // Node by node tanh's output could take relu's buffer (relu's output is dead once
    // reshaped); the reshape still holds its bytes there, so the plan must not.
    compiled_graph cg = reshape_outlives_source("stats-alias");
    const tensor x = signed_ramp(shape::nchw(2, 3, 4, 5));
    const tensor out = cg.run({{"x", x}, {"z", x}}).at("out");
    for (std::int64_t i = 0; i < x.num_elements(); ++i) {
        const float v = x.data_as<float>()[i];
        const float want = std::max(0.0f, v) + std::tanh(1.0f / (1.0f + std::exp(-v)));
        CHECK(out.data_as<float>()[i] == doctest::Approx(want));
    }
}

TEST_CASE("writing compile statistics never passes the host's struct_size") {
    compile_stats stats;
    stats.nodes = 4;
    stats.steps = 3;
    stats.fused_nodes = 1;
    stats.reorders = 2;  // emulated_nodes not kept
    SUBCASE("a host struct of three fields") {
        unsigned char bytes[sizeof(tsr_compile_stats) + 8];
        std::memset(bytes, 0xab, sizeof bytes);
        tsr_compile_stats host{};
        host.struct_size = offsetof(tsr_compile_stats, fused_nodes);
        std::memcpy(bytes, &host, sizeof host.struct_size);
        detail::write_compile_stats(stats, reinterpret_cast<tsr_compile_stats*>(bytes));
        std::uint32_t size = 0;
        std::memcpy(&size, bytes, sizeof size);
        CHECK(size == offsetof(tsr_compile_stats, fused_nodes));
        const bool untouched = std::all_of(bytes + size, bytes + sizeof bytes,
                                           [](unsigned char b) { return b == 0xab; });
        CHECK(untouched);
        tsr_compile_stats read{};
        std::memcpy(&read, bytes, size);
        read.struct_size = size;
        const compile_stats back = detail::read_compile_stats(read);
        CHECK(back.nodes == 4);
        CHECK(back.steps == 3);
        CHECK_FALSE(back.fused_nodes.has_value());
    }
    SUBCASE("a full host struct, a count not kept reads as unknown") {
        tsr_compile_stats host = detail::blank_compile_stats();
        detail::write_compile_stats(stats, &host);
        CHECK(host.struct_size == sizeof host);
        CHECK(host.emulated_nodes == TSR_STAT_UNKNOWN);
        const compile_stats back = detail::read_compile_stats(host);
        CHECK(back.nodes == 4);
        CHECK(back.fused_nodes == 1);
        CHECK_FALSE(back.emulated_nodes.has_value());
        CHECK(back.reorders == 2);
        CHECK(back.to_string() == "4 nodes in 3 steps, 1 fused, 2 reorders");
    }
    SUBCASE("a struct_size too small for any count reads as nothing kept") {
        tsr_compile_stats host{};
        host.struct_size = 2;
        host.nodes = 5;
        CHECK_FALSE(detail::read_compile_stats(host).nodes.has_value());
    }
}

#ifdef CPU_PLUGIN
TEST_CASE("the cpu plugin's counts match the host's placements: emulated nodes and reorders") {
    const load_result loaded = plugin_registry::instance().load(CPU_PLUGIN).result;
    REQUIRE((loaded == load_result::loaded || loaded == load_result::duplicate));
    const shape s = shape::nchw(2, 5, 6, 7);
    graph g;
    auto t = g.apply("relu", op::activation(activation_kind::relu),
                     {g.input("x", tensor_desc(s, dtype::f32))});
    // Leading padding far beyond the input: the runtime's padded copy would be huge, so the
    // convolution runs on the reference kernel.
    t = g.apply("conv", op::conv2d().padding(0, 0, 1 << 24, 0).stride(1, 1 << 24),
                {t, g.constant("w", tensor(tensor_desc(shape{4, 5, 1, 1}, dtype::f32)))});
    g.output(g.apply("tanh", op::activation(activation_kind::tanh), {t}));
    const compiled_graph cg = g.compile("cpu");
    int nodes = 0, emulated = 0, reorders = 0;
    for (const node_placement& p : cg.placements()) {
        if (p.backend != "cpu") continue;
        ++nodes;
        emulated += p.level == TSR_SUPPORT_EMULATED;
        reorders += p.op == "reorder";
    }
    REQUIRE(emulated >= 1);
    REQUIRE(reorders >= 1);  // conv reads and writes plain layouts, its neighbours blocked ones
    int got_nodes = 0, got_emulated = 0, got_reorders = 0;
    for (const partition_report& p : cg.partitions()) {
        REQUIRE(p.backend == "cpu");
        REQUIRE(p.stats.has_value());
        REQUIRE(p.stats->emulated_nodes.has_value());
        REQUIRE(p.stats->reorders.has_value());
        got_nodes += p.stats->nodes.value_or(-1000);
        got_emulated += *p.stats->emulated_nodes;
        got_reorders += *p.stats->reorders;
    }
    CHECK(got_nodes == nodes);
    CHECK(got_emulated == emulated);
    CHECK(got_reorders == reorders);
}
#endif
