// tessera/graph/graph.hpp: graph, a network of named tensors and ops described once. Inputs and
// constants have concrete descriptors; intermediate tensors are virtual and get their shape from
// inference. verify() checks one writer per tensor, no cycles, inputs fed, and infers shapes;
// compile() (graph/compiled_graph.hpp) places it on backends for a config string.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

class compiled_graph;

/// Thread safety: not thread-safe; use one graph from one thread at a time. verify() and
/// compile() update cached state, so even two compiles of one graph must not overlap. Separate
/// graphs may be built and compiled on separate threads at once, also when they share constant
/// tensors (compiling only reads them). The compiled_graph a compile returns is independent of
/// the graph.
class graph {
  public:
    using tensor_id = int;

    enum class tensor_role { input, constant, intermediate };

    struct tensor_info {
        std::string name;
        tensor_role role = tensor_role::intermediate;
        std::optional<tensor_desc> desc;  ///< known for inputs and constants; inferred otherwise
        tensor value;                     ///< constants only
        bool is_output = false;
    };

    struct node_info {
        std::string name;
        op_desc op;
        std::vector<tensor_id> inputs;
        std::vector<tensor_id> outputs;
    };

    /// A graph input fed at every run. `desc` needs a valid dtype and a strided layout that is
    /// addressable and non-overlapping (tensor_desc.hpp); run() accepts a tensor of the same
    /// dims and dtype in any addressable layout, and backends see inputs that are not dense
    /// with non-negative strides and no offset as row-major.
    tensor_id input(const std::string& name, const tensor_desc& desc) {
        check_fed_layout("input", name, desc);
        return add_tensor(name, tensor_role::input, desc, {});
    }
    /// A constant (weights): the graph shares `value`'s memory, so keep it unchanged or clone().
    /// Its layout must be accepted as an input's; a layout that is not dense with non-negative
    /// strides and no offset (a reversed or padded view) is copied to row-major here instead.
    tensor_id constant(const std::string& name, const tensor& value) {
        check_fed_layout("constant", name, value.desc());
        if (!is_plain(value.desc())) {
            const tensor packed = value.clone();
            return add_tensor(name, tensor_role::constant, packed.desc(), packed);
        }
        return add_tensor(name, tensor_role::constant, value.desc(), value);
    }

    /// Dense with non-negative strides and no offset: the layouts handed to backends as they are.
    static bool is_plain(const tensor_desc& d) {
        if (!d.is_strided() || d.offset() != 0 || !d.is_dense()) return false;
        for (int i = 0; i < d.rank(); ++i)
            if (d.stride(i) < 0) return false;
        return true;
    }
    /// A virtual intermediate tensor whose descriptor comes from inference.
    tensor_id intermediate(const std::string& name) {
        return add_tensor(name, tensor_role::intermediate, std::nullopt, {});
    }

    /// Adds a node reading `inputs` and writing existing tensors `outputs`.
    void node(const std::string& name, const op_desc& op, const std::vector<tensor_id>& inputs,
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

    /// Adds a node and creates its outputs as intermediates named "<name>" (one output) or
    /// "<name>:<i>"; returns their ids.
    std::vector<tensor_id> add(const std::string& name, const op_desc& op,
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
    /// add() for single-output ops.
    tensor_id apply(const std::string& name, const op_desc& op,
                    const std::vector<tensor_id>& inputs) {
        auto outs = add(name, op, inputs);
        if (outs.size() != 1) {
            throw error(status::invalid_argument,
                        "has " + std::to_string(outs.size()) + " outputs; use add()",
                        {"", name, ""});
        }
        return outs[0];
    }

    /// Marks a tensor as a graph output (read back after each run).
    void output(tensor_id id) {
        check_id(id, "output");
        tensors_[static_cast<std::size_t>(id)].is_output = true;
        verified_ = false;
    }

    /// Checks the graph and infers every descriptor; returns the nodes in execution order.
    const std::vector<int>& verify() {
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
                                "tensor '" + t.name + "' has two writers: '" +
                                    nodes_[writer[id]].name + "' and '" + nodes_[n].name + "'",
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
        if (!any_output)
            throw error(status::invalid_graph, "no tensor is marked as a graph output");

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

    const tensor_desc& desc(tensor_id id) const {
        const auto& t = tensors_.at(static_cast<std::size_t>(id));
        if (!t.desc)
            throw error(status::invalid_graph,
                        "descriptor of '" + t.name +
                            "' is not known before verify() (it was attached with node())",
                        {"", "", t.name});
        return *t.desc;
    }
    tensor_id find(const std::string& name) const {
        for (std::size_t i = 0; i < tensors_.size(); ++i)
            if (tensors_[i].name == name) return static_cast<tensor_id>(i);
        throw error(status::not_found, "no tensor named '" + name + "'");
    }
    const std::vector<tensor_info>& tensors() const { return tensors_; }
    const std::vector<node_info>& nodes() const { return nodes_; }

    /// Places and compiles for a config string such as "cpu", "qcom-ml:device=0|cpu" or "auto".
    compiled_graph compile(const std::string& config_text);

  private:
    static std::string role_name(tensor_role r) {
        return r == tensor_role::input      ? "input"
               : r == tensor_role::constant ? "constant"
                                            : "intermediate";
    }

    tensor_id add_tensor(const std::string& name, tensor_role role, std::optional<tensor_desc> desc,
                         tensor value) {
        if (name.empty()) throw error(status::invalid_argument, "tensors need a name");
        for (const auto& t : tensors_)
            if (t.name == name)
                throw error(status::invalid_graph, "tensor name '" + name + "' is used twice",
                            {"", "", name});
        if (desc && !desc->is_strided()) {
            throw error(status::invalid_argument,
                        "graph inputs and constants need a strided layout", {"", "", name});
        }
        tensors_.push_back({name, role, std::move(desc), std::move(value), false});
        verified_ = false;
        return static_cast<tensor_id>(tensors_.size() - 1);
    }

    /// Rejects descriptors of inputs and constants that no buffer can hold (tensor_desc.hpp).
    static void check_fed_layout(const std::string& role, const std::string& name,
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

    void check_id(tensor_id id, const std::string& where) const {
        if (id < 0 || static_cast<std::size_t>(id) >= tensors_.size()) {
            throw error(status::invalid_graph, "unknown tensor id " + std::to_string(id),
                        {"", where, ""});
        }
    }

    /// Descriptor of an input while building with add(): inferring along the way.
    tensor_desc desc_for_inference(tensor_id id, const std::string& where) {
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
                                "output " + std::to_string(i) +
                                    " is attached but the op produces " +
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

    std::vector<tensor_info> tensors_;
    std::vector<node_info> nodes_;
    std::vector<int> order_;
    bool verified_ = false;
};

}  // namespace tessera
