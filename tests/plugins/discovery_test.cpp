// discovery_test.cpp: plugins found through TESSERA_PLUGINS and TESSERA_PLUGIN_PATH (set by
// main() before anything touches the registry), de-duplicated, with failures reported and
// nothing crashing.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

#include <tessera/tessera.hpp>

using namespace tessera;

TEST_CASE("plugins listed in the environment are found and reported") {
    auto& registry = plugin_registry::instance();
    CHECK(registry.find("blocked-test") != nullptr);
    CHECK(registry.find("reference") != nullptr);  // built in
    const auto records = registry.report();
    int blocked_loaded = 0, ghost = 0, not_elf = 0, abi = 0, duplicate = 0;
    for (const auto& r : records) {
        if (r.backend == "blocked-test" && r.result == load_result::loaded) {
            ++blocked_loaded;
            CHECK(r.source == "TESSERA_PLUGINS");
        }
        if (r.path.find("ghost") != std::string::npos) ghost += r.result == load_result::not_found;
        if (r.path.find("not_a_library") != std::string::npos) {
            not_elf += r.result == load_result::dlopen_failed;
            CHECK(r.source == "TESSERA_PLUGIN_PATH");
        }
        abi += r.result == load_result::abi_mismatch;
        duplicate += r.result == load_result::duplicate;
    }
    CHECK(blocked_loaded == 1);  // the directory scan finds the same file again: a duplicate
    CHECK(ghost == 1);
    CHECK(not_elf == 1);
    CHECK(abi == 1);
    CHECK(duplicate >= 1);
}

TEST_CASE("auto places ops on the accelerator first and falls back to the reference") {
    graph g;
    const auto x = g.input("x", tensor_desc(shape::nchw(1, 5, 2, 3), dtype::f32));
    const auto r = g.apply("relu", op::activation(TSR_ACT_RELU), {x});
    const auto s = g.apply("sig", op::activation(TSR_ACT_SIGMOID), {r});
    g.output(s);
    auto cg = g.compile("auto");
    REQUIRE(cg.placements().size() == 2);
    // The fixture reports an "accelerator" device, so auto asks it first; it runs ReLU and
    // declines sigmoid, which goes to the next backend in auto's order (a CPU backend built in
    // this tree, or the reference).
    CHECK(cg.placements()[0].backend == "blocked-test");
    CHECK(cg.placements()[1].backend != "blocked-test");
    REQUIRE_FALSE(cg.placements()[1].declined.empty());
    CHECK(cg.placements()[1].declined[0] == "blocked-test: only ReLU (attribute)");
    tensor in(tensor_desc(shape::nchw(1, 5, 2, 3), dtype::f32));
    for (int i = 0; i < 30; ++i) in.data_as<float>()[i] = static_cast<float>(i - 15) / 4.0f;
    auto out = cg.run({{"x", in}}).at("sig");
    for (int i = 0; i < 30; ++i) {
        const float v = std::max(0.0f, in.data_as<float>()[i]);
        CHECK(out.data_as<float>()[i] ==
              doctest::Approx(1.0f / (1.0f + std::exp(-v))).epsilon(1e-6));
    }
}

int main(int argc, char** argv) {
    setenv("TESSERA_PLUGINS", BLOCKED_PLUGIN ":/nonexistent/libtessera_plugin_ghost.so", 1);
    setenv("TESSERA_PLUGIN_PATH", FIXTURE_DIR, 1);
    return doctest::Context(argc, argv).run();
}
