// context.hpp: the importer's state while it walks a model's nodes: the graph under construction,
// every ONNX value (a folded constant or a graph tensor with its static descriptor), attribute
// readers and the helpers op mappers use to emit Tessera ops. Internal to tessera_onnx.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "onnx_proto.hpp"
#include "tessera/onnx/onnx.hpp"

namespace tessera::onnx::detail {

/// A node cannot be mapped: the reason is reported with the node's name and op type.
struct node_unsupported {
    std::string reason;
};
/// A node needs a constant where the model has a graph input.
struct node_needs_constant {
    std::string input;
    std::string reason;
};

/// An ONNX value: a constant known at load, or a tensor computed by the graph.
struct value {
    bool is_constant = false;
    host_tensor constant;
    graph::tensor_id id = -1;  ///< graph tensors, and constants once materialised
    tensor_desc desc;          ///< graph tensors
};

class context {
  public:
    context(int opset, const load_options& options) : opset(opset), options(options) {}

    graph g;
    const int opset;
    const load_options& options;
    std::map<std::string, value> values;
    std::set<std::string> graph_inputs;  ///< names of non-constant graph inputs
    /// Graph inputs of dtypes Tessera lacks, with the reason, usable only as bound constants.
    std::map<std::string, std::string> unusable_inputs;
    std::set<std::string> graph_outputs;
    std::set<std::string> reserved_names;  ///< every ONNX value name (temporaries avoid them)

    // ---- inputs of the node being mapped ----
    const ::onnx::NodeProto* node = nullptr;
    std::string node_label;  ///< name used for the node in errors and graph node names

    std::size_t input_count() const;
    bool has_input(std::size_t i) const;
    const std::string& input_name(std::size_t i) const;
    bool input_is_constant(std::size_t i) const;
    /// The constant value of input i; throws node_needs_constant / node_unsupported.
    const host_tensor& constant_input(std::size_t i, const std::string& what) const;
    /// Static descriptor of input i (constants: of their Tessera tensor).
    tensor_desc input_desc(std::size_t i) const;
    shape input_dims(std::size_t i) const;
    /// Graph tensor of input i, materialising a constant (checks its dtype).
    graph::tensor_id tensor_input(std::size_t i);
    /// Graph tensor holding a constant value.
    graph::tensor_id constant_tensor(const host_tensor& t, const std::string& name_hint);
    std::size_t output_count() const;
    bool has_output(std::size_t i) const;
    const std::string& output_name(std::size_t i) const;

    // ---- attributes ----
    const ::onnx::AttributeProto* attr(const std::string& name) const;
    std::int64_t attr_int(const std::string& name, std::int64_t fallback) const;
    float attr_float(const std::string& name, float fallback) const;
    std::string attr_string(const std::string& name, const std::string& fallback) const;
    std::vector<std::int64_t> attr_ints(const std::string& name) const;
    std::vector<float> attr_floats(const std::string& name) const;
    /// Fails the node for attributes that are present but not handled.
    void reject_attr(const std::string& name, const std::string& why) const;

    // ---- outputs ----
    /// Emits a Tessera op writing ONNX output `out` (empty: an internal temporary); returns its id.
    graph::tensor_id emit(const op_desc& op, const std::vector<graph::tensor_id>& inputs,
                          const std::string& out = {});
    /// Emits a multi-output op; outputs named by `outs` (empty names: internal, unread).
    std::vector<graph::tensor_id> emit_multi(const op_desc& op,
                                             const std::vector<graph::tensor_id>& inputs,
                                             const std::vector<std::string>& outs);
    /// Binds ONNX output `out` to a folded constant.
    void set_constant(const std::string& out, host_tensor t);
    /// Reshape of a graph tensor (identity when the dims already match and out is internal).
    graph::tensor_id reshape(graph::tensor_id in, const shape& dims, const std::string& out = {});
    const tensor_desc& desc_of(graph::tensor_id id) const { return descs_.at(id); }

    [[noreturn]] void unsupported(const std::string& reason) const {
        throw node_unsupported{reason};
    }

    /// Gives graph inputs and initializers their values.
    void add_graph_tensor(const std::string& name, graph::tensor_id id, const tensor_desc& desc);

