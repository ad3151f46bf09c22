// graph_fuzzer.cpp: libFuzzer harness of graph construction, verify, compile and run. The bytes
// decode into a small random graph: f32 inputs and constants of small shapes, then up to eight
// ops of any kind (custom ops aside) whose parameters start from the op's defaults and get a few
// fields overwritten with fuzz values. Ops whose inference rejects their inputs are dropped. A
// verified graph is compiled for "reference" and for "cpu|reference" (the cpu plugin, given by
// CPU_PLUGIN) and run on the same inputs; both must give the same outputs. Any error other than
// a typed tessera::error, and any difference in results, is a finding.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <tessera/tessera.hpp>

#include "../common/lcg_sequence.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace tessera;
using tessera_fuzz::fuzz_input;
using tessera_fuzz::report_mismatch;

constexpr int max_ops = 8;
constexpr std::int64_t max_elements = 1 << 16;  // per tensor, so that one input runs in milliseconds

struct pool_tensor {
    graph::tensor_id id;
    tensor_desc desc;
};

shape random_shape(fuzz_input& in) {
    shape s;
    const int rank = in.in_range(1, 4);
    for (int i = 0; i < rank; ++i) s.push_back(in.in_range(1, 6));
    return s;
}

/// A shape like `like`'s, with one extent replaced or the rank changed, or a fresh one.
shape constant_shape(fuzz_input& in, const std::vector<pool_tensor>& pool) {
    const int how = in.in_range(0, 3);
    if (how == 0 || pool.empty()) return random_shape(in);
    const shape like = pool[static_cast<std::size_t>(in.in_range(0, 255)) % pool.size()].desc.dims();
    if (like.rank() == 0) return random_shape(in);  // a scalar gives nothing to copy
    shape s;
    if (how == 1) {
        for (int i = 0; i < like.rank(); ++i) s.push_back(like[i]);
    } else if (how == 2) {
        for (int i = 0; i < like.rank(); ++i) s.push_back(like[i]);
        if (s.rank() > 0) s[in.in_range(0, s.rank() - 1)] = in.in_range(1, 6);
    } else {
        s.push_back(like[in.in_range(0, like.rank() - 1)]);  // a per-channel vector
    }
    return s;
}

/// Deterministic values in [-2, 2] for inputs and constants.
tensor values(const shape& s, std::uint32_t seed) {
    tensor t(tensor_desc(s, dtype::f32));
    tessera_test::lcg_sequence draws(seed, 1u);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        t.data_as<float>()[i] =
            static_cast<float>(draws.next() >> 8) / static_cast<float>(1u << 24) * 4.0f - 2.0f;
    }
    return t;
}

/// Overwrites a few 4-byte fields of an op's parameter struct (after struct_size) with small
/// integers, fuzz-chosen floats or raw 32-bit values.
template <typename Op>
Op mutated(fuzz_input& in) {
    using params_t = typename Op::c_type;
    params_t params = *static_cast<const params_t*>(Op().c_params());
    const std::size_t fields = params.struct_size / 4;  // 4-byte fields
    const int changes = in.in_range(0, 3);
    auto* bytes = reinterpret_cast<unsigned char*>(&params);
    for (int c = 0; c < changes && fields > 1; ++c) {
        const std::size_t field = 1 + static_cast<std::size_t>(in.in_range(0, 255)) % (fields - 1);
        std::int32_t value = 0;
        switch (in.in_range(0, 3)) {
            case 0: value = in.in_range(-2, 9); break;
            case 1: {
                const float f = static_cast<float>(in.in_range(-8, 8)) * 0.25f;
                std::memcpy(&value, &f, sizeof f);
                break;
            }
            default: value = in.take<std::int32_t>(); break;
        }
        std::memcpy(bytes + field * 4, &value, sizeof value);
    }
    return Op::from_c(&params);
}

