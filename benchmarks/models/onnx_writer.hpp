// onnx_writer.hpp: a small builder of ONNX models for the model benchmarks. Weights come from a
// fixed-seed generator scaled by fan-in, so every run writes the same file and activations stay
// in a sane range through deep networks. Node and tensor names are generated; the helpers emit
// the ops (and attribute forms) that PyTorch's exporter writes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace tessera::benchmarks::models {

using dims = std::vector<std::int64_t>;

class onnx_writer {
  public:
    onnx_writer(const std::string& graph_name, int opset, std::uint32_t seed);

    /// A float graph input with fixed dims; returns its name.
    std::string input(const std::string& name, const dims& shape);
    /// Marks `tensor` as a float graph output.
    void output(const std::string& tensor);

    /// A float initializer of uniform values in [-scale, scale].
    std::string random(const std::string& hint, const dims& shape, float scale);
    /// A float initializer holding `values`.
    std::string constant(const std::string& hint, const dims& shape,
                         const std::vector<float>& values);
    /// A float scalar initializer.
    std::string scalar(const std::string& hint, float value);
    /// An int64 initializer (Reshape targets, Unsqueeze axes).
    std::string int64s(const std::string& hint, const std::vector<std::int64_t>& values);

    /// A node with one output; returns the output's name.
    std::string node(const std::string& op_type, const std::vector<std::string>& inputs);
    /// The same, returning the node for attributes (its output is output(0)).
    ::onnx::NodeProto& node_proto(const std::string& op_type,
                                  const std::vector<std::string>& inputs);

    static void attr(::onnx::NodeProto& n, const std::string& name, std::int64_t v);
    static void attr(::onnx::NodeProto& n, const std::string& name, float v);
    static void attr(::onnx::NodeProto& n, const std::string& name, const dims& v);

    // Layers as PyTorch exports them (eval mode: batch-norm folded into the conv's bias).
    /// Conv with bias, square kernel, "same"-style padding k/2.
    std::string conv(const std::string& x, std::int64_t in_c, std::int64_t out_c, std::int64_t k,
                     std::int64_t stride = 1, std::int64_t groups = 1);
    /// Conv with bias, a rectangular kernel and explicit pads (top, left, bottom, right).
    std::string conv(const std::string& x, std::int64_t in_c, std::int64_t out_c, dims kernel,
                     dims strides, dims pads, std::int64_t groups = 1);
    /// Clip(x, 0, 6) in the opset 11+ form (min and max as inputs).
    std::string relu6(const std::string& x);
    std::string max_pool(const std::string& x, dims kernel, dims strides, dims pads);
    /// Gemm(x, W^T, b) with transB = 1, as nn.Linear on a 2-D input.
    std::string linear_gemm(const std::string& x, std::int64_t in_f, std::int64_t out_f);
    /// MatMul(x, W) + b, as nn.Linear on a 3-D input.
    std::string linear_matmul(const std::string& x, std::int64_t in_f, std::int64_t out_f);
    /// Flatten(axis 1).
    std::string flatten(const std::string& x);

    const ::onnx::ModelProto& model() const { return model_; }
    /// Writes the model; throws std::runtime_error when the file cannot be written.
    void save(const std::filesystem::path& path) const;

  private:
    std::string fresh(const std::string& hint);

    ::onnx::ModelProto model_;
    ::onnx::GraphProto* graph_;
    std::mt19937 rng_;
    int counter_ = 0;
};

}  // namespace tessera::benchmarks::models
