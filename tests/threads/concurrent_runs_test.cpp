// concurrent_runs_test.cpp: the thread-safety contract of compiled_graph and plugin_registry.
// Several threads each compile and run their own graph, and several threads call run (and
// run_async) on one shared compiled graph, on cpu and on the reference backend; every output is
// compared with a reference run of the same input made on one thread beforehand.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

constexpr int threads = 4;
constexpr int runs_per_thread = 6;

tensor data(const shape& s, int seed, float scale = 1.0f) {
    tensor t(tensor_desc(s, dtype::f32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] =
            scale * std::sin(0.37f * static_cast<float>(i) + 1.3f * static_cast<float>(seed));
    return t;
}

const shape input_shape = shape::nchw(2, 5, 12, 10);

/// A small network covering fused and unfused cpu steps, an emulated op and a layout change.
graph network() {
    graph g;
    const auto x = g.input("x", tensor_desc(input_shape, dtype::f32));
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1).bias(),
                     {x, g.constant("w", data(shape{16, 5, 3, 3}, 1, 0.3f)),
                      g.constant("b", data(shape{16}, 2, 0.1f))});
    t = g.apply("relu", op::activation(activation_kind::relu), {t});
    t = g.apply("pool", op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {t});
    const auto skip = g.apply("tanh", op::activation(activation_kind::tanh), {t});
    t = g.apply("sum", op::binary(binary_kind::add), {t, skip});
    t = g.apply("fc", op::fully_connected().flatten_from(1),
                {t, g.constant("fc.w", data(shape{7, 16 * 6 * 5}, 3, 0.05f))});
    t = g.apply("softmax", op::softmax(), {t});
    g.output(t);
    return g;
}

/// The cpu plugin of this build, or TESSERA_TEST_CPU_PLUGIN (another build of it).
void load_cpu_plugin() {
    const char* other = std::getenv("TESSERA_TEST_CPU_PLUGIN");
    const auto r = plugin_registry::instance().load(other ? other : CPU_PLUGIN);
    REQUIRE_MESSAGE((r.result == load_result::loaded || r.result == load_result::duplicate),
                    r.detail);
}

/// Inputs and their reference outputs, computed on this thread.
struct expected_runs {
    std::vector<tensor> inputs, outputs;
    explicit expected_runs(int count) {
        graph g = network();
        auto reference = g.compile("reference");
        for (int i = 0; i < count; ++i) {
            inputs.push_back(data(input_shape, 100 + i));
            outputs.push_back(reference.run({{"x", inputs.back()}}).at("softmax").clone());
        }
    }
};

/// Largest |a - b| (infinity when the shapes differ).
float max_difference(const tensor& got, const tensor& want) {
    if (got.dims() != want.dims()) return INFINITY;
    const tensor a = got.clone(), b = want.clone();
    float worst = 0.0f;
    for (std::int64_t i = 0; i < a.num_elements(); ++i) {
        const float d = std::abs(a.data_as<float>()[i] - b.data_as<float>()[i]);
        worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
    return worst;
}

/// Per-thread findings, checked on the test's thread (doctest asserts stay on one thread).
struct thread_result {
    std::vector<float> differences;
    std::string error;
};

template <typename Body>
std::vector<thread_result> on_threads(Body body) {
    std::vector<thread_result> results(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            try {
                body(t, results[static_cast<std::size_t>(t)]);
            } catch (const std::exception& e) {
                results[static_cast<std::size_t>(t)].error = e.what();
            }
        });
    }
    for (auto& th : pool) th.join();
    return results;
}

void check_results(const std::vector<thread_result>& results, float tolerance) {
    for (std::size_t t = 0; t < results.size(); ++t) {
        CAPTURE(t);
        CHECK(results[t].error == "");
        CHECK(results[t].differences.size() == static_cast<std::size_t>(runs_per_thread));
        for (float d : results[t].differences) CHECK(d <= tolerance);
    }
}

}  // namespace

TEST_CASE("threads compiling and running separate graphs match the reference") {
    load_cpu_plugin();
    const expected_runs expected(threads * runs_per_thread);
    for (const char* config : {"cpu", "cpu:threads=2", "reference"}) {
        CAPTURE(config);
        const auto results = on_threads([&](int t, thread_result& r) {
            graph g = network();
            auto cg = g.compile(config);
            for (int i = 0; i < runs_per_thread; ++i) {
                const int k = t * runs_per_thread + i;
                const auto out = cg.run({{"x", expected.inputs[k]}}).at("softmax");
                r.differences.push_back(max_difference(out, expected.outputs[k]));
            }
        });
        check_results(results, 1e-5f);
    }
}

TEST_CASE("threads calling run on one compiled graph match the reference") {
    load_cpu_plugin();
    const expected_runs expected(threads * runs_per_thread);
    for (const char* config : {"cpu", "cpu|reference", "reference"}) {
        CAPTURE(config);
        graph g = network();
        auto shared = g.compile(config);
        const auto results = on_threads([&](int t, thread_result& r) {
            for (int i = 0; i < runs_per_thread; ++i) {
                const int k = t * runs_per_thread + i;
                const auto out = shared.run({{"x", expected.inputs[k]}}).at("softmax");
                r.differences.push_back(max_difference(out, expected.outputs[k]));
            }
        });
        check_results(results, 1e-5f);
    }
}

TEST_CASE("run_async from several threads on one compiled graph matches the reference") {
    load_cpu_plugin();
    const expected_runs expected(threads * runs_per_thread);
    graph g = network();
    auto shared = g.compile("cpu");
    const auto results = on_threads([&](int t, thread_result& r) {
        std::vector<run_event> events;
        for (int i = 0; i < runs_per_thread; ++i)
            events.push_back(shared.run_async({{"x", expected.inputs[t * runs_per_thread + i]}}));
        for (int i = 0; i < runs_per_thread; ++i) {
            const auto out = events[static_cast<std::size_t>(i)].get().at("softmax");
            r.differences.push_back(max_difference(out, expected.outputs[t * runs_per_thread + i]));
        }
    });
    check_results(results, 1e-5f);
}