/// One op of kind index `kind` in op_variant (the custom op excluded), with mutated parameters.
template <std::size_t I = 0>
op_desc make_op(std::size_t kind, fuzz_input& in) {
    using Op = std::variant_alternative_t<I, op_variant>;
    if constexpr (I + 1 < std::variant_size_v<op_variant>) {
        if (kind != I || std::is_same_v<Op, op::custom>) return make_op<I + 1>(kind, in);
    }
    if constexpr (std::is_same_v<Op, op::custom>) {
        return op_desc(mutated<op::activation>(in));
    } else {
        return op_desc(mutated<Op>(in));
    }
}

bool small_enough(const tensor_desc& d) {
    if (!d.is_strided() && !d.is_opaque()) return true;
    const shape s = d.dims();
    std::int64_t n = 1;
    for (int i = 0; i < s.rank(); ++i) {
        if (s[i] < 0 || s[i] > max_elements) return false;
        n *= s[i];
        if (n > max_elements) return false;
    }
    return true;
}

/// TESSERA_FUZZ_VERBOSE=1 prints each decoded node (for triage of a finding).
bool verbose() {
    static const bool on = std::getenv("TESSERA_FUZZ_VERBOSE") != nullptr;
    return on;
}

void describe(const std::string& name, const op_desc& op, const std::vector<tensor_desc>& in,
              const std::vector<tensor_desc>& out) {
    std::string s = name + " = " + std::string(op.name()) + " fields [";
    const auto* fields = static_cast<const std::int32_t*>(op.c_params());
    for (std::uint32_t i = 1; i < fields[0] / 4; ++i) s += (i > 1 ? " " : "") + std::to_string(fields[i]);
    s += "] (";
    for (const auto& d : in) s += d.to_string() + " ";
    s += ") -> ";
    for (const auto& d : out) s += d.to_string() + " ";
    std::fprintf(stderr, "%s\n", s.c_str());
}

/// Decodes the graph; returns the feeds, or nothing when no op could be added.
bool build(fuzz_input& in, graph& g, std::map<std::string, tensor>& feeds,
           std::vector<graph::tensor_id>& produced) {
    std::vector<pool_tensor> pool;
    const int inputs = in.in_range(1, 3);
    for (int i = 0; i < inputs; ++i) {
        const std::string name = "in" + std::to_string(i);
        const tensor value = values(random_shape(in), in.take<std::uint8_t>());
        pool.push_back({g.input(name, value.desc()), value.desc()});
        feeds[name] = value;
    }
    int constants = 0, ops = 0;
    const int steps = in.in_range(1, max_ops);
    for (int step = 0; step < steps && !in.empty(); ++step) {
        const op_desc op = make_op(static_cast<std::size_t>(in.in_range(0, 255)) %
                                       std::variant_size_v<op_variant>,
                                   in);
        std::vector<graph::tensor_id> ids;
        std::vector<tensor_desc> descs;
        const int arity = in.in_range(0, 4);
        for (int a = 0; a < arity; ++a) {
            if (in.in_range(0, 3) == 0) {
                const tensor value = values(constant_shape(in, pool), in.take<std::uint8_t>());
                const auto id = g.constant("c" + std::to_string(constants++), value);
                pool.push_back({id, value.desc()});
            }
            const auto& t = pool[static_cast<std::size_t>(in.in_range(0, 255)) % pool.size()];
            ids.push_back(t.id);
            descs.push_back(t.desc);
        }
        std::vector<tensor_desc> out;
        try {
            out = op.infer(descs);
        } catch (const error&) {
            continue;  // inference rejected the inputs: a typed error, as it must be
        }
        bool fits = true;
        for (const auto& d : out) fits &= small_enough(d);
        if (!fits || out.empty()) continue;
        if (verbose()) describe("op" + std::to_string(ops), op, descs, out);
        const auto outs = g.add("op" + std::to_string(ops++), op, ids);
        if (outs.size() != out.size()) report_mismatch("graph::add and op_desc::infer disagree");
        for (std::size_t i = 0; i < outs.size(); ++i) {
            pool.push_back({outs[i], out[i]});
            produced.push_back(outs[i]);
        }
    }
    if (produced.empty()) return false;
    g.output(produced.back());
    for (auto id : produced)
        if (in.in_range(0, 3) == 0) g.output(id);
    return true;
}

