// model_loader.cpp: tessera::onnx::load(): parses a ModelProto, checks the opset and domains,
// turns graph inputs and initializers into graph inputs and constants, maps every node (folding
// constants on the way), collects every node it cannot map into one import_error, and marks the
// model's outputs.
#include <climits>
#include <fstream>
#include <iterator>

#include "context.hpp"

namespace tessera::onnx {

namespace {

constexpr int min_opset = 1;
constexpr int max_opset = 17;
constexpr std::size_t max_model_bytes = std::size_t{INT_MAX};

std::string join_reasons(const std::vector<unsupported_node>& nodes) {
    std::string text = std::to_string(nodes.size()) + " node(s) cannot be imported:";
    for (const auto& n : nodes) text += "\n  " + n.node + " (" + n.op_type + "): " + n.reason;
    return text;
}

bool is_default_domain(const std::string& d) {
    return d.empty() || d == "ai.onnx";
}

int model_opset(const ::onnx::ModelProto& m) {
    int opset = -1;
    for (const auto& o : m.opset_import())
        if (is_default_domain(o.domain())) opset = static_cast<int>(o.version());
    if (opset < 0 && m.opset_import_size() == 0) opset = 1;  // IR version 2 models
    if (opset < 0) throw error(status::unsupported, "the model imports no ai.onnx opset");
    if (opset < min_opset || opset > max_opset) {
        throw error(status::unsupported,
                    "ai.onnx opset " + std::to_string(opset) + " is outside the supported range " +
                        std::to_string(min_opset) + " to " + std::to_string(max_opset));
    }
    return opset;
}

/// The static dims of graph input `vi`, from the model and options.input_shapes.
shape input_shape(const ::onnx::ValueInfoProto& vi, const load_options& options) {
    const auto& tt = vi.type().tensor_type();
    const auto fixed = options.input_shapes.find(vi.name());
    if (!tt.has_shape()) {
        if (fixed != options.input_shapes.end()) return fixed->second;
        throw error(status::invalid_argument,
                    "has no shape in the model; give it in load_options::input_shapes",
                    {"", "", vi.name()});
    }
    const auto& dims = tt.shape().dim();
    if (dims.size() > TSR_MAX_DIMS) {
        throw error(status::unsupported,
                    "rank " + std::to_string(dims.size()) + " exceeds Tessera's " +
                        std::to_string(TSR_MAX_DIMS),
                    {"", "", vi.name()});
    }
    if (fixed != options.input_shapes.end()) {
        const shape& s = fixed->second;
        if (s.rank() != dims.size()) {
            throw error(status::invalid_argument,
                        "load_options::input_shapes gives rank " + std::to_string(s.rank()) +
                            ", the model has rank " + std::to_string(dims.size()),
                        {"", "", vi.name()});
        }
        for (int i = 0; i < s.rank(); ++i) {
            const auto& d = dims.Get(i);
            if (d.has_dim_value() && d.dim_value() != s[i]) {
                throw error(status::invalid_argument,
                            "load_options::input_shapes gives dim " + std::to_string(i) + " = " +
                                std::to_string(s[i]) + ", the model fixes it to " +
                                std::to_string(d.dim_value()),
                            {"", "", vi.name()});
            }
        }
        return s;
    }
    std::vector<std::int64_t> out;
    for (int i = 0; i < dims.size(); ++i) {
        const auto& d = dims.Get(i);
        if (!d.has_dim_value() || d.dim_value() < 0) {
            throw error(status::invalid_argument,
                        "dim " + std::to_string(i) +
                            (d.has_dim_param() ? " ('" + d.dim_param() + "')" : std::string()) +
                            " is dynamic; fix it with load_options::input_shapes",
                        {"", "", vi.name()});
        }
        out.push_back(d.dim_value());
    }
    return shape(out.begin(), out.end());
}

class model_importer {
  public:
    model_importer(const ::onnx::ModelProto& model, const load_options& options)
        : model_(model), ctx_(model_opset(model), options) {}

    graph run() {
        const auto& g = model_.graph();
        reserve_names(g);
        add_initializers(g);
        add_inputs(g);
        for (int k = 0; k < g.node_size(); ++k) map_node(g.node(k), k);
        mark_outputs(g);
        if (!failures_.empty()) throw import_error(failures_, needs_constant_);
        return std::move(ctx_.g);
    }

