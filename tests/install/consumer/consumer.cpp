// consumer.cpp: uses the installed package. Every plugin found in the install directory runs one
// addition on its own ("name!", no fallback), checked against hand-computed sums; with
// --with-external, the external plugin found through TESSERA_PLUGIN_PATH also runs a graph across
// both ("negate-test|reference").
#include <cstdio>
#include <cstring>
#include <string>

#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

/// x + y on [2, 3] with x = 1..6 and y = 10..60: every value exact in fp32, fp16 and DLFLOAT16.
bool addition_matches(const std::string& backend_name) {
    graph g;
    const tensor_desc d(shape{2, 3}, dtype::f32);
    const auto x = g.input("x", d);
    const auto y = g.input("y", d);
    g.output(g.apply("add", op::binary(TSR_BINARY_ADD), {x, y}));
    // openvx computes in fixed point: f32 runs there with precision=q7.8 (these sums are exact
    // in Q7.8).
    auto cg = g.compile(backend_name == "openvx" ? "openvx!:precision=q7.8" : backend_name + "!");
    tensor a(d), b(d);
    for (int i = 0; i < 6; ++i) {
        a.data_as<float>()[i] = static_cast<float>(i + 1);
        b.data_as<float>()[i] = static_cast<float>(10 * (i + 1));
    }
    const tensor out = cg.run({{"x", a}, {"y", b}}).at("add");
    bool ok = cg.placements().size() == 1 && cg.placements()[0].backend == backend_name;
    for (int i = 0; i < 6; ++i)
        ok = ok && out.data_as<float>()[i] == static_cast<float>(11 * (i + 1));
    return ok;
}

bool negate_graph_runs() {
    graph g;
    const auto x = g.input("x", tensor_desc(shape{4}, dtype::f32));
    const auto n = g.apply("negate", op::activation(TSR_ACT_LINEAR, -1.0f, 0.0f), {x});
    const auto r = g.apply("relu", op::activation(TSR_ACT_RELU), {n});
    g.output(r);
    auto cg = g.compile("negate-test|reference");
    std::printf("%s", cg.placement_report().c_str());
    tensor in(tensor_desc(shape{4}, dtype::f32));
    const float v[4] = {-3, -1, 2, 5};
    for (int i = 0; i < 4; ++i) in.data_as<float>()[i] = v[i];
    const tensor out = cg.run({{"x", in}}).at("relu");
    const float expected[4] = {3, 1, 0, 0};
    bool ok = cg.placements()[0].backend == "negate-test";
    for (int i = 0; i < 4; ++i) ok = ok && out.data_as<float>()[i] == expected[i];
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    const bool with_external = argc > 1 && !std::strcmp(argv[1], "--with-external");
    std::printf("%s", plugin_registry::instance().report_text().c_str());
    bool ok = true, reference_loaded = false, external_loaded = false;
    for (const auto& r : plugin_registry::instance().report()) {
        external_loaded |= r.backend == "negate-test" && r.result == load_result::loaded;
        if (r.source != "install dir" || r.result != load_result::loaded) continue;
        reference_loaded |= r.backend == "reference";
        bool matches = false;
        try {
            matches = addition_matches(r.backend);
        } catch (const error& e) {
            std::printf("backend '%s': %s\n", r.backend.c_str(), e.what());
        }
        std::printf("installed plugin %s backend '%s': addition %s\n", r.path.c_str(),
                    r.backend.c_str(), matches ? "matches" : "WRONG");
        ok = ok && matches;
    }
    std::printf("installed reference plugin: %s\n", reference_loaded ? "loaded" : "missing");
    ok = ok && reference_loaded;
    if (with_external) {
        std::printf("external plugin 'negate-test': %s\n", external_loaded ? "loaded" : "missing");
        ok = ok && external_loaded && negate_graph_runs();
    }
    std::printf("consumer: %s\n", ok ? "all checks passed" : "FAILED");
    return ok ? 0 : 1;
}
