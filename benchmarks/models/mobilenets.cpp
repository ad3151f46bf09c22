// mobilenets.cpp: MobileNetV2 and MobileNetV3-Large of the model benchmarks (model_zoo.hpp), in
// torchvision's block layout.
#include <cstdint>

#include "model_zoo.hpp"

namespace tessera::benchmarks::models {

namespace {

/// torchvision's _make_divisible(v, 8).
std::int64_t divisible8(double v) {
    std::int64_t r = std::max<std::int64_t>(8, (static_cast<std::int64_t>(v + 4) / 8) * 8);
    if (static_cast<double>(r) < 0.9 * v) r += 8;
    return r;
}

std::string global_pool_classifier_v2(onnx_writer& w, const std::string& x, std::int64_t c) {
    const std::string pooled = w.node("GlobalAveragePool", {x});
    return w.linear_gemm(w.flatten(pooled), c, 1000);
}

std::string hard_swish(onnx_writer& w, const std::string& x) {
    return w.node("HardSwish", {x});
}

std::string hard_sigmoid(onnx_writer& w, const std::string& x) {
    auto& n = w.node_proto("HardSigmoid", {x});
    onnx_writer::attr(n, "alpha", 1.0f / 6.0f);
    onnx_writer::attr(n, "beta", 0.5f);
    return n.output(0);
}

/// Squeeze-excite as torchvision writes it: avg-pool, 1x1 conv, relu, 1x1 conv, hard-sigmoid,
/// scale.
std::string squeeze_excite(onnx_writer& w, const std::string& x, std::int64_t c) {
    const std::int64_t squeezed = divisible8(static_cast<double>(c) / 4);
    std::string s = w.node("GlobalAveragePool", {x});
    s = w.node("Relu", {w.conv(s, c, squeezed, 1)});
    s = hard_sigmoid(w, w.conv(s, squeezed, c, 1));
    return w.node("Mul", {s, x});
}

}  // namespace

onnx_writer mobilenet_v2() {
    onnx_writer w("mobilenet_v2", 13, 2);
    std::string x = w.input("input", {1, 3, 224, 224});
    x = w.relu6(w.conv(x, 3, 32, 3, 2));
    std::int64_t c = 32;
    struct stage {
        int t, c, n, s;
    };
    for (const stage st : {stage{1, 16, 1, 1},
                           {6, 24, 2, 2},
                           {6, 32, 3, 2},
                           {6, 64, 4, 2},
                           {6, 96, 3, 1},
                           {6, 160, 3, 2},
                           {6, 320, 1, 1}}) {
        for (int i = 0; i < st.n; ++i) {
            const std::int64_t stride = i == 0 ? st.s : 1;
            const std::int64_t hidden = c * st.t;
            std::string y = x;
            if (st.t != 1) y = w.relu6(w.conv(y, c, hidden, 1));
            y = w.relu6(w.conv(y, hidden, hidden, 3, stride, hidden));
            y = w.conv(y, hidden, st.c, 1);
            if (stride == 1 && c == st.c) y = w.node("Add", {x, y});
            x = y;
            c = st.c;
        }
    }
    x = w.relu6(w.conv(x, c, 1280, 1));
    w.output(global_pool_classifier_v2(w, x, 1280));
    return w;
}

onnx_writer mobilenet_v3() {
    onnx_writer w("mobilenet_v3_large", 14, 3);
    std::string x = w.input("input", {1, 3, 224, 224});
    x = hard_swish(w, w.conv(x, 3, 16, 3, 2));
    struct block {
        int k, expanded, out;
        bool se, hs;
        int stride;
    };
    const block blocks[] = {
        {3, 16, 16, false, false, 1}, {3, 64, 24, false, false, 2}, {3, 72, 24, false, false, 1},
        {5, 72, 40, true, false, 2},  {5, 120, 40, true, false, 1}, {5, 120, 40, true, false, 1},
        {3, 240, 80, false, true, 2}, {3, 200, 80, false, true, 1}, {3, 184, 80, false, true, 1},
        {3, 184, 80, false, true, 1}, {3, 480, 112, true, true, 1}, {3, 672, 112, true, true, 1},
        {5, 672, 160, true, true, 2}, {5, 960, 160, true, true, 1}, {5, 960, 160, true, true, 1},
    };
    std::int64_t c = 16;
    for (const block& b : blocks) {
        const auto act = [&](const std::string& t) {
            return b.hs ? hard_swish(w, t) : w.node("Relu", {t});
        };
        std::string y = x;
        if (b.expanded != c) y = act(w.conv(y, c, b.expanded, 1));
        y = act(w.conv(y, b.expanded, b.expanded, b.k, b.stride, b.expanded));
        if (b.se) y = squeeze_excite(w, y, b.expanded);
        y = w.conv(y, b.expanded, b.out, 1);
        if (b.stride == 1 && c == b.out) y = w.node("Add", {y, x});
        x = y;
        c = b.out;
    }
    x = hard_swish(w, w.conv(x, c, 960, 1));
    x = w.flatten(w.node("GlobalAveragePool", {x}));
    x = hard_swish(w, w.linear_gemm(x, 960, 1280));
    w.output(w.linear_gemm(x, 1280, 1000));
    return w;
}

}  // namespace tessera::benchmarks::models
