// precision_test.cpp: the option precision=q7.8: f32 graphs run on openvx in Q7.8 against the
// fp32 reference within a bound derived from Q7.8's resolution, and the placement report says so.
//
// The bound: Q7.8 has a step of u = 2^-8; quantising an input or a weight errs by at most u/2,
// and each Q7.8 product is rounded again (u/2). A sum of K products x*w therefore errs by at most
// K * (u/2) * (max|x| + max|w| + 1 + u/2), plus u/2 for the stored output; an element-wise op by
// u/2 per operand (times its slope) plus u/2.
#include "openvx_plugin.hpp"

using namespace openvx_test;

namespace {

constexpr double u = 1.0 / 256.0;

double max_abs(const tensor& t) {
    double m = 0.0;
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        m = std::max(m, std::fabs(double(t.data_as<float>()[i])));
    return m;
}

/// Runs `op` on "openvx!:precision=q7.8" and CHECKs every element within `bound` of the fp32
/// reference; returns the placement report.
std::string check_q78(const op_desc& op, const std::vector<tensor>& inputs, double bound) {
    load_plugin();
    std::string report;
    const tensor got = run_op(op, inputs, "openvx!:precision=q7.8", {}, &report).at(0);
    const tensor want = reference::execute(op, inputs).at(0);
    INFO(report);
    CHECK(report.find("-> openvx") != std::string::npos);
    check_close(got, want, tolerance{0.0, 0.0, bound}, 1, op.describe());
    return report;
}

}  // namespace

TEST_CASE("precision=q7.8 runs f32 conv2d and fully connected within the Q7.8 bound") {
    const tensor x = values(shape{1, 3, 8, 8}, 1, -2.0f, 2.0f);
    const tensor w = values(shape{4, 3, 3, 3}, 2, -0.5f, 0.5f);
    const int k = 3 * 3 * 3;
    check_q78(op::conv2d().padding(1, 1, 1, 1), {x, w},
              k * (u / 2) * (max_abs(x) + max_abs(w) + 1 + u / 2) + u / 2);
    const tensor fx = values(shape{2, 64}, 3, -1.0f, 1.0f);
    const tensor fw = values(shape{5, 64}, 4, -0.25f, 0.25f);
    const tensor fb = values(shape{5}, 5, -0.5f, 0.5f);
    check_q78(op::fully_connected().bias(), {fx, fw, fb},
              64 * (u / 2) * (max_abs(fx) + max_abs(fw) + 1 + u / 2) + u);
}

TEST_CASE("precision=q7.8 element-wise ops, pooling and softmax within the Q7.8 bound") {
    const tensor x = values(shape{1, 4, 6, 6}, 6, -3.0f, 3.0f);
    const tensor y = values(shape{1, 4, 6, 6}, 7, -3.0f, 3.0f);
    check_q78(op::activation(TSR_ACT_RELU), {x}, u);
    check_q78(op::activation(TSR_ACT_SIGMOID), {x}, u);  // slope <= 1/4
    check_q78(op::binary(TSR_BINARY_ADD), {x, y}, 3 * u / 2);
    check_q78(op::binary(TSR_BINARY_MUL), {x, y}, (u / 2) * (2 * 3.0 + u / 2) + u / 2);
    check_q78(op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {x}, u / 2);
    check_q78(op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING).kernel(3, 3).padding(1, 1, 1, 1), {x},
              u);
    // softmax: inputs off by u/2 move each output by at most u/2 * (p(1-p) + sum p_j p_k) <= u/2
    check_q78(op::softmax(), {values(shape{3, 10}, 8, -4.0f, 4.0f)}, u);
}

TEST_CASE("precision=q7.8 placement report names the fixed-point mode; exact mode declines f32") {
    const tensor x = values(shape{1, 2, 4, 4}, 9);
    const std::string report = check_q78(op::activation(TSR_ACT_RELU), {x}, u);
    CHECK(report.find("Q7.8") != std::string::npos);
    const auto s = query_op(op::activation(TSR_ACT_RELU), {x.desc()});
    CHECK_FALSE(s.supported());
    CHECK(s.reason == TSR_REASON_DTYPE);
    CHECK(s.text.find("precision=q7.8") != std::string::npos);
    const auto q = query_op(op::activation(TSR_ACT_RELU), {x.desc()}, "q7.8");
    CHECK(q.level == TSR_SUPPORT_NATIVE);
}

TEST_CASE("precision=q7.8 with a cpu or reference fallback runs a network") {
    load_plugin();
    graph g;
    const auto x = g.input("x", tensor_desc(shape{1, 2, 6, 6}, dtype::f32));
    auto t = g.apply("conv", op::conv2d().padding(1, 1, 1, 1),
                     {x, g.constant("w", values(shape{3, 2, 3, 3}, 10, -0.5f, 0.5f))});
    t = g.apply("exp", op::unary(TSR_UNARY_EXP), {t});  // declined by openvx
    t = g.apply("relu", op::activation(TSR_ACT_RELU), {t});
    g.output(t);
    const tensor image = values(shape{1, 2, 6, 6}, 11);
    compiled_graph cg = g.compile("openvx:precision=q7.8|reference");
    INFO(cg.placement_report());
    const auto& p = cg.placements();
    REQUIRE(p.size() == 3);
    CHECK(p[0].backend == "openvx");
    CHECK(p[1].backend == "reference");
    CHECK(p[2].backend == "openvx");
    const tensor got = cg.run({{"x", image}}).begin()->second;
    const tensor want = g.compile("reference").run({{"x", image}}).begin()->second;
    // conv error (18 products of |x| <= 1, |w| <= 0.5) through exp (slope e^max) and relu
    const double conv_bound = 18 * (u / 2) * (1 + 0.5 + 1 + u / 2) + u / 2;
    check_close(got, want, tolerance{std::exp(conv_bound) - 1.0 + u, 0.0, u}, 1, "network");
}
