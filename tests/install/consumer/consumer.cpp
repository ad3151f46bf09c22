// consumer.cpp: uses the installed package: the installed reference plugin is found in the
// install directory, the external plugin through TESSERA_PLUGIN_PATH, and a graph runs across
// both ("negate-test|reference").
#include <cstdio>

#include <tessera/tessera.hpp>

int main() {
    using namespace tessera;
    bool reference_loaded = false, external_loaded = false;
    for (const auto& r : plugin_registry::instance().report()) {
        reference_loaded |= r.backend == "reference" && r.result == load_result::loaded &&
                            r.source == "install dir";
        external_loaded |= r.backend == "negate-test" && r.result == load_result::loaded;
    }
    std::printf("installed reference plugin: %s\n", reference_loaded ? "loaded" : "missing");
    std::printf("external plugin 'negate-test': %s\n", external_loaded ? "loaded" : "missing");
    std::printf("%s", plugin_registry::instance().report_text().c_str());

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
    bool ok = reference_loaded && external_loaded && cg.placements()[0].backend == "negate-test";
    for (int i = 0; i < 4; ++i) ok = ok && out.data_as<float>()[i] == expected[i];
    std::printf("consumer: %s\n", ok ? "all checks passed" : "FAILED");
    return ok ? 0 : 1;
}
