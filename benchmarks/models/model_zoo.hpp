// model_zoo.hpp: the networks of the model benchmarks, each written as PyTorch's exporter writes
// it in eval mode (batch-norm folded into convolution biases), batch 1, random weights from a
// fixed seed. Each function returns the finished model builder.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "onnx_writer.hpp"

namespace tessera::benchmarks::models {

/// MobileNetV2 (torchvision layout, width 1.0), 1x3x224x224 -> 1x1000, opset 13.
onnx_writer mobilenet_v2();
/// MobileNetV3-Large (torchvision layout): HardSwish, squeeze-excite with HardSigmoid, opset 14.
onnx_writer mobilenet_v3();
/// ResNet-18, 1x3x224x224 -> 1x1000, opset 13.
onnx_writer resnet18();
/// A CRNN-style text recognizer: VGG-style conv backbone on 1x3x48x320 down to height 1, a
/// Squeeze and Transpose to 1x80x256 time steps, two MatMul layers and Softmax over 97 classes,
/// opset 13.
onnx_writer crnn();
/// A transformer encoder as nn.TransformerEncoder exports it: 4 post-norm layers, 256 hidden,
/// 4 heads, 1024 feed-forward, 128 tokens (input 1x128x256), LayerNormalization and Erf-based
/// GELU, opset 17.
onnx_writer transformer();
/// The same encoder with the decomposed layer norm (ReduceMean, Sub, Pow, Sqrt, Div) that
/// opsets below 17 get, opset 13.
onnx_writer transformer_decomposed();

struct zoo_entry {
    std::string name;
    std::function<onnx_writer()> build;
};

/// Every model, by the name the benchmark prints.
std::vector<zoo_entry> zoo();

}  // namespace tessera::benchmarks::models
