// bench_model.cpp: times one ONNX model on one Tessera config. Usage:
//   bench_model MODEL.onnx --config STR [--runs N] [--warmup N] [--input FILE.bin]
//               [--write-input PREFIX] [--write-output FILE.bin] [--report]
// The model's single float input gets uniform values in [-1, 1) from a fixed seed, or the raw
// float32 values of --input. --write-input writes them as PREFIX.bin plus PREFIX.json (input
// name and dims, output name and dims) for ort_bench.js; --write-output writes the output's raw
// float32 values; --report prints the placement report (each node's backend, then per partition
// its steps, fused and emulated nodes) to stderr. Prints one line
//   tessera config STR median_ms X min_ms Y runs N ops K emulated E conversions C placement B:n,...
// then one "emulated: node [op] on backend" line per node a backend ran on reference kernels.
// Exit status 3 when the model cannot be imported (the unmappable nodes on stderr).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <tessera/graph/compiled_graph.hpp>
#include <tessera/onnx/onnx.hpp>

namespace {

struct arguments {
    std::string model, config = "cpu", input_file, write_input, write_output;
    int runs = 30, warmup = 3;
    bool report = false;
};

arguments parse(int argc, char** argv) {
    arguments a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--config")
            a.config = value();
        else if (arg == "--runs")
            a.runs = std::max(1, std::stoi(value()));
        else if (arg == "--warmup")
            a.warmup = std::max(0, std::stoi(value()));
        else if (arg == "--input")
            a.input_file = value();
        else if (arg == "--write-input")
            a.write_input = value();
        else if (arg == "--write-output")
            a.write_output = value();
        else if (arg == "--report")
            a.report = true;
        else if (a.model.empty() && !arg.empty() && arg[0] != '-')
            a.model = arg;
        else
            throw std::invalid_argument("unknown argument '" + arg + "'");
    }
    if (a.model.empty()) throw std::invalid_argument("no model given");
    return a;
}

std::string dims_json(const tessera::tensor_desc& d) {
    std::string s = "[";
    for (int i = 0; i < d.rank(); ++i) s += (i ? ", " : "") + std::to_string(d.dim(i));
    return s + "]";
}

void write_raw(const std::string& path, const void* data, std::size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    if (!out) throw std::runtime_error("cannot write " + path);
}

tessera::tensor make_input(const tessera::tensor_desc& desc, const std::string& file) {
    tessera::tensor t(desc.with_layout(tessera::layout::row_major()));
    auto* p = static_cast<float*>(t.data());
    const auto count = static_cast<std::size_t>(t.num_elements());
    if (!file.empty()) {
        std::ifstream in(file, std::ios::binary);
        in.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(count * sizeof(float)));
        if (in.gcount() != static_cast<std::streamsize>(count * sizeof(float)))
            throw std::runtime_error(file + " holds fewer than " + std::to_string(count) +
                                     " float32 values");
        return t;
    }
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (std::size_t i = 0; i < count; ++i) p[i] = dist(rng);
    return t;
}

int run(const arguments& a) {
    tessera::graph g = tessera::onnx::load(a.model);
    std::string input_name;
    for (const auto& info : g.tensors()) {
        if (info.role != tessera::graph::tensor_role::input) continue;
        if (!input_name.empty()) throw std::runtime_error("the model has more than one input");
        input_name = info.name;
    }
    const auto& in_info = *std::find_if(g.tensors().begin(), g.tensors().end(),
                                        [&](const auto& t) { return t.name == input_name; });
    if (in_info.desc->type() != tessera::dtype::f32)
        throw std::runtime_error("the model's input is not float32");
    const std::map<std::string, tessera::tensor> inputs{
        {input_name, make_input(*in_info.desc, a.input_file)}};

    tessera::compiled_graph cg = g.compile(a.config);
    if (a.report) std::fprintf(stderr, "%s", cg.placement_report().c_str());
    std::map<std::string, tessera::tensor> outputs;
    for (int i = 0; i < a.warmup; ++i) outputs = cg.run(inputs);
    std::vector<double> ms;
    for (int i = 0; i < a.runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        outputs = cg.run(inputs);
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    if (outputs.size() != 1) throw std::runtime_error("the model has more than one output");
    const auto& [out_name, out_tensor] = *outputs.begin();
    const auto host = tessera::onnx::host_tensor::from_tensor(out_name, out_tensor);

    int ops = 0, emulated = 0, conversions = 0;
    std::map<std::string, int> per_backend;
    std::string emulated_lines;
    for (const auto& p : cg.placements()) {
        if (p.inserted) {
            ++conversions;
            continue;
        }
        ++ops;
        ++per_backend[p.backend];
        if (p.level == TSR_SUPPORT_EMULATED) {
            ++emulated;
            emulated_lines +=
                "emulated: " + p.node + " [" + p.description + "] on " + p.backend + "\n";
        }
    }
    std::string placement;
    for (const auto& [backend, count] : per_backend)
        placement += (placement.empty() ? "" : ",") + backend + ":" + std::to_string(count);
    std::printf(
        "tessera config %s median_ms %.3f min_ms %.3f runs %d ops %d emulated %d "
        "conversions %d placement %s\n%s",
        a.config.c_str(), median, ms.front(), a.runs, ops, emulated, conversions, placement.c_str(),
        emulated_lines.c_str());

    if (!a.write_input.empty()) {
        const tessera::tensor& in = inputs.begin()->second;
        write_raw(a.write_input + ".bin", in.data(),
                  static_cast<std::size_t>(in.num_elements()) * sizeof(float));
        std::ofstream json(a.write_input + ".json");
        json << "{\"input\": \"" << input_name << "\", \"input_dims\": " << dims_json(in.desc())
             << ", \"output\": \"" << out_name
             << "\", \"output_dims\": " << dims_json(out_tensor.desc()) << "}\n";
        if (!json) throw std::runtime_error("cannot write " + a.write_input + ".json");
    }
    if (!a.write_output.empty()) write_raw(a.write_output, host.bytes.data(), host.bytes.size());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    arguments a;
    try {
        a = parse(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_model: %s\n", e.what());
        return 2;
    }
    try {
        return run(a);
    } catch (const tessera::onnx::import_error& e) {
        std::fprintf(stderr, "bench_model: %s cannot be imported:\n", a.model.c_str());
        for (const auto& node : e.nodes())
            std::fprintf(stderr, "  unsupported: %s [%s]: %s\n", node.node.c_str(),
                         node.op_type.c_str(), node.reason.c_str());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_model: %s (config %s): %s\n", a.model.c_str(), a.config.c_str(),
                     e.what());
        return 1;
    }
}
