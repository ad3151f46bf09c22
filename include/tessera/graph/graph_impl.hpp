// tessera/graph/graph_impl.hpp: the definitions of graph's member functions (building, shape
// inference, verify). Part of the runtime: included once per program, by
// tessera/implementation.hpp.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/graph/graph.hpp"

namespace tessera {

graph::graph() = default;
graph::graph(const graph& other) = default;
graph::graph(graph&& other) noexcept = default;
graph& graph::operator=(const graph& other) = default;
graph& graph::operator=(graph&& other) noexcept = default;
graph::~graph() = default;

graph::tensor_id graph::input(const std::string& name, const tensor_desc& desc) {
    check_fed_layout("input", name, desc);
    return add_tensor(name, tensor_role::input, desc, {});
}

graph::tensor_id graph::constant(const std::string& name, const tensor& value) {
    check_fed_layout("constant", name, value.desc());
    if (!is_plain(value.desc())) {
        const tensor packed = value.clone();
        return add_tensor(name, tensor_role::constant, packed.desc(), packed);
    }
    return add_tensor(name, tensor_role::constant, value.desc(), value);
}

graph::tensor_id graph::intermediate(const std::string& name) {
    return add_tensor(name, tensor_role::intermediate, std::nullopt, {});
}

void graph::node(const std::string& name, const op_desc& op, const std::vector<tensor_id>& inputs,
                 const std::vector<tensor_id>& outputs) {
    for (auto id : inputs) check_id(id, name);
    for (auto id : outputs) check_id(id, name);
    for (const auto& n : nodes_)
        if (n.name == name)
            throw error(status::invalid_graph, "node name '" + name + "' is used twice",
                        {"", name, ""});
    nodes_.push_back({name, op, inputs, outputs});
    verified_ = false;
}

std::vector<graph::tensor_id> graph::add(const std::string& name, const op_desc& op,
                                         const std::vector<tensor_id>& inputs) {
    std::vector<tensor_desc> descs;
    for (auto id : inputs) {
        check_id(id, name);
        descs.push_back(desc_for_inference(id, name));
    }
    const std::vector<tensor_desc> inferred = op.infer(descs);
    const std::size_t n = inferred.size();
    std::vector<tensor_id> outputs;
    for (std::size_t i = 0; i < n; ++i)
        outputs.push_back(intermediate(n == 1 ? name : name + ":" + std::to_string(i)));
    node(name, op, inputs, outputs);
    // Known now, so desc() answers before verify() (which infers them again, equally).
    for (std::size_t i = 0; i < n; ++i)
        tensors_[static_cast<std::size_t>(outputs[i])].desc = inferred[i];
    return outputs;
}

graph::tensor_id graph::apply(const std::string& name, const op_desc& op,
                              const std::vector<tensor_id>& inputs) {
    auto outs = add(name, op, inputs);
    if (outs.size() != 1) {
        throw error(status::invalid_argument,
                    "has " + std::to_string(outs.size()) + " outputs; use add()", {"", name, ""});
    }
    return outs[0];
}

void graph::output(tensor_id id) {
    check_id(id, "output");
    tensors_[static_cast<std::size_t>(id)].is_output = true;
    verified_ = false;
}

const std::vector<int>& graph::verify() {
    if (verified_) return order_;
    std::vector<int> writer(tensors_.size(), -1);
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        for (auto id : nodes_[n].outputs) {
            auto& t = tensors_[static_cast<std::size_t>(id)];
            if (t.role != tensor_role::intermediate) {
                throw error(status::invalid_graph,
                            "writes " + role_name(t.role) + " '" + t.name + "'",
                            {"", nodes_[n].name, t.name});
            }
            if (writer[id] >= 0) {
                throw error(status::invalid_graph,
                            "tensor '" + t.name + "' has two writers: '" + nodes_[writer[id]].name +
                                "' and '" + nodes_[n].name + "'",
                            {"", nodes_[n].name, t.name});
            }
            writer[id] = static_cast<int>(n);
        }
    }
    bool any_output = false;
    for (std::size_t i = 0; i < tensors_.size(); ++i) {
        const auto& t = tensors_[i];
        any_output |= t.is_output;
        if (t.role == tensor_role::intermediate && writer[i] < 0) {
            bool read = false;
            for (const auto& n : nodes_)
                for (auto id : n.inputs) read |= id == static_cast<int>(i);
            if (read || t.is_output) {
                throw error(status::invalid_graph,
                            "virtual tensor '" + t.name + "' is read but no node writes it",
                            {"", "", t.name});
            }
        }
    }
    if (!any_output) throw error(status::invalid_graph, "no tensor is marked as a graph output");

