// tessera/onnx/onnx.hpp: the ONNX importer's public interface. load() turns an ONNX model (ai.onnx
// domain, opsets 1 to 17, each op read with its semantics at the model's opset) into a static
// tessera::graph: inputs and outputs keep the model's names, initializers become constants,
// dynamic dims are fixed from load_options::input_shapes, and subgraphs computing shapes or
// constants are folded at load. This header does not include protobuf; the implementation lives
// in the tessera_onnx library (CMake target tessera::onnx).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/graph/graph.hpp"
#include "tessera/shape.hpp"
#include "tessera/tensor.hpp"

namespace tessera::onnx {

/// ONNX TensorProto.DataType values (onnx.proto).
enum class element_type : std::int32_t {
    undefined = 0,
    float32 = 1,
    uint8 = 2,
    int8 = 3,
    uint16 = 4,
    int16 = 5,
    int32 = 6,
    int64 = 7,
    string = 8,
    boolean = 9,
    float16 = 10,
    float64 = 11,
    uint32 = 12,
    uint64 = 13,
    complex64 = 14,
    complex128 = 15,
    bfloat16 = 16
};

/// ONNX name of an element type ("float", "int64", ...).
std::string element_type_name(element_type t);

/// A tensor as stored in an ONNX file, of any ONNX element type (also those Tessera tensors do
/// not have, such as int64 and double): row-major, little-endian packed elements.
struct host_tensor {
    std::string name;
    element_type type = element_type::undefined;
    std::vector<std::int64_t> dims;
    std::vector<std::uint8_t> bytes;  ///< num_elements() * element size

    std::int64_t num_elements() const;
    /// Element i as a double (integers exactly up to 2^53).
    double real(std::int64_t i) const;
    /// Element i as an int64 (floating values truncated).
    std::int64_t integer(std::int64_t i) const;
    /// Whether Tessera has this element type (to_tensor() works).
    bool has_tessera_type() const;
    /// A Tessera tensor holding a copy; throws tessera::error (unsupported) for element types
    /// Tessera lacks.
    tensor to_tensor() const;
    /// Copy of a Tessera tensor (any layout) as a host_tensor.
    static host_tensor from_tensor(const std::string& name, const tensor& t);
};

/// Reads a serialized ONNX TensorProto (the test data's input_N.pb / output_N.pb). Throws
/// tessera::error (parse_error) for malformed bytes, never crashes.
host_tensor read_tensor(const std::filesystem::path& path);
host_tensor read_tensor(const void* data, std::size_t size);

struct load_options {
    /// Fixes the dims of graph inputs by name (dynamic dims in the model must be given here;
    /// fixed dims given here must match the model's).
    std::map<std::string, shape> input_shapes;
    /// Graph inputs frozen to a value at load (e.g. a Reshape's target shape or Resize's scales
    /// that the model takes as inputs): they become constants and take part in folding.
    std::map<std::string, host_tensor> constant_inputs;
};

/// One node the importer cannot map, and why.
struct unsupported_node {
    std::string node;     ///< the node's name, or "<op_type>#<index>" when it has none
    std::string op_type;  ///< e.g. "Gather"
    std::string reason;   ///< what is missing: the op, an attribute value, a dtype, ...
};

/// Thrown by load() when the model is valid ONNX but some nodes cannot be mapped: lists every
/// such node at once. Its status is unsupported.
class import_error : public error {
  public:
    import_error(std::vector<unsupported_node> nodes, std::vector<std::string> needs_constant);
    const std::vector<unsupported_node>& nodes() const { return nodes_; }
    /// Graph inputs that would have to be constant (bind them in load_options::constant_inputs).
    const std::vector<std::string>& needs_constant() const { return needs_constant_; }

  private:
    std::vector<unsupported_node> nodes_;
    std::vector<std::string> needs_constant_;
};

/// Loads a model file. Throws import_error for unmappable nodes and tessera::error (parse_error,
/// invalid_argument, unsupported) for unreadable, malformed or inconsistent models.
graph load(const std::filesystem::path& path, const load_options& options = {});
/// Loads a model from serialized ModelProto bytes.
graph load(const void* data, std::size_t size, const load_options& options = {});
inline graph load(const std::vector<std::uint8_t>& bytes, const load_options& options = {}) {
    return load(bytes.data(), bytes.size(), options);
}

/// The ONNX op types (ai.onnx) that load() maps or folds.
std::vector<std::string> supported_op_types();

}  // namespace tessera::onnx
