// node_tests_test.cpp: runs every ONNX node test of libonnx-testdata (model.onnx plus
// test_data_set_*/input_N.pb and output_N.pb) through tessera::onnx::load on the reference backend
// and, where the cpu plugin is built, on cpu (strict), and compares with ONNX's tolerances
// (rtol 1e-3, atol 1e-7). known_failures.txt (reference) and known_failures_cpu.txt list each test
// that does not pass with its reason; a listed test that passes fails the run too, so the lists
// stay exact. Set TESSERA_ONNX_WRITE_KNOWN_FAILURES=<file> to write the current list of the one
// test case run (-tc="ONNX node tests on the cpu backend").
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

namespace fs = std::filesystem;
using namespace tessera;

namespace {

/// ONNX 1.12's test data stores bfloat16 tensors as uint16 bit patterns: `t`'s bits as dtype `to`
/// when `t` is of dtype `from`, `t` itself otherwise (reinterpreted, not converted).
tensor reinterpret_bits(const tensor& t, dtype from, dtype to) {
    if (t.type() != from) return t;
    tensor bits(t.dims(), to);
    const tensor dense = t.clone();
    std::memcpy(bits.data(), dense.data(), static_cast<std::size_t>(dense.desc().size_bytes()));
    return bits;
}

constexpr double rtol = 1e-3;
constexpr double atol = 1e-7;

struct outcome {
    bool passed = false;
    bool missing_op_only = false;  ///< failed only because ops are not in the op set
    bool emulated = false;         ///< some op ran on the reference kernels inside a plugin
    std::set<std::string> emulated_ops;  ///< the descriptions of the ops that ran emulated
    std::string reason;
};

std::vector<onnx::host_tensor> read_all(const fs::path& dir, const std::string& prefix) {
    std::vector<onnx::host_tensor> out;
    for (int i = 0;; ++i) {
        const fs::path p = dir / (prefix + std::to_string(i) + ".pb");
        if (!fs::exists(p)) break;
        out.push_back(onnx::read_tensor(p));
    }
    return out;
}

std::string compare(const onnx::host_tensor& expected, const tensor& actual_tensor) {
    const auto actual = onnx::host_tensor::from_tensor(expected.name, actual_tensor);
    if (actual.dims != expected.dims) return "output '" + expected.name + "' has other dims";
    const auto n = expected.num_elements();
    for (std::int64_t i = 0; i < n; ++i) {
        const double e = expected.real(i), a = actual.real(i);
        if (std::isnan(e) && std::isnan(a)) continue;
        if (e == a) continue;
        if (!(std::fabs(a - e) <= atol + rtol * std::fabs(e))) {
            std::ostringstream s;
            s << "output '" << expected.name << "' element " << i << ": " << a << " expected " << e;
            return s.str();
        }
    }
    return {};
}

outcome run_case(const fs::path& dir, const std::string& config) {
    outcome r;
    const fs::path data = dir / "test_data_set_0";
    try {
        const auto inputs = read_all(data, "input_");
        const auto outputs = read_all(data, "output_");
        onnx::load_options options;
        graph g;
        for (int attempt = 0;; ++attempt) {
            try {
                g = onnx::load(dir / "model.onnx", options);
                break;
            } catch (const onnx::import_error& e) {
                // Inputs the importer needs as constants (shapes, scales, weights of a
                // recurrent op) are frozen to the test's values, as a model exporter would.
                bool bound = false;
                for (const auto& name : e.needs_constant())
                    for (const auto& in : inputs)
                        if (in.name == name && !options.constant_inputs.count(name)) {
                            options.constant_inputs[name] = in;
                            bound = true;
                        }
                if (!bound || attempt > 4) {
                    r.missing_op_only = true;
                    std::string reasons;
                    for (const auto& n : e.nodes()) {
                        if (n.reason.rfind("op not in the Tessera op set yet", 0) != 0)
                            r.missing_op_only = false;
                        if (reasons.find(n.reason) == std::string::npos)
                            reasons += (reasons.empty() ? "" : "; ") + n.reason;
                    }
                    r.reason = reasons;
                    return r;
                }
            }
        }
        // Inputs read only for their shape or dtype (Shape, Size, CastLike) fold away at load
        // and take no feed.
        std::set<graph::tensor_id> read;
        for (const auto& n : g.nodes()) read.insert(n.inputs.begin(), n.inputs.end());
        std::set<std::string> fed;
        for (std::size_t id = 0; id < g.tensors().size(); ++id) {
            const auto& t = g.tensors()[id];
            if (t.role == graph::tensor_role::input &&
                (t.is_output || read.count(static_cast<graph::tensor_id>(id))))
                fed.insert(t.name);
        }
        std::map<std::string, tensor> feeds;
        for (const auto& in : inputs)
            if (!options.constant_inputs.count(in.name) && fed.count(in.name))
                feeds[in.name] = g.desc(g.find(in.name)).type() == dtype::bf16
                                     ? reinterpret_bits(in.to_tensor(), dtype::u16, dtype::bf16)
                                     : in.to_tensor();
        auto compiled = g.compile(config);
        for (const auto& p : compiled.placements())
            if (p.level == TSR_SUPPORT_EMULATED) {
                r.emulated = true;
                r.emulated_ops.insert(p.description.empty() ? p.op : p.description);
            }
        const auto results = compiled.run(feeds);
        for (const auto& e : outputs) {
            const auto it = results.find(e.name);
            if (it == results.end()) {
                r.reason = "output '" + e.name + "' missing";
                return r;
            }
            const std::string diff =
                compare(e, e.type == tessera::onnx::element_type::uint16
                               ? reinterpret_bits(it->second, dtype::bf16, dtype::u16)
                               : it->second);
            if (!diff.empty()) {
                r.reason = "mismatch: " + diff;
                return r;
            }
        }
        r.passed = true;
    } catch (const std::exception& e) {
        r.reason = e.what();
        std::replace(r.reason.begin(), r.reason.end(), '\n', ' ');
    }
    return r;
}

std::map<std::string, std::string> read_known_failures(const std::string& path) {
    std::map<std::string, std::string> known;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto space = line.find(' ');
        known[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
    }
    return known;
}

void run_suite(const std::string& config, const std::string& known_failures_file) {
    std::vector<fs::path> cases;
    for (const auto& e : fs::directory_iterator(TESSERA_ONNX_NODE_TEST_DIR))
        if (fs::exists(e.path() / "model.onnx")) cases.push_back(e.path());
    std::sort(cases.begin(), cases.end());
    REQUIRE(cases.size() > 0);
    const auto known = read_known_failures(known_failures_file);
    const char* write_to = std::getenv("TESSERA_ONNX_WRITE_KNOWN_FAILURES");
    std::ofstream writer;
    if (write_to) writer.open(write_to);
    int passed = 0, failed = 0, missing_op = 0, unexpected = 0, passed_emulated = 0;
    std::map<std::string, int> missing_by_op;
    std::map<std::string, int> emulated_by_op;  // passing cases per op that ran emulated
    for (const auto& dir : cases) {
        const std::string name = dir.filename().string();
        const outcome r = run_case(dir, config);
        const bool listed = known.count(name) > 0;
        if (r.passed) {
            ++passed;
            passed_emulated += r.emulated;
            for (const auto& op : r.emulated_ops) ++emulated_by_op[op];
            if (listed) {
                ++unexpected;
                FAIL_CHECK(name << " passes on " << config << " but is listed in "
                                << known_failures_file);
            }
            continue;
        }
        ++failed;
        if (r.missing_op_only) ++missing_op;
        if (writer) writer << name << ' ' << r.reason << '\n';
        if (!listed) {
            ++unexpected;
            FAIL_CHECK(name << " fails on " << config << ": " << r.reason);
        }
    }
    std::cout << "ONNX node tests on " << config << ": " << passed << " of " << cases.size()
              << " pass (" << passed_emulated << " with an op emulated), " << failed << " fail (" << missing_op
              << " only because an op is not in the Tessera op set yet), " << unexpected
              << " differ from " << fs::path(known_failures_file).filename().string() << "\n";
    if (!emulated_by_op.empty()) {
        std::vector<std::pair<int, std::string>> census;
        for (const auto& [op, n] : emulated_by_op) census.emplace_back(-n, op);
        std::sort(census.begin(), census.end());
        std::cout << "  passing cases per op run emulated:";
        for (const auto& [n, op] : census) std::cout << ' ' << op << '=' << -n;
        std::cout << "\n";
    }
    CHECK(unexpected == 0);
}

}  // namespace

TEST_CASE("ONNX node tests on the reference backend") {
    run_suite("reference", TESSERA_ONNX_KNOWN_FAILURES);
}

#if defined(TESSERA_ONNX_KNOWN_FAILURES_CPU)
// The cpu plugin under a strict config: an op it cannot take fails the case instead of falling
// back to the reference; ops it runs on the reference kernels count (reported "emulated").
TEST_CASE("ONNX node tests on the cpu backend") {
    run_suite("cpu!", TESSERA_ONNX_KNOWN_FAILURES_CPU);
}
#endif
