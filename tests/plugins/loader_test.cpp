// loader_test.cpp: the plugin loader's outcomes for good and broken plugins, and its report.
#include <doctest/doctest.h>

#include <tessera/plugin/backend.hpp>
#include <tessera/reference/backend.hpp>
#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

load_record load(const char* path) {
    return plugin_registry::instance().load(path);
}

}  // namespace

TEST_CASE("a missing file is reported as not found") {
    const auto r = load("/nonexistent/dir/libtessera_plugin_x.so");
    CHECK(r.result == load_result::not_found);
    CHECK(r.detail == "no such file");
}

TEST_CASE("a file that is not a library reports dlopen's own text") {
    const auto r = load(NOT_A_LIBRARY);
    CHECK(r.result == load_result::dlopen_failed);
    // dlerror() names the file and the cause, e.g. "...not_a_library.so: file too short".
    CHECK(r.detail.find(std::string(NOT_A_LIBRARY) + ": ") == 0);
    CHECK(r.detail.size() > std::string(NOT_A_LIBRARY).size() + 2);
}

TEST_CASE("a library without the entry symbol is reported") {
    const auto r = load(NO_ENTRY_PLUGIN);
    CHECK(r.result == load_result::missing_entry);
    CHECK(r.detail.find("tsr_plugin_entry") != std::string::npos);
}

TEST_CASE("an ABI mismatch names both versions") {
    const auto r = load(ABI_MISMATCH_PLUGIN);
    CHECK(r.result == load_result::abi_mismatch);
    CHECK(r.detail.find("plugin ABI 99.7") != std::string::npos);
    CHECK(r.detail.find("host ABI " + std::to_string(TSR_ABI_MAJOR) + "." +
                        std::to_string(TSR_ABI_MINOR)) != std::string::npos);
    CHECK(plugin_registry::instance().find("broken") == nullptr);
}

TEST_CASE("an init failure carries the plugin's message") {
    const auto r = load(INIT_FAIL_PLUGIN);
    CHECK(r.result == load_result::init_failed);
    CHECK(r.detail == "no device found: the test plugin refuses to start");
}

TEST_CASE("a table without required slots is refused") {
    const auto r = load(MISSING_SLOT_PLUGIN);
    CHECK(r.result == load_result::init_failed);
    CHECK(r.detail == "required slot 'create_backend' is missing");
}

TEST_CASE("the reference plugin loads through dlopen and replaces the built-in copy") {
    // Discovery may already have found the same file in the build tree: then it is a duplicate.
    const auto r = load(REFERENCE_PLUGIN);
    REQUIRE((r.result == load_result::loaded ||
             (r.result == load_result::duplicate && r.detail == "already loaded")));
    const tsr_plugin_api* api = plugin_registry::instance().find("reference");
    REQUIRE(api != nullptr);
    CHECK(api != reference::plugin_table());  // the plugin's table, not the one compiled in here
    // Loading the same file again is a duplicate, not a second plugin.
    CHECK(load(REFERENCE_PLUGIN).result == load_result::duplicate);

    // The dlopened backend computes like the embedded one.
    backend b = backend::create("reference");
    CHECK(b.name() == "reference");
    REQUIRE(b.devices().size() == 1);
    CHECK(b.devices()[0].kind == "cpu");
    const tensor_desc d(shape{2, 3}, dtype::f32);
    const op_support s =
        b.query(op::activation(activation_kind::relu), {d}, {d.with_layout(layout::any())});
    CHECK(s.level == TSR_SUPPORT_NATIVE);
    REQUIRE(s.outputs.size() == 1);
    CHECK(s.outputs[0].is_row_major());
}

TEST_CASE("every candidate appears in the report with its outcome") {
    load(NO_ENTRY_PLUGIN);
    const std::string text = plugin_registry::instance().report_text();
    CHECK(text.find("[missing entry symbol]") != std::string::npos);
    bool builtin_listed = false;
    for (const auto& r : plugin_registry::instance().report())
        builtin_listed |= r.source == "built-in";
    CHECK(builtin_listed);
}

TEST_CASE("asking for an unknown backend lists the loader report") {
    try {
        backend::create("no-such-backend");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::not_found);
        CHECK(std::string(e.what()).find("no plugin provides backend 'no-such-backend'") !=
              std::string::npos);
        CHECK(std::string(e.what()).find("Loader report") != std::string::npos);
    }
}