  private:
    void reserve_names(const ::onnx::GraphProto& g) {
        for (const auto& i : g.input()) ctx_.reserved_names.insert(i.name());
        for (const auto& i : g.initializer()) ctx_.reserved_names.insert(i.name());
        for (const auto& n : g.node())
            for (const auto& o : n.output()) ctx_.reserved_names.insert(o);
        for (const auto& o : g.output()) ctx_.graph_outputs.insert(o.name());
    }

    void add_initializers(const ::onnx::GraphProto& g) {
        for (const auto& init : g.initializer()) {
            if (init.name().empty()) throw error(status::parse_error, "an initializer has no name");
            ctx_.set_constant(init.name(), detail::from_proto(init));
        }
        if (g.sparse_initializer_size() > 0)
            throw error(status::unsupported, "sparse initializers are not supported");
    }

    void add_inputs(const ::onnx::GraphProto& g) {
        for (const auto& vi : g.input()) {
            const std::string& name = vi.name();
            if (name.empty()) throw error(status::parse_error, "a graph input has no name");
            const auto bound = ctx_.options.constant_inputs.find(name);
            if (bound != ctx_.options.constant_inputs.end()) {
                ctx_.set_constant(name, bound->second);
                continue;
            }
            // Inputs that have an initializer are constants with a default (IR < 4 style).
            if (ctx_.values.count(name)) continue;
            if (!vi.type().has_tensor_type()) {
                poison(name,
                       "graph input '" + name + "' is not a tensor (sequence, map or optional)");
                continue;
            }
            const auto et = static_cast<element_type>(vi.type().tensor_type().elem_type());
            const auto dt = detail::tessera_dtype(et);
            if (!dt) {
                // Usable only where the node needs a constant (bind it in constant_inputs).
                ctx_.values[name] = detail::value{};
                ctx_.graph_inputs.insert(name);
                ctx_.unusable_inputs[name] = "graph input '" + name + "' has dtype " +
                                             element_type_name(et) +
                                             ", which is not in Tessera's dtype set";
                continue;
            }
            const tensor_desc desc(input_shape(vi, ctx_.options), *dt);
            const auto id = ctx_.g.input(name, desc);
            ctx_.add_graph_tensor(name, id, desc);
            ctx_.graph_inputs.insert(name);
        }
    }

    void poison(const std::string& name, const std::string& reason) { poisoned_[name] = reason; }

    void fail(const std::string& label, const std::string& op_type, const std::string& reason) {
        failures_.push_back({label, op_type, reason});
    }

    void map_node(const ::onnx::NodeProto& n, int index) {
        const std::string label =
            n.name().empty() ? n.op_type() + "#" + std::to_string(index) : n.name();
        const auto poison_outputs = [&] {
            for (const auto& o : n.output())
                if (!o.empty()) poison(o, "");
        };
        if (!is_default_domain(n.domain())) {
            fail(label, n.op_type(), "domain '" + n.domain() + "' is not supported (ai.onnx only)");
            return poison_outputs();
        }
        const auto& table = detail::mappers();
        const auto mapper = table.find(n.op_type());
        // Inputs that failed upstream: report this node only when it would fail by itself too.
        std::string inherited;
        bool upstream_failed = false;
        for (const auto& in : n.input()) {
            if (in.empty()) continue;
            const auto p = poisoned_.find(in);
            if (p != poisoned_.end()) {
                upstream_failed = true;
                if (!p->second.empty() && inherited.empty()) inherited = p->second;
                continue;
            }
            if (!ctx_.values.count(in)) {
                throw error(status::invalid_graph,
                            "reads '" + in +
                                "', which no node, input or initializer defines "
                                "before it",
                            {"", label + " (" + n.op_type() + ")", in});
            }
        }
        if (mapper == table.end()) {
            fail(label, n.op_type(), "op not in the Tessera op set yet: " + n.op_type());
            return poison_outputs();
        }
        if (upstream_failed) {
            if (!inherited.empty()) fail(label, n.op_type(), inherited);
            return poison_outputs();
        }
        ctx_.node = &n;
        ctx_.node_label = label;
        try {
            mapper->second(ctx_);
            for (const auto& o : n.output()) {
                if (!o.empty() && !ctx_.values.count(o))
                    ctx_.unsupported("output '" + o + "' is not produced by the import");
            }
        } catch (const detail::node_unsupported& e) {
            fail(label, n.op_type(), e.reason);
            poison_outputs();
        } catch (const detail::node_needs_constant& e) {
            fail(label, n.op_type(), e.reason);
            needs_constant_.push_back(e.input);
            poison_outputs();
        } catch (const error& e) {
            fail(label, n.op_type(), e.message());
            poison_outputs();
        }
    }

