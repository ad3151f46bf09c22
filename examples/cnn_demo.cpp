// cnn_demo.cpp: the README's demo. Builds a small CNN with deterministic weights through the
// graph API (conv-batchnorm-relu, depthwise conv, pooling, fully connected, softmax), runs it on
// every backend that is available, and prints per backend the output checksum, the largest
// difference from the reference backend and the time per run.
//
//   cnn_demo                 every available backend, falling back to the reference (and to cpu);
//                            openvx as "openvx:precision=q7.8|cpu" (the network in Q7.8)
//   cnn_demo "zaiu|cpu" ...  the given config strings
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

/// Deterministic pseudo-random values in [-scale, scale] (no RNG state: the same on every run).
tensor weights(const shape& dims, float scale, int seed) {
    tensor t(tensor_desc(dims, dtype::f32));
    auto* p = t.data_as<float>();
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        p[i] = scale * std::sin(0.731f * static_cast<float>(i) + 1.37f * seed);
    return t;
}

tensor positive(const shape& dims, float base, int seed) {
    tensor t = weights(dims, 0.25f, seed);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) t.data_as<float>()[i] += base;
    return t;
}

graph build_network() {
    graph g;
    const auto x = g.input("image", tensor_desc(shape::nchw(1, 3, 32, 32), dtype::f32));
    auto t = g.apply("conv1", op::conv2d().padding(1, 1, 1, 1).bias(),
                     {x, g.constant("conv1.w", weights(shape{16, 3, 3, 3}, 0.3f, 1)),
                      g.constant("conv1.b", weights(shape{16}, 0.1f, 2))});
    t = g.apply("bn1", op::batchnorm(),
                {t, g.constant("bn1.mean", weights(shape{16}, 0.1f, 3)),
                 g.constant("bn1.var", positive(shape{16}, 1.0f, 4)),
                 g.constant("bn1.scale", positive(shape{16}, 1.0f, 5)),
                 g.constant("bn1.shift", weights(shape{16}, 0.1f, 6))});
    t = g.apply("relu1", op::activation(activation_kind::relu), {t});
    t = g.apply("dwconv", op::conv2d().padding(1, 1, 1, 1).groups(16).bias(),
                {t, g.constant("dw.w", weights(shape{16, 1, 3, 3}, 0.4f, 7)),
                 g.constant("dw.b", weights(shape{16}, 0.1f, 8))});
    t = g.apply("relu6", op::activation(activation_kind::relu6), {t});
    t = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {t});
    t = g.apply("fc", op::fully_connected().flatten_from(1).bias(),
                {t, g.constant("fc.w", weights(shape{10, 16 * 16 * 16}, 0.05f, 9)),
                 g.constant("fc.b", weights(shape{10}, 0.1f, 10))});
    t = g.apply("softmax", op::softmax().along(1), {t});
    g.output(t);
    return g;
}

struct result {
    tensor output;
    double ms_per_run = 0.0;
    std::string placement;
};

result run_config(graph& g, const std::string& config, const tensor& image) {
    compiled_graph cg = g.compile(config);
    result r;
    r.output = cg.run({{"image", image}}).at("softmax");  // warm-up
    std::vector<double> times;
    for (int i = 0; i < 7; ++i) {
        const auto start = std::chrono::steady_clock::now();
        r.output = cg.run({{"image", image}}).at("softmax");
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(times.begin(), times.end());
    r.ms_per_run = times[times.size() / 2];
    std::vector<std::pair<std::string, int>> counts;
    for (const auto& p : cg.placements()) {
        if (p.inserted)
            continue;  // count the network's ops, not the conversions the compiler added
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&](const auto& c) { return c.first == p.backend; });
        if (it == counts.end())
            counts.emplace_back(p.backend, 1);
        else
            ++it->second;
    }
    for (const auto& [name, n] : counts)
        r.placement += (r.placement.empty() ? "" : " ") + name + ":" + std::to_string(n);
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> configs;
    for (int i = 1; i < argc; ++i) configs.push_back(argv[i]);
    if (configs.empty()) {  // each plugin falling back to the reference, and to cpu when present
        const bool have_cpu = plugin_registry::instance().find("cpu") != nullptr;
        for (const auto& p : plugin_registry::instance().plugins()) {
            const std::string name = p.api->name;
            if (name == "reference") continue;
            if (name == "openvx") {  // fixed point: the f32 network runs in Q7.8
                configs.push_back(have_cpu ? "openvx:precision=q7.8|cpu"
                                           : "openvx:precision=q7.8|reference");
                continue;
            }
            configs.push_back(name + "|reference");
            if (have_cpu && name != "cpu") configs.push_back(name + "|cpu");
        }
    }
    std::printf(
        "Tessera %s demo: 8-op CNN (conv-bn-relu, depthwise conv, relu6, max pool, fc, softmax), "
        "input 1x3x32x32\n",
        version_string);
    graph g = build_network();
    const tensor image = weights(shape::nchw(1, 3, 32, 32), 1.0f, 11);

    const result ref = run_config(g, "reference", image);
    std::printf("%-24s %-26s %14s %12s %12s\n", "config", "ops per backend", "checksum",
                "max|diff|", "ms/run");
    auto print = [&](const std::string& config, const result& r) {
        double checksum = 0.0, max_diff = 0.0;
        for (std::int64_t i = 0; i < r.output.num_elements(); ++i) {
            checksum += (i + 1) * static_cast<double>(r.output.data_as<float>()[i]);
            max_diff =
                std::max(max_diff, std::abs(static_cast<double>(r.output.data_as<float>()[i]) -
                                            ref.output.data_as<float>()[i]));
        }
        std::printf("%-24s %-26s %14.8f %12.3g %12.3f\n", config.c_str(), r.placement.c_str(),
                    checksum, max_diff, r.ms_per_run);
    };
    print("reference", ref);
    int failures = 0;
    for (const auto& c : configs) {
        try {
            print(c, run_config(g, c, image));
        } catch (const error& e) {
            std::printf("%-24s failed: %s\n", c.c_str(), e.what());
            ++failures;
        }
    }
    std::printf("\nLoader report:\n%s", plugin_registry::instance().report_text().c_str());
    return failures == 0 ? 0 : 1;
}
