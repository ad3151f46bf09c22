// tessera/graph/graph.hpp: graph, a network of named tensors and ops described once. Inputs and
// constants have concrete descriptors; intermediate tensors are virtual and get their shape from
// inference. verify() checks one writer per tensor, no cycles, inputs fed, and infers shapes;
// compile() (graph/compiled_graph.hpp) places it on backends for a config string.
// The member functions that do the work are defined in the runtime (graph_impl.hpp).
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

    // Special members are defined in the runtime (they destroy and copy op descriptors).
    graph();
    graph(const graph& other);
    graph(graph&& other) noexcept;
    graph& operator=(const graph& other);
    graph& operator=(graph&& other) noexcept;
    ~graph();

    /// A graph input fed at every run. `desc` needs a valid dtype and a strided layout that is
    /// addressable and non-overlapping (tensor_desc.hpp); run() accepts a tensor of the same
    /// dims and dtype in any addressable layout, and backends see inputs that are not dense
    /// with non-negative strides and no offset as row-major.
    tensor_id input(const std::string& name, const tensor_desc& desc);
    /// A constant (weights): the graph shares `value`'s memory, so keep it unchanged or clone().
    /// Its layout must be accepted as an input's; a layout that is not dense with non-negative
    /// strides and no offset (a reversed or padded view) is copied to row-major here instead.
    tensor_id constant(const std::string& name, const tensor& value);

    /// Dense with non-negative strides and no offset: the layouts handed to backends as they are.
    static bool is_plain(const tensor_desc& d) {
        if (!d.is_strided() || d.offset() != 0 || !d.is_dense()) return false;
        for (int i = 0; i < d.rank(); ++i)
            if (d.stride(i) < 0) return false;
        return true;
    }
    /// A virtual intermediate tensor whose descriptor comes from inference.
    tensor_id intermediate(const std::string& name);

    /// Adds a node reading `inputs` and writing existing tensors `outputs`.
    void node(const std::string& name, const op_desc& op, const std::vector<tensor_id>& inputs,
              const std::vector<tensor_id>& outputs);

    /// Adds a node and creates its outputs as intermediates named "<name>" (one output) or
    /// "<name>:<i>"; returns their ids.
    std::vector<tensor_id> add(const std::string& name, const op_desc& op,
                               const std::vector<tensor_id>& inputs);
    /// add() for single-output ops.
    tensor_id apply(const std::string& name, const op_desc& op,
                    const std::vector<tensor_id>& inputs);

    /// Marks a tensor as a graph output (read back after each run).
    void output(tensor_id id);

    /// Checks the graph and infers every descriptor; returns the nodes in execution order.
    const std::vector<int>& verify();

    const tensor_desc& desc(tensor_id id) const;
    tensor_id find(const std::string& name) const;
    const std::vector<tensor_info>& tensors() const { return tensors_; }
    const std::vector<node_info>& nodes() const { return nodes_; }

    /// Places and compiles for a config string such as "cpu", "qcom-ml:device=0|cpu" or "auto".
    compiled_graph compile(const std::string& config_text);

  private:
    static std::string role_name(tensor_role r);

    tensor_id add_tensor(const std::string& name, tensor_role role, std::optional<tensor_desc> desc,
                         tensor value);

    /// Rejects descriptors of inputs and constants that no buffer can hold (tensor_desc.hpp).
    static void check_fed_layout(const std::string& role, const std::string& name,
                                 const tensor_desc& desc);

    void check_id(tensor_id id, const std::string& where) const;

    /// Descriptor of an input while building with add(): inferring along the way.
    tensor_desc desc_for_inference(tensor_id id, const std::string& where);

    std::vector<tensor_info> tensors_;
    std::vector<node_info> nodes_;
    std::vector<int> order_;
    bool verified_ = false;
};

}  // namespace tessera
