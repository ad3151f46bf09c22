// plugin_test_support.hpp: what the plugin test suites share (plugins/<name>/tests): loading the
// plugin under test, deterministic DLFLOAT16-exact inputs, running one op as a graph on a config
// and comparing results with the reference backend within a tolerance (backend_tolerances.hpp).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <tessera/numeric/dlfloat16.hpp>
#include <tessera/plugin/backend.hpp>
#include <tessera/reference/backend.hpp>
#include <tessera/reference/execute.hpp>
#include <tessera/tessera.hpp>

#include "backend_tolerances.hpp"
#include "lcg_sequence.hpp"

namespace plugin_test {

using namespace tessera;
using tessera_test::tolerance;
using tessera_test::tolerance_of;

/// Loads the plugin file `file` (once per file) and REQUIREs that backend `name` is registered.
inline void load_plugin(const std::string& file, const std::string& name) {
    static std::map<std::string, std::string> tried;  // file -> load detail
    if (tried.find(file) == tried.end())
        tried[file] = plugin_registry::instance().load(file).detail;
    INFO("loading " << file << ": " << tried[file]);
    REQUIRE(plugin_registry::instance().find(name) != nullptr);
}

/// Rounds through DLFLOAT16 so every backend sees exactly what a zAIU holds.
inline float cleanse(float v) {
    return numeric::dlfloat16_to_f32(numeric::f32_to_dlfloat16(v));
}

/// Deterministic f32 values in [lo, hi] (a linear congruential sequence per seed), DLFLOAT16-exact.
inline tensor values(const shape& dims, std::uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
    tensor t(tensor_desc(dims, dtype::f32));
    tessera_test::lcg_sequence draws(seed, 12345u);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        const float u = static_cast<float>(draws.next() >> 8) / static_cast<float>(1u << 24);
        t.data_as<float>()[i] = cleanse(lo + (hi - lo) * u);
    }
    return t;
}

/// `t`'s values in row-major f32 (integer and 16-bit types converted to their real values).
inline tensor as_f32(const tensor& t) {
    tensor out(tensor_desc(t.dims(), dtype::f32));
    tensor::copy_elements(t, out);
    return out;
}

/// Runs `op` as a one-node graph compiled for `config`; inputs marked in `constant` become graph
/// constants, the others graph inputs. Returns the outputs; `report` gets the placement report.
inline std::vector<tensor> run_op(const op_desc& op, const std::vector<tensor>& inputs,
                                  const std::string& config, const std::vector<bool>& constant = {},
                                  std::string* report = nullptr) {
    graph g;
    std::vector<graph::tensor_id> ids;
    std::map<std::string, tensor> feeds;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::string name = "in" + std::to_string(i);
        if (i < constant.size() && constant[i]) {
            ids.push_back(g.constant(name, inputs[i]));
        } else {
            ids.push_back(g.input(name, inputs[i].desc()));
            feeds[name] = inputs[i];
        }
    }
    const auto outs = g.add("op", op, ids);
    for (auto o : outs) g.output(o);
    compiled_graph cg = g.compile(config);
    if (report) *report = cg.placement_report();
    const auto results = cg.run(feeds);
    std::vector<tensor> out;
    for (auto o : outs) out.push_back(results.at(g.tensors()[static_cast<std::size_t>(o)].name));
    return out;
}

/// Largest |got - want| / (1 + |want|) (NaN against non-NaN counts as 1e30); REQUIREs equal shapes.
inline double max_rel_diff(const tensor& got, const tensor& want) {
    REQUIRE(got.dims() == want.dims());
    const tensor g = as_f32(got), w = as_f32(want);
    double worst = 0.0;
    for (std::int64_t i = 0; i < w.num_elements(); ++i) {
        const double a = g.data_as<float>()[i], b = w.data_as<float>()[i];
        const double d = std::isnan(a) != std::isnan(b)
                             ? 1e30
                             : (std::isnan(a) ? 0.0 : std::abs(a - b) / (1.0 + std::abs(b)));
        worst = std::max(worst, d);
    }
    return worst;
}

/// CHECKs |got - want| <= k * (tol.rel |want| + tol.rel_to_max max|want|) + tol.abs per element
/// (equal values, infinities and NaN against NaN pass); reports the first five mismatches.
inline void check_close(const tensor& got, const tensor& want, const tolerance& tol, int k = 1,
                        const std::string& what = "") {
    REQUIRE(got.dims() == want.dims());
    const tensor g = as_f32(got), w = as_f32(want);
    const std::int64_t n = w.num_elements();
    double largest = 0.0;
    for (std::int64_t i = 0; i < n; ++i)
        largest = std::max(largest, std::fabs(double(w.data_as<float>()[i])));
    int bad = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double a = g.data_as<float>()[i], r = w.data_as<float>()[i];
        const double limit = k * (tol.rel * std::fabs(r) + tol.rel_to_max * largest) + tol.abs;
        if (a == r || (std::isnan(a) && std::isnan(r)) || std::fabs(a - r) <= limit) continue;
        if (++bad <= 5)
            FAIL_CHECK(what << " element " << i << ": " << a << " vs reference " << r << " (limit "
                            << limit << ")");
    }
    CHECK_MESSAGE(bad == 0,
                  what << ": " << bad << " of " << n << " elements outside the tolerance");
}

/// Runs `op` on `config` (inputs marked in `constant` as graph constants) and checks every
/// output against tessera::reference::execute within `tol` times `k` rounded steps.
inline void check_op(const std::string& config, const op_desc& op,
                     const std::vector<tensor>& inputs, const tolerance& tol, int k = 1,
                     const std::vector<bool>& constant = {}) {
    const auto want = reference::execute(op, inputs);
    std::string report;
    const auto got = run_op(op, inputs, config, constant, &report);
    INFO(report);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        check_close(got[i], want[i], tol, k, op.describe() + " output " + std::to_string(i));
}

}  // namespace plugin_test
