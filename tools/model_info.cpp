// model_info.cpp: `tessera info` (model_commands.hpp). Prints what an ONNX model declares (opsets,
// inputs and outputs with their element types and dims, the census of its ONNX op types), then
// what Tessera makes of it: the imported graph's inputs and outputs with fixed shapes, its op
// census, and which backend of the config would take each op (or every node the importer cannot
// map, all at once).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <onnx/onnx_pb.h>

#include "model_commands.hpp"
#include "model_loading.hpp"

namespace tessera::cli {

namespace {

constexpr const char* info_usage =
    "usage: tessera info MODEL.onnx [--config STR] [--shape NAME=1x3x224x224]...\n";

std::string value_info_text(const ::onnx::ValueInfoProto& v) {
    std::string s = v.name() + ": ";
    if (!v.type().has_tensor_type()) return s + "(not a tensor)";
    const auto& t = v.type().tensor_type();
    s += onnx::element_type_name(static_cast<onnx::element_type>(t.elem_type())) + " [";
    for (int i = 0; i < t.shape().dim_size(); ++i) {
        const auto& d = t.shape().dim(i);
        if (i) s += ", ";
        s += d.has_dim_value() ? std::to_string(d.dim_value())
             : d.dim_param().empty() ? std::string("?")
                                     : d.dim_param();
    }
    return s + "]";
}

/// The model as the file declares it. Returns false when the file is not a readable model.
bool print_declared(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "tessera info: cannot open ONNX model '%s'\n", path.string().c_str());
        return false;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ::onnx::ModelProto model;
    if (bytes.size() > (std::size_t{1} << 31) - 1 ||
        !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
        std::fprintf(stderr, "tessera info: '%s' is not a valid ONNX ModelProto\n",
                     path.string().c_str());
        return false;
    }
    std::printf("model: %s\n", path.string().c_str());
    if (!model.producer_name().empty())
        std::printf("producer: %s %s\n", model.producer_name().c_str(),
                    model.producer_version().c_str());
    for (const auto& o : model.opset_import())
        std::printf("opset: %s %lld\n", o.domain().empty() ? "ai.onnx" : o.domain().c_str(),
                    static_cast<long long>(o.version()));
    const auto& g = model.graph();
    std::map<std::string, bool> initializer;
    for (const auto& t : g.initializer()) initializer[t.name()] = true;
    std::printf("declared inputs:\n");
    for (const auto& v : g.input())
        if (!initializer.count(v.name())) std::printf("  %s\n", value_info_text(v).c_str());
    std::printf("declared outputs:\n");
    for (const auto& v : g.output()) std::printf("  %s\n", value_info_text(v).c_str());
    std::map<std::string, int> census;
    for (const auto& n : g.node())
        ++census[(n.domain().empty() || n.domain() == "ai.onnx" ? "" : n.domain() + ".") +
                 n.op_type()];
    std::printf("ONNX ops (%d nodes, %d initializers):\n", g.node_size(), g.initializer_size());
    for (const auto& [op, count] : census) std::printf("  %-24s %d\n", op.c_str(), count);
    return true;
}

int info(const model_arguments& a) {
    if (!print_declared(a.model)) return 1;
    loaded_model m = load_model(a);
    std::printf("Tessera graph: %zu nodes\n", m.g.nodes().size());
    for (const auto& t : m.g.tensors()) {
        if (t.role == graph::tensor_role::input)
            std::printf("  input  %s: %s\n", t.name.c_str(), t.desc->to_string().c_str());
    }
    m.g.verify();
    for (std::size_t id = 0; id < m.g.tensors().size(); ++id) {
        const auto& t = m.g.tensors()[id];
        if (t.is_output)
            std::printf("  output %s: %s\n", t.name.c_str(),
                        m.g.desc(static_cast<graph::tensor_id>(id)).to_string().c_str());
    }
    std::map<std::string, int> census;
    for (const auto& n : m.g.nodes()) ++census[n.op.describe()];
    std::printf("Tessera ops:\n");
    for (const auto& [op, count] : census) std::printf("  %-28s %d\n", op.c_str(), count);
    const compiled_graph cg = m.g.compile(a.config);
    std::printf("config: %s\n%s%s\n", a.config.c_str(), placement_summary(cg).c_str(),
                cg.placement_report().c_str());
    return 0;
}

}  // namespace

int model_info_command(int argc, char** argv) {
    model_arguments a;
    try {
        for (int i = 1; i < argc; ++i) {
            if (!a.take(argc, argv, i))
                throw usage_error("unknown or incomplete argument '" + std::string(argv[i]) + "'");
        }
        if (a.model.empty()) throw usage_error("no model file given");
    } catch (const usage_error& e) {
        std::fprintf(stderr, "tessera info: %s\n%s", e.what(), info_usage);
        return 2;
    }
    try {
        return info(a);
    } catch (const onnx::import_error& e) {
        print_import_error(e);
    } catch (const error& e) {
        std::fprintf(stderr, "tessera info: %s\n", e.what());
    }
    return 1;
}

}  // namespace tessera::cli