    // Kahn's algorithm over node dependencies; leftovers are on a cycle.
    std::vector<int> pending(nodes_.size(), 0);
    std::vector<std::vector<int>> consumers(nodes_.size());
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        for (auto id : nodes_[n].inputs) {
            const int w = writer[id];
            if (w >= 0) {
                ++pending[n];
                consumers[w].push_back(static_cast<int>(n));
            }
        }
    }
    std::vector<int> order;
    for (std::size_t n = 0; n < nodes_.size(); ++n)
        if (pending[n] == 0) order.push_back(static_cast<int>(n));
    for (std::size_t i = 0; i < order.size(); ++i)
        for (int c : consumers[order[i]])
            if (--pending[c] == 0) order.push_back(c);
    if (order.size() != nodes_.size()) {
        std::string cycle;
        for (std::size_t n = 0; n < nodes_.size(); ++n)
            if (pending[n] > 0) cycle += (cycle.empty() ? "" : ", ") + nodes_[n].name;
        throw error(status::invalid_graph, "cycle through nodes " + cycle);
    }
    for (int n : order) {
        auto& nd = nodes_[n];
        std::vector<tensor_desc> in;
        for (auto id : nd.inputs) in.push_back(*tensors_[id].desc);
        std::vector<tensor_desc> out;
        try {
            out = nd.op.infer(in);
        } catch (const error& e) {
            throw error(e.code(), e.message(),
                        {"", nd.name + " (" + std::string(nd.op.name()) + ")", e.tensor()});
        }
        if (out.size() != nd.outputs.size()) {
            throw error(status::invalid_graph,
                        "produces " + std::to_string(out.size()) + " outputs but " +
                            std::to_string(nd.outputs.size()) + " tensors are attached",
                        {"", nd.name, ""});
        }
        for (std::size_t i = 0; i < out.size(); ++i) tensors_[nd.outputs[i]].desc = out[i];
    }
    order_ = order;
    verified_ = true;
    return order_;
}

const tensor_desc& graph::desc(tensor_id id) const {
    const auto& t = tensors_.at(static_cast<std::size_t>(id));
    if (!t.desc)
        throw error(status::invalid_graph,
                    "descriptor of '" + t.name +
                        "' is not known before verify() (it was attached with node())",
                    {"", "", t.name});
    return *t.desc;
}

graph::tensor_id graph::find(const std::string& name) const {
    for (std::size_t i = 0; i < tensors_.size(); ++i)
        if (tensors_[i].name == name) return static_cast<tensor_id>(i);
    throw error(status::not_found, "no tensor named '" + name + "'");
}

std::string graph::role_name(tensor_role r) {
    return r == tensor_role::input      ? "input"
           : r == tensor_role::constant ? "constant"
                                        : "intermediate";
}

graph::tensor_id graph::add_tensor(const std::string& name, tensor_role role,
                                   std::optional<tensor_desc> desc, tensor value) {
    if (name.empty()) throw error(status::invalid_argument, "tensors need a name");
    for (const auto& t : tensors_)
        if (t.name == name)
            throw error(status::invalid_graph, "tensor name '" + name + "' is used twice",
                        {"", "", name});
    if (desc && !desc->is_strided()) {
        throw error(status::invalid_argument, "graph inputs and constants need a strided layout",
                    {"", "", name});
    }
    tensors_.push_back({name, role, std::move(desc), std::move(value), false});
    verified_ = false;
    return static_cast<tensor_id>(tensors_.size() - 1);
}

void graph::check_fed_layout(const std::string& role, const std::string& name,
                             const tensor_desc& desc) {
    if (!is_valid(desc.type())) {
        throw error(
            status::invalid_argument,
            "dtype value " + std::to_string(static_cast<int>(desc.type())) + " is not valid",
            {"", role, name});
    }
    if (const auto problem = desc.layout_problem(overlap::rejected)) {
        throw error(status::invalid_argument,
                    "layout " + desc.to_string() + " is not accepted: " + *problem,
                    {"", role, name});
    }
}

void graph::check_id(tensor_id id, const std::string& where) const {
    if (id < 0 || static_cast<std::size_t>(id) >= tensors_.size()) {
        throw error(status::invalid_graph, "unknown tensor id " + std::to_string(id),
                    {"", where, ""});
    }
}

tensor_desc graph::desc_for_inference(tensor_id id, const std::string& where) {
    auto& t = tensors_[static_cast<std::size_t>(id)];
    if (t.desc) return *t.desc;
    for (const auto& n : nodes_) {
        for (std::size_t i = 0; i < n.outputs.size(); ++i) {
            if (n.outputs[i] != id) continue;
            std::vector<tensor_desc> in;
            for (auto x : n.inputs) in.push_back(desc_for_inference(x, n.name));
            std::vector<tensor_desc> out;
            try {
                out = n.op.infer(in);
            } catch (const error& e) {
                throw error(e.code(), e.message(),
                            {"", n.name + " (" + std::string(n.op.name()) + ")", e.tensor()});
            }
            if (i >= out.size()) {
                throw error(status::invalid_graph,
                            "output " + std::to_string(i) + " is attached but the op produces " +
                                std::to_string(out.size()) + " outputs",
                            {"", n.name + " (" + std::string(n.op.name()) + ")", t.name});
            }
            t.desc = out[i];
            return *t.desc;
        }
    }
    throw error(status::invalid_graph, "tensor '" + t.name + "' has no writer yet",
                {"", where, t.name});
}

}  // namespace tessera
