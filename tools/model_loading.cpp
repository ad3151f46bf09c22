// model_loading.cpp: common arguments, model loading, run inputs and the placement summary of the
// model commands (model_loading.hpp).
#include "model_loading.hpp"

#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>

#include <tessera/numeric/convert.hpp>

#include "npy.hpp"

namespace tessera::cli {

namespace {

/// "NAME=VALUE" of an option's argument.
std::pair<std::string, std::string> split_assignment(const std::string& text,
                                                     const std::string& flag) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw usage_error(flag + " takes NAME=VALUE, got '" + text + "'");
    return {text.substr(0, eq), text.substr(eq + 1)};
}

/// Reproducible values for an input the user did not give.
tensor generated_input(const tensor_desc& desc, unsigned seed) {
    tensor t(desc.with_layout(layout::row_major()));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> real(-1.0, 1.0);
    std::uniform_int_distribution<int> small(0, 3);
    const std::size_t size = size_of(t.type());
    auto* p = static_cast<unsigned char*>(t.data());
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        const double v = is_floating(t.type())      ? real(rng)
                         : t.type() == dtype::boolean ? small(rng) % 2
                                                      : small(rng);
        numeric::store_raw(t.type(), p + static_cast<std::size_t>(i) * size, v);
    }
    return t;
}

}  // namespace

shape parse_dims(const std::string& text, const std::string& flag) {
    std::vector<std::int64_t> dims;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t x = text.find('x', at);
        const std::string part = text.substr(at, x == std::string::npos ? std::string::npos : x - at);
        if (part.empty() || part.size() > 12 || part.find_first_not_of("0123456789") != std::string::npos)
            throw usage_error(flag + ": '" + text + "' is not a shape such as 1x3x224x224");
        dims.push_back(std::stoll(part));
        if (x == std::string::npos) break;
        at = x + 1;
    }
    return shape(dims.begin(), dims.end());
}

bool model_arguments::take(int argc, char** argv, int& i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw usage_error(arg + " needs a value");
        return argv[++i];
    };
    if (arg == "--config") {
        config = value();
    } else if (arg == "--shape") {
        const auto [name, dims] = split_assignment(value(), arg);
        shapes[name] = parse_dims(dims, arg);
    } else if (arg == "--input") {
        const auto [name, file] = split_assignment(value(), arg);
        input_files[name] = file;
    } else if (!arg.empty() && arg[0] != '-' && model.empty()) {
        model = arg;
    } else {
        return false;
    }
    return true;
}

loaded_model load_model(const model_arguments& args) {
    std::map<std::string, onnx::host_tensor> files;
    onnx::load_options options;
    options.input_shapes = args.shapes;
    for (const auto& [name, path] : args.input_files) {
        auto t = read_npy(path, name);
        if (!options.input_shapes.count(name))
            options.input_shapes[name] = shape(t.dims.begin(), t.dims.end());
        files.emplace(name, std::move(t));
    }
    loaded_model m{onnx::load(args.model, options), {}, {}};
    unsigned seed = 0;
    for (const auto& info : m.g.tensors()) {
        if (info.role != graph::tensor_role::input) continue;
        const auto file = files.find(info.name);
        if (file != files.end()) {
            m.inputs.emplace(info.name, file->second.to_tensor());
            files.erase(file);
        } else {
            m.inputs.emplace(info.name, generated_input(*info.desc, seed));
            m.generated.push_back(info.name);
        }
        ++seed;
    }
    if (!files.empty()) {
        std::string names;
        for (const auto& [name, t] : files) names += (names.empty() ? "" : ", ") + name;
        throw error(status::invalid_argument,
                    "--input names no graph input of the model: " + names);
    }
    return m;
}

void print_import_error(const onnx::import_error& e) {
    std::fprintf(stderr, "tessera: the model has %zu node(s) Tessera cannot import:\n",
                 e.nodes().size());
    for (const auto& n : e.nodes())
        std::fprintf(stderr, "  %s [%s]: %s\n", n.node.c_str(), n.op_type.c_str(), n.reason.c_str());
    for (const auto& name : e.needs_constant())
        std::fprintf(stderr, "  input %s would have to be a constant\n", name.c_str());
}

std::string placement_summary(const compiled_graph& cg) {
    std::map<std::string, std::pair<int, int>> per_backend;  // native, emulated
    std::ostringstream emulated, declined;
    int inserted = 0;
    for (const auto& p : cg.placements()) {
        if (p.inserted) {
            ++inserted;
            continue;
        }
        auto& counts = per_backend[p.backend];
        if (p.level == TSR_SUPPORT_EMULATED) {
            ++counts.second;
            emulated << "  emulated: " << p.node << " [" << p.description << "] on " << p.backend
                     << "\n";
        } else {
            ++counts.first;
        }
        for (const auto& d : p.declined)
            declined << "  declined: " << p.node << " [" << p.description << "] by " << d << "\n";
    }
    std::ostringstream s;
    s << "placement:";
    for (const auto& [backend, counts] : per_backend) {
        s << " " << backend << " " << counts.first + counts.second << " op(s)";
        if (counts.second) s << " (" << counts.second << " emulated)";
        s << ";";
    }
    s << " " << inserted << " conversion(s) inserted\n" << emulated.str() << declined.str();
    return s.str();
}

}  // namespace tessera::cli
