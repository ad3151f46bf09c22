// placement_test.cpp: placement along a fallback chain with a backend that keeps an opaque
// blocked layout ("blocked-test", a fixture plugin): consecutive ops stay blocked, conversions
// happen only at the edges, results equal the reference, and the report says why.
#include <doctest/doctest.h>

#include <cmath>

#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

const tensor_desc placement_image =
    tensor_desc(shape::nchw(1, 6, 3, 5), dtype::f32);  // C=6: a partial block

void load_blocked() {
    const auto r = plugin_registry::instance().load(BLOCKED_PLUGIN);
    REQUIRE((r.result == load_result::loaded || r.result == load_result::duplicate));
}

struct chain_net {
    graph g;
    chain_net() {
        const auto x = g.input("x", placement_image);
        const auto y = g.input("y", placement_image);
        auto t = g.apply("relu1", op::activation(activation_kind::relu), {x});
        t = g.apply("add", op::binary(binary_kind::add), {t, y});
        t = g.apply("relu2", op::activation(activation_kind::relu), {t});
        t = g.apply("sigmoid", op::activation(activation_kind::sigmoid), {t});
        g.output(t);
    }
};

tensor values(float scale, float shift) {
    tensor t(placement_image);
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = std::cos(static_cast<float>(i) * scale) + shift;
    return t;
}

}  // namespace

TEST_CASE("a chain falls back per op and keeps the backend's layout between its ops") {
    load_blocked();
    chain_net net;
    auto cg = net.g.compile("blocked-test|reference");
    const auto& p = cg.placements();
    REQUIRE(p.size() == 4);
    CHECK(p[0].backend == "blocked-test");
    CHECK(p[1].backend == "blocked-test");
    CHECK(p[2].backend == "blocked-test");
    CHECK(p[3].backend == "reference");
    REQUIRE(p[3].declined.size() == 1);
    CHECK(p[3].declined[0] == "blocked-test: only ReLU (attribute)");
    for (const auto& q : p) CHECK_FALSE(q.inserted);  // no reorders inside the blocked run

    const std::string report = cg.placement_report();
    CHECK(report.find("sigmoid [activation] -> reference: activation(sigmoid)\n") !=
          std::string::npos);
    CHECK(p[3].description == "activation(sigmoid)");
    CHECK(report.find("declined by blocked-test: only ReLU (attribute)") != std::string::npos);
    // Exactly one conversion: the blocked result handed to the reference backend.
    std::size_t transfers = 0;
    for (std::size_t pos = report.find("transfer "); pos != std::string::npos;
         pos = report.find("transfer ", pos + 1))
        ++transfers;
    CHECK(transfers == 1);
    CHECK(report.find("opaque blocked-test:c4") != std::string::npos);

    graph ref_graph = chain_net().g;
    auto ref = ref_graph.compile("reference");
    for (int run = 0; run < 2; ++run) {
        const tensor xv = values(0.37f + run, -0.3f), yv = values(0.11f, 0.05f * run);
        const tensor got = cg.run({{"x", xv}, {"y", yv}}).at("sigmoid");
        const tensor want = ref.run({{"x", xv}, {"y", yv}}).at("sigmoid");
        for (std::int64_t i = 0; i < got.num_elements(); ++i)
            CHECK(got.data_as<float>()[i] == want.data_as<float>()[i]);
    }
}

TEST_CASE("a strict backend refuses to fall back") {
    load_blocked();
    chain_net net;
    try {
        net.g.compile("blocked-test!");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::unsupported);
        CHECK(e.op() == "sigmoid (activation)");
        CHECK(e.backend() == "blocked-test");
        CHECK(e.message().find("only ReLU") != std::string::npos);
    }
}

TEST_CASE("the order of the chain decides") {
    load_blocked();
    chain_net net;
    auto cg = net.g.compile("reference|blocked-test");
    for (const auto& p : cg.placements()) CHECK(p.backend == "reference");
    CHECK(cg.placement_report().find("transfer") == std::string::npos);
}

TEST_CASE("an op nobody supports lists every reason") {
    load_blocked();
    graph g;
    const auto x = g.input("x", placement_image);
    const auto t = g.apply("sig", op::activation(activation_kind::sigmoid), {x});
    g.output(t);
    try {
        g.compile("blocked-test");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::unsupported);
        CHECK(e.message().find("no backend in \"blocked-test\" runs it") != std::string::npos);
        CHECK(e.message().find("blocked-test: only ReLU (attribute)") != std::string::npos);
    }
}

TEST_CASE("a compile failure after acceptance is compile_failed, a decline is unsupported") {
    const auto r = plugin_registry::instance().load(COMPILE_FAIL_PLUGIN);
    REQUIRE((r.result == load_result::loaded || r.result == load_result::duplicate));
    graph g;
    const auto x = g.input("x", placement_image);
    g.output(g.apply("relu", op::activation(activation_kind::relu), {x}));
    try {
        g.compile("compile-fail-test");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::compile_failed);
        CHECK(std::string(to_string(e.code())) == "compile_failed");
        CHECK(e.backend() == "compile-fail-test");
        CHECK(e.message().find("accepted at query time but failed to compile") !=
              std::string::npos);
        CHECK(e.message().find("kernel generation failed") != std::string::npos);
    }
    graph h;
    const auto hx = h.input("x", placement_image);
    h.output(h.apply("sig", op::activation(activation_kind::sigmoid), {hx}));
    try {
        h.compile("compile-fail-test!");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::unsupported);
        CHECK(e.message() == "strict backend 'compile-fail-test' declined: only relu (attribute)");
    }
    // The decline falls back; the node the backend accepted fails to compile.
    CHECK_NOTHROW(h.compile("compile-fail-test|reference"));
    CHECK(to_c_status(status::compile_failed) == TSR_UNSUPPORTED);
}
