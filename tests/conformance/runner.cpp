// runner.cpp: one case on one backend, judged against the reference (see runner.hpp).
#include "runner.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

namespace conformance {

namespace {

tensor as_row_major_f32(const tensor& t) {
    tensor out(tensor_desc(t.dims(), dtype::f32));
    tensor::copy_elements(t, out);
    return out;
}

/// One unit in the last place of `want`'s stored type near the real value `r`: two results
/// within the backend's tolerance in fp32 may round to neighbouring stored values. Zero for f32
/// and for i32 (exact integer arithmetic), one quantisation step for the integer types.
double output_step(const tensor_desc& want, double r) {
    const double magnitude = std::max(std::fabs(r), 1e-30);
    switch (want.type()) {
        case dtype::f16:
            return std::max(std::ldexp(magnitude, -10), std::ldexp(1.0, -24));
        case dtype::bf16:
            return std::ldexp(magnitude, -7);
        case dtype::dlfloat16:
            return std::ldexp(magnitude, -9);
        case dtype::i8:
        case dtype::u8:
            return want.quant().scale;
        case dtype::i16:
            return std::ldexp(double(want.quant().scale), -want.quant().fixed_point_pos);
        default:
            return 0.0;
    }
}

/// Empty when `got` is within `tol` (times `k`) of `want`, else the first few mismatches.
std::string mismatches(const tensor& got, const tensor& want, const tolerance& tol, int k) {
    if (got.dims() != want.dims())
        return "output shape " + text(got.dims()) + ", reference " + text(want.dims());
    const tensor g = as_row_major_f32(got), w = as_row_major_f32(want);
    const float* gp = g.data_as<float>();
    const float* wp = w.data_as<float>();
    const std::int64_t n = w.num_elements();
    double largest = 0.0;
    for (std::int64_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(double(wp[i])));
    std::ostringstream out;
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double a = gp[i], r = wp[i];
        const double limit = k * (tol.rel * std::fabs(r) + tol.rel_to_max * largest) + tol.abs +
                             output_step(want.desc(), r);
        const bool same = a == r || (std::isnan(a) && std::isnan(r));  // also infinities
        if (!same && !(std::fabs(a - r) <= limit)) {
            if (bad < 4) out << " [" << i << "] " << a << " vs " << r << ";";
            ++bad;
        }
    }
    if (bad == 0) return {};
    return std::to_string(bad) + " of " + std::to_string(n) + " elements off:" + out.str();
}

}  // namespace

const char* verdict_name(verdict v) {
    switch (v) {
        case verdict::native:
            return "native";
        case verdict::emulated:
            return "emulated";
        case verdict::declined:
            return "declined";
        case verdict::wrong:
            return "WRONG";
        default:
            return "ERROR";
    }
}

bool load_backend(const backend_entry& b, std::string& why) {
    if (b.plugin.empty()) return true;
    static std::map<std::string, load_record> loaded;
    auto it = loaded.find(b.plugin);
    if (it == loaded.end())
        it = loaded.emplace(b.plugin, plugin_registry::instance().load(b.plugin)).first;
    const load_record& r = it->second;
    if (r.result == load_result::loaded || r.result == load_result::duplicate) return true;
    why = r.detail;
    return false;
}

outcome run_case(const backend_entry& b, const conformance_case& c,
                 const std::vector<tensor>& want) {
    graph g;
    std::vector<graph::tensor_id> ids;
    std::map<std::string, tensor> feed;
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        const std::string name = "in" + std::to_string(i);
        ids.push_back(g.input(name, c.inputs[i].desc()));
        feed[name] = c.inputs[i];
    }
    const auto outs = g.add("op", c.desc, ids);
    for (auto o : outs) g.output(o);

    std::optional<compiled_graph> cg;
    try {
        cg.emplace(g.compile(b.config));
    } catch (const error& e) {
        const std::string strict = "strict backend '" + b.name + "' declined";
        if (e.code() == status::unsupported && e.message().rfind(strict, 0) == 0)
            return {verdict::declined, e.message().substr(strict.size() + 2)};
        return {verdict::error, std::string("compile: ") + e.what()};
    }
    tsr_support_level level = TSR_SUPPORT_NATIVE;
    for (const auto& p : cg->placements()) {
        if (p.backend != b.name)
            return {verdict::error, "node " + p.node + " placed on " + p.backend};
        if (!p.inserted) level = p.level;
    }
    std::map<std::string, tensor> result;
    try {
        result = cg->run(feed);
    } catch (const error& e) {
        return {verdict::error, std::string("run: ") + e.what()};
    }
    std::string bad;
    for (std::size_t i = 0; i < outs.size() && bad.empty(); ++i) {
        const std::string& name = g.tensors()[static_cast<std::size_t>(outs[i])].name;
        bad = mismatches(result.at(name), want.at(i), b.tol, c.roundings);
    }
    if (!bad.empty()) return {verdict::wrong, bad};
    return {level == TSR_SUPPORT_NATIVE ? verdict::native : verdict::emulated, {}};
}

}  // namespace conformance