/// A graph where the reference computes any tensor holding a value within a factor 8 of FLT_MAX
/// (or +-inf) sums terms of that size: fp32 sums of them in another order (the backends are free
/// to choose) can overflow to +-inf or give NaN (inf - inf), and later ops (a clipped relu, say)
/// carry that anywhere. Such graphs' outputs are compared in shape and type only (README.md,
/// "Comparison rule").
constexpr float overflow_margin = std::numeric_limits<float>::max() / 8;

bool nears_overflow(const tensor& t) {
    if (t.type() != dtype::f32) return false;
    const tensor c = t.clone();
    for (std::int64_t i = 0; i < c.num_elements(); ++i) {
        const float v = c.data_as<float>()[i];
        if (std::isinf(v) || std::abs(v) > overflow_margin) return true;
    }
    return false;
}

/// Whether the reference computes a tensor near overflow anywhere in g (every produced tensor
/// made an output of a copy of g).
bool reference_nears_overflow(const graph& g, const std::vector<graph::tensor_id>& produced,
                              const std::map<std::string, tensor>& feeds) {
    graph probe = g;
    for (auto id : produced) {
        try {
            probe.output(id);
        } catch (const error&) {
            // already an output
        }
    }
    try {
        for (const auto& [name, t] : probe.compile("reference").run(feeds))
            if (nears_overflow(t)) return true;
    } catch (const error&) {
    }
    return false;
}

bool close(float got, float want, float scale) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::abs(got - want) <= 1e-3f * scale + 1e-3f * std::abs(want);
}

void compare(const std::map<std::string, tensor>& got, const std::map<std::string, tensor>& want,
             bool shapes_only) {
    if (got.size() != want.size()) report_mismatch("cpu and reference return different outputs");
    for (const auto& [name, ref] : want) {
        const auto it = got.find(name);
        if (it == got.end()) report_mismatch("cpu lacks output " + name);
        const tensor a = it->second.clone(), b = ref.clone();
        if (a.dims() != b.dims() || a.type() != b.type())
            report_mismatch(name + ": " + a.desc().to_string() + " vs reference " + b.desc().to_string());
        if (a.type() != dtype::f32 || shapes_only) continue;
        float scale = 1.0f;
        for (std::int64_t i = 0; i < b.num_elements(); ++i)
            if (std::isfinite(b.data_as<float>()[i]))
                scale = std::max(scale, std::abs(b.data_as<float>()[i]));
        for (std::int64_t i = 0; i < b.num_elements(); ++i) {
            const float x = a.data_as<float>()[i], y = b.data_as<float>()[i];
            if (!close(x, y, scale))
                report_mismatch(name + " element " + std::to_string(i) + ": cpu " +
                                std::to_string(x) + ", reference " + std::to_string(y));
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool cpu_loaded = [] {
        // TESSERA_FUZZ_CPU_PLUGIN: another build of the cpu plugin (say, an uninstrumented one
        // that builds faster); the harness still cross-checks it with the reference.
        const char* other = std::getenv("TESSERA_FUZZ_CPU_PLUGIN");
        const auto r = plugin_registry::instance().load(other ? other : CPU_PLUGIN);
        return r.result == load_result::loaded || r.result == load_result::duplicate;
    }();
    if (!cpu_loaded) report_mismatch("cannot load the cpu plugin");

    fuzz_input in(data, size);
    graph g;
    std::map<std::string, tensor> feeds;
    std::vector<graph::tensor_id> produced;
    try {
        if (!build(in, g, feeds, produced)) return 0;
        g.verify();
    } catch (const error&) {
        return 0;
    }
    std::map<std::string, tensor> want;
    try {
        auto reference = g.compile("reference");
        want = reference.run(feeds);
    } catch (const error&) {
        return 0;  // e.g. an op the reference backend declines
    }
    std::map<std::string, tensor> got;
    try {
        auto cpu = g.compile("cpu|reference");
        if (verbose()) std::fprintf(stderr, "%s", cpu.placement_report().c_str());
        got = cpu.run(feeds);
    } catch (const error& e) {
        report_mismatch(std::string("the reference ran the graph, cpu|reference failed: ") + e.what());
    }
    compare(got, want, reference_nears_overflow(g, produced, feeds));
    return 0;
}
