// transformer.cpp: the transformer encoder of the model benchmarks (model_zoo.hpp), in the form
// HuggingFace's BERT layers export to: separate Q/K/V projections, heads split by Reshape and
// Transpose, scaled dot-product attention with Softmax, post-norm residuals, Erf-based GELU.
#include <cmath>

#include "model_zoo.hpp"

namespace tessera::benchmarks::models {

namespace {

constexpr std::int64_t tokens = 128;
constexpr std::int64_t hidden = 256;
constexpr std::int64_t heads = 4;
constexpr std::int64_t head_dim = hidden / heads;
constexpr std::int64_t feed_forward = 1024;
constexpr int layers = 4;

std::string transpose(onnx_writer& w, const std::string& x, const dims& perm) {
    auto& n = w.node_proto("Transpose", {x});
    onnx_writer::attr(n, "perm", perm);
    return n.output(0);
}

std::string reduce_mean_last(onnx_writer& w, const std::string& x) {
    auto& n = w.node_proto("ReduceMean", {x});
    onnx_writer::attr(n, "axes", dims{-1});
    onnx_writer::attr(n, "keepdims", std::int64_t{1});
    return n.output(0);
}

std::string layer_norm(onnx_writer& w, const std::string& x, bool decomposed) {
    const std::vector<float> ones(hidden, 1.0f);
    const std::string gamma = w.constant("ln_gamma", {hidden}, ones);
    const std::string beta = w.random("ln_beta", {hidden}, 0.05f);
    if (!decomposed) {
        auto& n = w.node_proto("LayerNormalization", {x, gamma, beta});
        onnx_writer::attr(n, "axis", std::int64_t{-1});
        onnx_writer::attr(n, "epsilon", 1e-5f);
        return n.output(0);
    }
    const std::string centered = w.node("Sub", {x, reduce_mean_last(w, x)});
    const std::string squared = w.node("Pow", {centered, w.scalar("two", 2.0f)});
    const std::string variance = reduce_mean_last(w, squared);
    const std::string stddev = w.node("Sqrt", {w.node("Add", {variance, w.scalar("eps", 1e-5f)})});
    const std::string normalized = w.node("Div", {centered, stddev});
    return w.node("Add", {w.node("Mul", {normalized, gamma}), beta});
}

/// GELU as F.gelu exports below opset 20: x * 0.5 * (1 + erf(x / sqrt(2))).
std::string gelu(onnx_writer& w, const std::string& x) {
    const std::string e = w.node("Erf", {w.node("Div", {x, w.scalar("sqrt2", std::sqrt(2.0f))})});
    const std::string one_plus = w.node("Add", {e, w.scalar("one", 1.0f)});
    return w.node("Mul", {w.node("Mul", {x, one_plus}), w.scalar("half", 0.5f)});
}

std::string attention(onnx_writer& w, const std::string& x) {
    const std::string split_shape = w.int64s("heads_shape", {1, tokens, heads, head_dim});
    const auto project = [&](const dims& perm) {
        const std::string p = w.linear_matmul(x, hidden, hidden);
        return transpose(w, w.node("Reshape", {p, split_shape}), perm);
    };
    const std::string q = project({0, 2, 1, 3});  // 1 x heads x tokens x head_dim
    const std::string k = project({0, 2, 3, 1});  // 1 x heads x head_dim x tokens
    const std::string v = project({0, 2, 1, 3});
    std::string scores = w.node("MatMul", {q, k});
    scores = w.node("Div", {scores, w.scalar("scale", std::sqrt(static_cast<float>(head_dim)))});
    auto& softmax = w.node_proto("Softmax", {scores});
    onnx_writer::attr(softmax, "axis", std::int64_t{-1});
    std::string context = w.node("MatMul", {softmax.output(0), v});
    context = transpose(w, context, {0, 2, 1, 3});
    context = w.node("Reshape", {context, w.int64s("merged_shape", {1, tokens, hidden})});
    return w.linear_matmul(context, hidden, hidden);
}

onnx_writer encoder(const std::string& name, int opset, bool decomposed_norm) {
    onnx_writer w(name, opset, 4);
    std::string x = w.input("input", {1, tokens, hidden});
    for (int i = 0; i < layers; ++i) {
        x = layer_norm(w, w.node("Add", {attention(w, x), x}), decomposed_norm);
        const std::string ff = w.linear_matmul(gelu(w, w.linear_matmul(x, hidden, feed_forward)),
                                               feed_forward, hidden);
        x = layer_norm(w, w.node("Add", {ff, x}), decomposed_norm);
    }
    w.output(x);
    return w;
}

}  // namespace

onnx_writer transformer() {
    return encoder("transformer", 17, false);
}

onnx_writer transformer_decomposed() {
    return encoder("transformer_ln_decomposed", 13, true);
}

}  // namespace tessera::benchmarks::models
