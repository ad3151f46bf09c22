// model_builder.hpp: builds small ONNX models in memory for the loader tests (serialized
// ModelProto bytes), so each test states its model next to its checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace tessera::onnx::testing {

/// ONNX TensorProto element types the tests name.
constexpr int onnx_float = 1, onnx_uint8 = 2, onnx_int8 = 3, onnx_uint16 = 4, onnx_uint32 = 12,
              onnx_uint64 = 13;

class model_builder {
  public:
    explicit model_builder(int opset = 13);

    /// A graph input of float (or `elem_type`) with dims; -1 marks a dynamic dim ("N").
    model_builder& input(const std::string& name, const std::vector<std::int64_t>& dims,
                         int elem_type = 1);
    model_builder& output(const std::string& name);
    /// A float initializer.
    model_builder& initializer(const std::string& name, const std::vector<std::int64_t>& dims,
                               const std::vector<float>& values);
    /// An int64 initializer.
    model_builder& int64_initializer(const std::string& name, const std::vector<std::int64_t>& dims,
                                     const std::vector<std::int64_t>& values);
    /// A node; returns it for attributes.
    ::onnx::NodeProto& node(const std::string& op_type, const std::vector<std::string>& inputs,
                            const std::vector<std::string>& outputs, const std::string& name = {});
    static void attr_int(::onnx::NodeProto& n, const std::string& name, std::int64_t v);
    static void attr_ints(::onnx::NodeProto& n, const std::string& name,
                          const std::vector<std::int64_t>& v);

    static void attr_float(::onnx::NodeProto& n, const std::string& name, float v);
    static void attr_string(::onnx::NodeProto& n, const std::string& name, const std::string& v);
    /// An int32 initializer.
    model_builder& int32_initializer(const std::string& name, const std::vector<std::int64_t>& dims,
                                     const std::vector<std::int32_t>& values);

    std::vector<std::uint8_t> bytes() const;
    ::onnx::ModelProto& model() { return model_; }

  private:
    ::onnx::ModelProto model_;
};

}  // namespace tessera::onnx::testing
