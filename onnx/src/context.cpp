// context.cpp: the importer's per-model state: input lookup (constants versus graph tensors),
// attribute readers with type checks, and emitting Tessera ops with statically inferred
// descriptors so that later nodes (Shape, Reshape, ...) see concrete dims.
#include "context.hpp"

namespace tessera::onnx::detail {

std::size_t context::input_count() const {
    return static_cast<std::size_t>(node->input_size());
}

bool context::has_input(std::size_t i) const {
    return i < input_count() && !node->input(static_cast<int>(i)).empty();
}

const std::string& context::input_name(std::size_t i) const {
    if (!has_input(i)) unsupported("input " + std::to_string(i) + " is missing");
    return node->input(static_cast<int>(i));
}

bool context::input_is_constant(std::size_t i) const {
    return values.at(input_name(i)).is_constant;
}

const host_tensor& context::constant_input(std::size_t i, const std::string& what) const {
    const auto& name = input_name(i);
    const value& v = values.at(name);
    if (v.is_constant) return v.constant;
    if (graph_inputs.count(name))
        throw node_needs_constant{name,
                                  what + " '" + name + "' must be a constant, is a graph input"};
    const auto sources = derived_from_.find(name);
    if (sources != derived_from_.end() && !sources->second.empty()) {
        const std::string& input = *sources->second.begin();
        throw node_needs_constant{
            input, what + " '" + name + "' must be a constant, is computed from graph input '" +
                       input + "'"};
    }
    unsupported(what + " '" + name + "' must be a constant, is computed by the graph");
}

tensor_desc context::input_desc(std::size_t i) const {
    const value& v = values.at(input_name(i));
    if (!v.is_constant && v.id < 0) unsupported(unusable_inputs.at(input_name(i)));
    if (!v.is_constant) return v.desc;
    const auto dt = tessera_dtype(v.constant.type);
    if (!dt)
        unsupported("dtype " + element_type_name(v.constant.type) + " of '" + input_name(i) +
                    "' is not in Tessera's dtype set");
    return tensor_desc(shape(v.constant.dims.begin(), v.constant.dims.end()), *dt);
}

shape context::input_dims(std::size_t i) const {
    return input_desc(i).dims();
}

graph::tensor_id context::constant_tensor(const host_tensor& t, const std::string& name_hint) {
    if (!t.has_tessera_type()) {
        unsupported("dtype " + element_type_name(t.type) + " of '" + name_hint +
                    "' is not in Tessera's dtype set");
    }
    const tensor value = t.to_tensor();
    const std::string name = fresh_name(name_hint);
    const auto id = g.constant(name, value);
    descs_[id] = g.desc(id);
    return id;
}

graph::tensor_id context::tensor_input(std::size_t i) {
    const auto& name = input_name(i);
    value& v = values.at(name);
    if (!v.is_constant && v.id < 0) unsupported(unusable_inputs.at(name));
    if (!v.is_constant) return v.id;
    if (v.id < 0) {
        v.id = constant_tensor(v.constant, name);
        v.desc = descs_.at(v.id);
    }
    return v.id;
}

std::size_t context::output_count() const {
    return static_cast<std::size_t>(node->output_size());
}

bool context::has_output(std::size_t i) const {
    return i < output_count() && !node->output(static_cast<int>(i)).empty();
}

const std::string& context::output_name(std::size_t i) const {
    if (!has_output(i)) unsupported("output " + std::to_string(i) + " is missing");
    return node->output(static_cast<int>(i));
}

const ::onnx::AttributeProto* context::attr(const std::string& name) const {
    for (const auto& a : node->attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

namespace {
[[noreturn]] void wrong_type(const std::string& name, const std::string& want) {
    throw node_unsupported{"attribute " + name + " is not of type " + want};
}
}  // namespace

std::int64_t context::attr_int(const std::string& name, std::int64_t fallback) const {
    const auto* a = attr(name);
    if (!a) return fallback;
    if (a->type() != ::onnx::AttributeProto::INT && !(a->type() == 0 && a->has_i()))
        wrong_type(name, "int");
    return a->i();
}

float context::attr_float(const std::string& name, float fallback) const {
    const auto* a = attr(name);
    if (!a) return fallback;
    if (a->type() != ::onnx::AttributeProto::FLOAT && !(a->type() == 0 && a->has_f()))
        wrong_type(name, "float");
    return a->f();
}

std::string context::attr_string(const std::string& name, const std::string& fallback) const {
    const auto* a = attr(name);
    if (!a) return fallback;
    if (a->type() != ::onnx::AttributeProto::STRING && !(a->type() == 0 && a->has_s()))
        wrong_type(name, "string");
    return a->s();
}

std::vector<std::int64_t> context::attr_ints(const std::string& name) const {
    const auto* a = attr(name);
    if (!a) return {};
    if (a->type() != ::onnx::AttributeProto::INTS && a->type() != 0) wrong_type(name, "ints");
    return {a->ints().begin(), a->ints().end()};
}

std::vector<float> context::attr_floats(const std::string& name) const {
    const auto* a = attr(name);
    if (!a) return {};
    if (a->type() != ::onnx::AttributeProto::FLOATS && a->type() != 0) wrong_type(name, "floats");
    return {a->floats().begin(), a->floats().end()};
}

void context::reject_attr(const std::string& name, const std::string& why) const {
    if (attr(name)) unsupported("attribute " + name + ": " + why);
}

std::string context::fresh_name(const std::string& hint) {
    const std::string name = hint.empty() ? node_label + "/t" : hint;
    if (!used_names_.count(name) && !reserved_names.count(name)) {
        used_names_.insert(name);
        return name;
    }
    for (;;) {
        std::string candidate = name + "/" + std::to_string(counter_++);
        if (!used_names_.count(candidate) && !reserved_names.count(candidate)) {
            used_names_.insert(candidate);
            return candidate;
        }
    }
}

std::string context::claim(const std::string& name) {
    used_names_.insert(name);
    return name;
}

void context::add_graph_tensor(const std::string& name, graph::tensor_id id,
                               const tensor_desc& desc) {
    used_names_.insert(name);
    descs_[id] = desc;
    value v;
    v.id = id;
    v.desc = desc;
    values[name] = v;
}

std::vector<graph::tensor_id> context::emit_multi(const op_desc& op,
                                                  const std::vector<graph::tensor_id>& inputs,
                                                  const std::vector<std::string>& outs) {
    std::vector<tensor_desc> in;
    for (auto id : inputs) in.push_back(descs_.at(id));
    std::vector<tensor_desc> out_descs;
    try {
        out_descs = op.infer(in);
    } catch (const error& e) {
        unsupported("Tessera's " + std::string(op.name()) + " rejects it: " + e.message());
    }
    // The graph inputs the node's outputs depend on.
    std::set<std::string> sources;
    for (const auto& in : node->input()) {
        if (graph_inputs.count(in)) sources.insert(in);
        const auto d = derived_from_.find(in);
        if (d != derived_from_.end()) sources.insert(d->second.begin(), d->second.end());
    }
    std::vector<graph::tensor_id> ids;
    for (std::size_t i = 0; i < out_descs.size(); ++i) {
        const std::string onnx_name = i < outs.size() ? outs[i] : std::string();
        const auto id =
            g.intermediate(onnx_name.empty() || used_names_.count(onnx_name) ? fresh_name(onnx_name)
                                                                             : claim(onnx_name));
        descs_[id] = out_descs[i];
        ids.push_back(id);
        if (!onnx_name.empty()) {
            value v;
            v.id = id;
            v.desc = out_descs[i];
            values[onnx_name] = v;
            derived_from_[onnx_name] = sources;
        }
    }
    g.node(fresh_node_name(), op, inputs, ids);
    return ids;
}

graph::tensor_id context::emit(const op_desc& op, const std::vector<graph::tensor_id>& inputs,
                               const std::string& out) {
    auto ids = emit_multi(op, inputs, {out});
    if (ids.size() != 1)
        unsupported("Tessera's " + std::string(op.name()) + " has several outputs");
    return ids[0];
}

std::string context::fresh_node_name() {
    std::string name = node_label;
    while (used_node_names_.count(name)) name = node_label + "/" + std::to_string(counter_++);
    used_node_names_.insert(name);
    return name;
}

void context::set_constant(const std::string& out, host_tensor t) {
    t.name = out;
    value v;
    v.is_constant = true;
    v.constant = std::move(t);
    values[out] = std::move(v);
}

graph::tensor_id context::reshape(graph::tensor_id in, const shape& dims, const std::string& out) {
    if (out.empty() && descs_.at(in).dims() == dims) return in;
    if (dims.rank() > TSR_MAX_DIMS)
        unsupported("rank " + std::to_string(dims.rank()) + " is too large");
    return emit(op::reshape().set_dims(dims), {in}, out);
}

}  // namespace tessera::onnx::detail
