// model_run.cpp: `tessera run` (model_commands.hpp). Loads an ONNX model, compiles it for a
// config, runs it --repeat times (after one warm-up run), writes each output as
// <output-dir>/<name>.npy, and prints the placement summary, the latency, the largest difference
// against another config (--compare) and an op-by-op profile (--profile).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

#include "model_commands.hpp"
#include "model_loading.hpp"
#include "npy.hpp"
#include "op_profile.hpp"
#include "run_timing.hpp"

namespace tessera::cli {

namespace {

constexpr const char* run_usage =
    "usage: tessera run MODEL.onnx [--config STR] [--input NAME=FILE.npy]...\n"
    "                   [--shape NAME=1x3x224x224]... [--repeat N] [--compare CONFIG]\n"
    "                   [--output-dir DIR] [--profile [TRACE.json]]\n";

struct run_arguments {
    model_arguments common;
    int repeat = 10;
    std::optional<std::string> compare;
    std::filesystem::path output_dir = ".";
    bool profile = false;
    std::optional<std::filesystem::path> trace;
};

run_arguments parse(int argc, char** argv) {
    run_arguments a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (a.common.take(argc, argv, i)) continue;
        if (arg == "--repeat" && i + 1 < argc) {
            const std::string v = argv[++i];
            if (v.empty() || v.size() > 7 || v.find_first_not_of("0123456789") != std::string::npos ||
                std::stoi(v) < 1)
                throw usage_error("--repeat takes a count >= 1, got '" + v + "'");
            a.repeat = std::stoi(v);
        } else if (arg == "--compare" && i + 1 < argc) {
            a.compare = argv[++i];
        } else if (arg == "--output-dir" && i + 1 < argc) {
            a.output_dir = argv[++i];
        } else if (arg == "--profile") {
            a.profile = true;
            const std::string next = i + 1 < argc ? argv[i + 1] : "";
            if (next.size() > 5 && next.compare(next.size() - 5, 5, ".json") == 0) {
                a.trace = next;
                ++i;
            }
        } else {
            throw usage_error("unknown or incomplete argument '" + arg + "'");
        }
    }
    if (a.common.model.empty()) throw usage_error("no model file given");
    return a;
}

/// Largest |a - b| over two outputs of the same shape; NaN against a number counts as infinite.
double max_abs_diff(const onnx::host_tensor& a, const onnx::host_tensor& b) {
    if (a.dims != b.dims) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (std::int64_t i = 0; i < a.num_elements(); ++i) {
        const double x = a.real(i), y = b.real(i);
        if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) return std::numeric_limits<double>::infinity();
            continue;
        }
        if (x != y) worst = std::max(worst, std::fabs(x - y));
    }
    return worst;
}

/// A file name for an output: its name with path separators replaced.
std::string file_name_for(std::string name) {
    for (char& c : name)
        if (c == '/' || c == '\\' || c == '\0') c = '_';
    if (name.empty() || name == "." || name == "..") name = "output_" + name;
    return name + ".npy";
}

int run(const run_arguments& a) {
    loaded_model m = load_model(a.common);
    std::printf("model: %s (%zu nodes)\n", a.common.model.string().c_str(), m.g.nodes().size());
    for (const auto& name : m.generated)
        std::printf("input %s: %s, generated (seed %s)\n", name.c_str(),
                    m.inputs.at(name).desc().to_string().c_str(), "0");
    compiled_graph cg = m.g.compile(a.common.config);
    std::printf("config: %s\n%s", a.common.config.c_str(), placement_summary(cg).c_str());

    std::map<std::string, tensor> outputs = cg.run(m.inputs);  // warm-up
    const run_times t = time_runs(a.repeat, [&] { outputs = cg.run(m.inputs); }, "tessera run");
    std::printf("latency over %d run(s): min %.3f ms, median %.3f ms\n", t.runs, t.min_ms,
                t.median_ms);

    std::filesystem::create_directories(a.output_dir);
    std::map<std::string, onnx::host_tensor> host;
    for (const auto& [name, value] : outputs) {
        auto h = onnx::host_tensor::from_tensor(name, value);
        const auto path = a.output_dir / file_name_for(name);
        write_npy(path, h);
        std::printf("output %s: %s -> %s\n", name.c_str(), value.desc().to_string().c_str(),
                    path.string().c_str());
        host.emplace(name, std::move(h));
    }

    if (a.compare) {
        compiled_graph other = m.g.compile(*a.compare);
        const auto theirs = other.run(m.inputs);
        double worst = 0;
        for (const auto& [name, value] : theirs) {
            const double d = max_abs_diff(host.at(name), onnx::host_tensor::from_tensor(name, value));
            worst = std::max(worst, d);
            std::printf("compare %s: %s max |diff| %g\n", a.compare->c_str(), name.c_str(), d);
        }
        std::printf("compare %s: max |diff| %g over all outputs\n", a.compare->c_str(), worst);
    }

    if (a.profile) {
        const auto ops = profile_ops(m.g, a.common.config, m.inputs, std::min(a.repeat, 20));
        std::printf("%s", profile_table(ops, t.median_ms).c_str());
        if (a.trace) {
            write_chrome_trace(*a.trace, ops, t.median_ms);
            std::printf("trace: %s\n", a.trace->string().c_str());
        }
    }
    return 0;
}

}  // namespace

int run_model_command(int argc, char** argv) {
    run_arguments a;
    try {
        a = parse(argc, argv);
    } catch (const usage_error& e) {
        std::fprintf(stderr, "tessera run: %s\n%s", e.what(), run_usage);
        return 2;
    }
    try {
        return run(a);
    } catch (const onnx::import_error& e) {
        print_import_error(e);
    } catch (const error& e) {
        std::fprintf(stderr, "tessera run: %s\n", e.what());
    } catch (const std::exception& e) {  // file system errors writing the outputs
        std::fprintf(stderr, "tessera run: %s\n", e.what());
    }
    return 1;
}

}  // namespace tessera::cli
