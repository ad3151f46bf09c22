// myriad_demo.cpp: a Myriad custom layer inside a Tessera network. A small YOLO-style head --
// conv 3x3 with bias and ReLU, the custom layer ReorgYolo (stride 2), conv 1x1, GRN (a shipped
// custom layer), conv 1x1 -- runs with "myriad:config=<customLayers.xml>|cpu": the user's
// bindings file binds ReorgYolo to its own OpenCL C kernel written for the NCS2, the shipped
// layers serve GRN and the bias-free 1x1 convolutions, cpu takes what myriad declines. The same
// network with ReorgYolo written as reshape/permute/reshape and GRN by hand runs on the reference
// backend; the demo prints the placement and the largest difference.
//
//   myriad_demo [CONFIG]   default: myriad:config=<examples/myriad/customLayers.xml>|cpu
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <tessera/tessera.hpp>

using namespace tessera;

namespace {

tensor weights(const shape& dims, float scale, int seed) {
    tensor t(tensor_desc(dims, dtype::f32));
    auto* p = t.data_as<float>();
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        p[i] = scale * std::sin(0.731f * static_cast<float>(i) + 1.37f * seed);
    return t;
}

constexpr int stride = 2;

tensor filled(const shape& dims, float value) {
    tensor t(tensor_desc(dims, dtype::f32));
    std::fill(t.data_as<float>(), t.data_as<float>() + t.num_elements(), value);
    return t;
}

/// conv1 -> ReorgYolo -> conv2 -> GRN -> conv3. `custom`: ReorgYolo and GRN as the custom ops;
/// else in Tessera ops the reference backend runs: ReorgYolo as reshape/permute/reshape, GRN as
/// x / sqrt(1 + sum over channels of x^2).
graph build(bool custom) {
    graph g;
    const auto x = g.input("image", tensor_desc(shape::nchw(1, 4, 16, 16), dtype::f32));
    auto t = g.apply("conv1", op::conv2d().padding(1, 1, 1, 1).bias().fuse(TSR_ACT_RELU),
                     {x, g.constant("w1", weights(shape{8, 4, 3, 3}, 0.3f, 1)),
                      g.constant("b1", weights(shape{8}, 0.1f, 2))});
    if (custom) {
        t = g.apply("reorg",
                    op::custom("ReorgYolo")
                        .set_attribute("stride", std::to_string(stride))
                        .set_output(tensor_desc(shape{1, 32, 8, 8}, dtype::f32)),
                    {t});
    } else {  // [1, 8, 8, s, 8, s] -> [1, s, s, 8, 8, 8] -> [1, 32, 8, 8]
        t = g.apply("reorg.split", op::reshape({1, 8, 8, stride, 8, stride}), {t});
        t = g.apply("reorg.move", op::permute({0, 3, 5, 1, 2, 4}), {t});
        t = g.apply("reorg", op::reshape({1, 32, 8, 8}), {t});
    }
    t = g.apply("conv2", op::conv2d(),
                {t, g.constant("w2", weights(shape{16, 32, 1, 1}, 0.2f, 3))});
    if (custom) {
        t = g.apply("grn", op::custom("GRN").set_attribute("bias", "1.0"), {t});
    } else {
        const auto squares = g.apply("grn.square", op::binary(TSR_BINARY_MUL), {t, t});
        auto sum = g.apply("grn.sum", op::reduce(TSR_REDUCE_SUM).along(1).keep(true), {squares});
        sum = g.apply("grn.bias", op::binary(TSR_BINARY_ADD),
                      {sum, g.constant("one", filled(shape{1}, 1.0f))});
        const auto norm = g.apply("grn.sqrt", op::unary(TSR_UNARY_SQRT), {sum});
        t = g.apply("grn", op::binary(TSR_BINARY_DIV), {t, norm});
    }
    t = g.apply("conv3", op::conv2d(), {t, g.constant("w3", weights(shape{6, 16, 1, 1}, 0.3f, 4))});
    g.output(t);
    return g;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string config =
        argc > 1 ? argv[1] : std::string("myriad:config=") + MYRIAD_DEMO_LAYERS + "|cpu";
    std::printf(
        "Tessera %s myriad demo: conv3x3+bias+relu, ReorgYolo (custom), conv1x1, GRN "
        "(custom), conv1x1; input 1x4x16x16\nconfig: %s\n",
        version_string, config.c_str());
    const tensor image = weights(shape::nchw(1, 4, 16, 16), 1.0f, 11);
    try {
        graph net = build(true);
        compiled_graph cg = net.compile(config);
        const tensor got = cg.run({{"image", image}}).at("conv3");
        graph ref_net = build(false);
        const tensor want = ref_net.compile("reference").run({{"image", image}}).at("conv3");
        double max_diff = 0.0, max_ref = 0.0;
        for (std::int64_t i = 0; i < want.num_elements(); ++i) {
            max_diff = std::max(
                max_diff, std::abs(double(got.data_as<float>()[i]) - want.data_as<float>()[i]));
            max_ref = std::max(max_ref, std::abs(double(want.data_as<float>()[i])));
        }
        std::printf("%s", cg.placement_report().c_str());
        std::printf(
            "max|diff| against the reference: %.3g (max|ref| %.3g; the custom layers run "
            "in half precision)\n",
            max_diff, max_ref);
        return max_diff <= 1e-2 * std::max(1.0, max_ref) ? 0 : 1;
    } catch (const error& e) {
        std::printf("failed: %s\n", e.what());
        return 1;
    }
}