    void mark_outputs(const ::onnx::GraphProto& g) {
        if (g.output_size() == 0) throw error(status::invalid_graph, "the model has no outputs");
        for (const auto& o : g.output()) {
            const std::string& name = o.name();
            const auto p = poisoned_.find(name);
            if (p != poisoned_.end()) {
                if (!p->second.empty()) fail(name, "(graph output)", p->second);
                continue;
            }
            const auto v = ctx_.values.find(name);
            if (v == ctx_.values.end())
                throw error(status::invalid_graph, "graph output '" + name + "' is never computed");
            ::onnx::NodeProto identity;
            identity.set_op_type("Identity");
            ctx_.node = &identity;
            ctx_.node_label = name + "/output";
            try {
                graph::tensor_id id = -1;
                if (!v->second.is_constant && v->second.id < 0) {
                    fail(name, "(graph output)", ctx_.unusable_inputs[name]);
                    continue;
                }
                if (v->second.is_constant) {
                    const auto c = ctx_.constant_tensor(v->second.constant, name + "/value");
                    id = ctx_.reshape(c, ctx_.desc_of(c).dims(), name);
                } else if (ctx_.graph_inputs.count(name) || marked_.count(v->second.id)) {
                    id = ctx_.reshape(v->second.id, v->second.desc.dims(), name + "/output");
                } else {
                    id = v->second.id;
                }
                marked_.insert(id);
                ctx_.g.output(id);
            } catch (const detail::node_unsupported& e) {
                fail(name, "(graph output)", e.reason);
            }
        }
    }

    const ::onnx::ModelProto& model_;
    detail::context ctx_;
    std::map<std::string, std::string> poisoned_;
    std::vector<unsupported_node> failures_;
    std::vector<std::string> needs_constant_;
    std::set<graph::tensor_id> marked_;
};

}  // namespace

import_error::import_error(std::vector<unsupported_node> nodes,
                           std::vector<std::string> needs_constant)
    : error(status::unsupported, join_reasons(nodes)),
      nodes_(std::move(nodes)),
      needs_constant_(std::move(needs_constant)) {}

graph load(const void* data, std::size_t size, const load_options& options) {
    if (!data && size > 0) throw error(status::invalid_argument, "model bytes are null");
    if (size > max_model_bytes)
        throw error(status::unsupported, "models larger than 2 GiB are not supported");
    ::onnx::ModelProto model;
    if (!model.ParseFromArray(data, static_cast<int>(size)))
        throw error(status::parse_error, "the bytes are not a valid ONNX ModelProto");
    if (!model.has_graph()) throw error(status::parse_error, "the model has no graph");
    model_importer importer(model, options);
    return importer.run();
}

graph load(const std::filesystem::path& path, const load_options& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(status::not_found, "cannot open ONNX model '" + path.string() + "'");
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    return load(bytes.data(), bytes.size(), options);
}

host_tensor read_tensor(const void* data, std::size_t size) {
    if (!data && size > 0) throw error(status::invalid_argument, "tensor bytes are null");
    if (size > max_model_bytes)
        throw error(status::unsupported, "tensors larger than 2 GiB are not supported");
    ::onnx::TensorProto proto;
    if (!proto.ParseFromArray(data, static_cast<int>(size)))
        throw error(status::parse_error, "the bytes are not a valid ONNX TensorProto");
    return detail::from_proto(proto);
}

host_tensor read_tensor(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(status::not_found, "cannot open tensor file '" + path.string() + "'");
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    return read_tensor(bytes.data(), bytes.size());
}

std::vector<std::string> supported_op_types() {
    std::vector<std::string> out;
    for (const auto& [name, m] : detail::mappers()) out.push_back(name);
    return out;
}

namespace detail {
const mapper_table& mappers() {
    static const mapper_table table = [] {
        mapper_table t;
        register_folding(t);
        register_elementwise(t);
        register_nn(t);
        register_shape_ops(t);
        register_reduce(t);
        register_indexing(t);
        register_lowered(t);
        register_by_index(t);
        register_einsum(t);
        register_recurrent(t);
        register_quantized(t);
        return t;
    }();
    return table;
}
}  // namespace detail

}  // namespace tessera::onnx
