// resnet_crnn.cpp: ResNet-18 and the CRNN-style text recognizer of the model benchmarks
// (model_zoo.hpp).
#include "model_zoo.hpp"

namespace tessera::benchmarks::models {

onnx_writer resnet18() {
    onnx_writer w("resnet18", 13, 18);
    std::string x = w.input("input", {1, 3, 224, 224});
    x = w.node("Relu", {w.conv(x, 3, 64, 7, 2)});
    x = w.max_pool(x, {3, 3}, {2, 2}, {1, 1, 1, 1});
    std::int64_t c = 64;
    for (const std::int64_t out : {64, 128, 256, 512}) {
        for (int i = 0; i < 2; ++i) {
            const std::int64_t stride = (i == 0 && out != 64) ? 2 : 1;
            std::string y = w.node("Relu", {w.conv(x, c, out, 3, stride)});
            y = w.conv(y, out, out, 3);
            const std::string shortcut = stride != 1 ? w.conv(x, c, out, 1, stride) : x;
            x = w.node("Relu", {w.node("Add", {y, shortcut})});
            c = out;
        }
    }
    x = w.flatten(w.node("GlobalAveragePool", {x}));
    w.output(w.linear_gemm(x, 512, 1000));
    return w;
}

onnx_writer crnn() {
    onnx_writer w("crnn", 13, 7);
    std::string x = w.input("input", {1, 3, 48, 320});
    const auto conv_relu = [&](const std::string& t, std::int64_t in, std::int64_t out) {
        return w.node("Relu", {w.conv(t, in, out, 3)});
    };
    x = conv_relu(x, 3, 32);
    x = w.max_pool(x, {2, 2}, {2, 2}, {0, 0, 0, 0});  // 24x160
    x = conv_relu(x, 32, 64);
    x = w.max_pool(x, {2, 2}, {2, 2}, {0, 0, 0, 0});  // 12x80
    x = conv_relu(x, 64, 128);
    x = conv_relu(x, 128, 128);
    x = w.max_pool(x, {2, 1}, {2, 1}, {0, 0, 0, 0});  // 6x80
    x = conv_relu(x, 128, 256);
    x = conv_relu(x, 256, 256);
    x = w.max_pool(x, {2, 1}, {2, 1}, {0, 0, 0, 0});                          // 3x80
    x = w.node("Relu", {w.conv(x, 256, 256, {3, 1}, {1, 1}, {0, 0, 0, 0})});  // 1x80
    x = w.node("Squeeze", {x, w.int64s("squeeze_axes", {2})});                // 1x256x80
    auto& transpose = w.node_proto("Transpose", {x});
    onnx_writer::attr(transpose, "perm", dims{0, 2, 1});  // 1x80x256 time steps
    x = transpose.output(0);
    x = w.node("Relu", {w.linear_matmul(x, 256, 256)});
    x = w.linear_matmul(x, 256, 97);
    auto& softmax = w.node_proto("Softmax", {x});
    onnx_writer::attr(softmax, "axis", std::int64_t{2});
    w.output(softmax.output(0));
    return w;
}

}  // namespace tessera::benchmarks::models
