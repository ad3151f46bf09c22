// discovery_test.cpp: plugins found through TESSERA_PLUGINS and TESSERA_PLUGIN_PATH (set by
// main() before anything touches the registry), de-duplicated, with failures reported and
// nothing crashing or hanging.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "elf_cut.hpp"

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
    const auto r = g.apply("relu", op::activation(activation_kind::relu), {x});
    const auto s = g.apply("sig", op::activation(activation_kind::sigmoid), {r});
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

namespace {

/// A folder of files named like plugins that once hung or killed discovery: a FIFO (dlopen
/// blocks opening it) and a library cut inside a segment (dlopen's relocation hits SIGBUS).
std::string hostile_dir;

std::string make_hostile_dir() {
    std::string dir =
        (std::filesystem::temp_directory_path() / "tessera-discovery-XXXXXX").string();
    if (!mkdtemp(dir.data())) return {};
    mkfifo((dir + "/libtessera_plugin_fifo.so").c_str(), 0600);
    std::ifstream in(REFERENCE_PLUGIN, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
    std::ofstream(dir + "/libtessera_plugin_truncated.so", std::ios::binary)
        .write(bytes.data(),
               static_cast<std::streamsize>(tessera::testing::inside_last_segment(bytes)));
    return dir;
}

}  // namespace

TEST_CASE("a FIFO and a truncated library in a scanned folder are reported, not loaded") {
    REQUIRE_FALSE(hostile_dir.empty());
    int fifo = 0, truncated = 0;
    for (const auto& r : plugin_registry::instance().report()) {
        if (r.path == hostile_dir + "/libtessera_plugin_fifo.so") {
            fifo += r.result == load_result::invalid_file && r.source == "TESSERA_PLUGIN_PATH" &&
                    r.detail == "not a regular file (a FIFO)";
        }
        if (r.path == hostile_dir + "/libtessera_plugin_truncated.so") {
            truncated +=
                r.result == load_result::invalid_file && r.detail.find("truncated ELF file") == 0;
        }
    }
    CHECK(fifo == 1);
    CHECK(truncated == 1);
    CHECK(plugin_registry::instance().find("blocked-test") != nullptr);
}

int main(int argc, char** argv) {
    hostile_dir = make_hostile_dir();
    setenv("TESSERA_PLUGINS", BLOCKED_PLUGIN ":/nonexistent/libtessera_plugin_ghost.so", 1);
    setenv("TESSERA_PLUGIN_PATH", (std::string(FIXTURE_DIR) + ":" + hostile_dir).c_str(), 1);
    const int rc = doctest::Context(argc, argv).run();
    std::error_code ignored;
    std::filesystem::remove_all(hostile_dir, ignored);
    return rc;
}