  private:
    /// Graph inputs a computed ONNX value depends on (binding them makes it a constant).
    std::map<std::string, std::set<std::string>> derived_from_;
    std::string fresh_name(const std::string& hint);
    std::string fresh_node_name();
    std::string claim(const std::string& name);
    std::set<std::string> used_node_names_;
    std::map<graph::tensor_id, tensor_desc> descs_;
    std::set<std::string> used_names_;
    int counter_ = 0;
};

/// Maps one ONNX op type; reads ctx.node.
using mapper = std::function<void(context&)>;
using mapper_table = std::map<std::string, mapper>;

void register_elementwise(mapper_table& t);
void register_nn(mapper_table& t);
void register_shape_ops(mapper_table& t);
void register_folding(mapper_table& t);
void register_reduce(mapper_table& t);
void register_indexing(mapper_table& t);
void register_lowered(mapper_table& t);
void register_by_index(mapper_table& t);
void register_einsum(mapper_table& t);
void register_recurrent(mapper_table& t);
void register_quantized(mapper_table& t);

/// Opsets before 7 broadcast a binary op's B onto A only with attribute broadcast = 1, by
/// suffix or from attribute `axis`; checks that and, where B needs trailing 1s to broadcast
/// numpy style, emits `op` on the reshaped B and returns true (ops_elementwise.cpp).
bool map_legacy_broadcast(context& ctx, const op_desc& op);
/// The same check for a mapper that cannot take a reshaped B: fails the node where one is needed.
void map_legacy_broadcast_check(const context& ctx);

/// Cast of input 0 to `to` (Cast, CastLike; ops_shape.cpp).
void map_cast_to(context& ctx, element_type to);
/// GridSample (ops_grid_sample.cpp).
void map_grid_sample(context& ctx);
/// DFT and STFT (ops_dft.cpp).
void map_dft(context& ctx);
void map_stft(context& ctx);
/// Conv (ConvTranspose with `transposed`) of graph tensors x and w, bias < 0 for none, reading
/// the node's window attributes, into ONNX output `out` (ops_nn.cpp).
graph::tensor_id emit_conv(context& ctx, graph::tensor_id x, graph::tensor_id w,
                           graph::tensor_id bias, bool transposed, const std::string& out);
/// MatMul of graph tensors a and b (numpy semantics) into ONNX output `out` (ops_nn.cpp).
graph::tensor_id emit_matmul(context& ctx, graph::tensor_id a, graph::tensor_id b,
                             const std::string& out);
/// MaxPool (is_max) or AveragePool as a gather of window taps and reduce: 3-D windows,
/// dilations, MaxPool's Indices (ops_pool_taps.cpp).
void map_pool_by_taps(context& ctx, bool is_max);
/// MaxUnpool with constant indices: a gather from the input and a zero slot (ops_unpool.cpp).
void map_max_unpool(context& ctx);
/// RoiAlign (avg) with constant rois: a batched matmul with sampling weights (ops_roi_align.cpp).
void map_roi_align(context& ctx);
/// Resize (opset 10+) and Upsample (upsample = true) (ops_resize.cpp).
void map_resize(context& ctx, bool upsample);

/// Slice's starts, ends, axes and steps (attributes before opset 10, constant inputs after), of
/// one length, axes and steps filled in when absent.
struct slice_arguments {
    std::vector<std::int64_t> starts, ends, axes, steps;
};
slice_arguments read_slice_arguments(context& ctx);
/// Slice and Gather of a tensor computed by the graph (ops_indexing.cpp).
void map_slice_on_graph(context& ctx);
void map_gather_on_graph(context& ctx);
const mapper_table& mappers();

// ---- host tensors (host_tensor.cpp) ----
std::size_t element_size(element_type t);  ///< 0 for types without a fixed size (string)
std::optional<dtype> tessera_dtype(element_type t);
element_type onnx_type(dtype t);
host_tensor make_host(element_type t, const std::vector<std::int64_t>& dims);
void set_real(host_tensor& t, std::int64_t i, double v);
void set_integer(host_tensor& t, std::int64_t i, std::int64_t v);
bool is_integer_type(element_type t);
/// Converts a TensorProto (checked: sizes, dims, data fields); throws tessera::error parse_error.
host_tensor from_proto(const ::onnx::TensorProto& p);
std::vector<std::int64_t> integers(const host_tensor& t);
std::vector<double> reals(const host_tensor& t);

/// Normalises an axis of a rank-r tensor (negative counts from the end); throws node_unsupported.
int normalize_axis(std::int64_t axis, int rank, const std::string& what);

}  // namespace tessera::onnx::detail

namespace tessera::onnx::detail {

/// Emits `op` reading node inputs `inputs` (by index) into ONNX output `out`, or, when every one
/// of them is a constant of a Tessera dtype, evaluates it at load with the reference kernels.
void produce(context& ctx, const op_desc& op, const std::vector<std::size_t>& inputs,
             const std::string& out);

/// Numpy broadcast of two dim lists; throws node_unsupported when they do not broadcast.
std::vector<std::int64_t> broadcast_dims(const std::vector<std::int64_t>& a,
                                         const std::vector<std::int64_t>& b);
/// Host evaluation of a broadcasting binary op on constants (any numeric element type).
host_tensor fold_binary(const host_tensor& a, const host_tensor& b, element_type out_type,
                        const std::function<double(double, double)>& real_op,
                        const std::function<std::int64_t(std::int64_t, std::int64_t)>& int_op);

}  // namespace tessera::onnx::detail
