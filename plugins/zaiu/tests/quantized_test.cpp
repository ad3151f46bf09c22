// quantized_test.cpp: quantized_matmul on zdnn_quantized_matmul_op (int8 and on-the-fly A, int8
// weights, int8 or pre-computed bias, addition and comparisons, dequantised or requantised
// outputs, stacked and broadcast forms) against the reference kernel, and the declines.
//
// Tolerances, from the zAIU's arithmetic: the int8 dot product D = sum (qa - Za)(qb - Zb) is
// exact (integer accumulation), so the only roundings are the DLFLOAT16 rounding of the stored
// result (relative 2^-10) and the scale factors zDNN keeps as reciprocals (rec_scale = 1/S, fp32
// here, "reduced precision" on the hardware: at worst DLFLOAT16, relative 2^-10 each). A
// dequantised result Sa*Sb*D + Sc*(qc - Zc) therefore errs by at most 2^-10 |Y| + 3 * 2^-10 *
// (|Sa*Sb*D| + |Sc*(qc - Zc)|); with biases small against the products (as below) the terms are
// bounded by |Y| + max|Y|, so the README bound 2^-8 |ref| + 2^-9 max|ref| (check_close, k = 1)
// covers it. A requantised output is an integer: the error before rounding, at most
// 2^-10 * 4 * 2^8 < 1 for |q| <= 256, moves the rounding by at most one step, so those are
// compared within 1. Comparisons use power-of-two scales, where both sides are exact: no
// tolerance. On-the-fly inputs are chosen away from rounding ties (zDNN rounds a * (1/Sa) + Za,
// the reference round(a / Sa) + Za; they can differ by one step at a tie when Za is odd).
#include "zaiu_plugin.hpp"

using namespace zaiu_test;

namespace {

/// Deterministic i8 values in [lo, hi] with the given quantisation.
tensor int8_tensor(const shape& dims, int lo, int hi, float scale, int zero_point,
                   std::uint32_t seed) {
    tensor t(tensor_desc(dims, dtype::i8, layout::row_major(), quantization{scale, zero_point, 0}));
    std::uint32_t state = seed * 2246822519u + 7u;
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        state = state * 1664525u + 1013904223u;
        t.data_as<std::int8_t>()[i] = static_cast<std::int8_t>(
            lo + static_cast<int>((state >> 8) % static_cast<std::uint32_t>(hi - lo + 1)));
    }
    return t;
}

/// Floating A = (k + 0.25) * scale for integers k in [lo, hi]: never a rounding tie,
/// DLFLOAT16-exact.
tensor off_tie_tensor(const shape& dims, int lo, int hi, float scale, std::uint32_t seed) {
    const tensor k = int8_tensor(dims, lo, hi, 1.0f, 0, seed);
    tensor t(tensor_desc(dims, dtype::f32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = (k.data_as<std::int8_t>()[i] + 0.25f) * scale;
    return t;
}

/// Checks every element within `tolerance` (absolute).
void check_within(const tensor& actual, const tensor& expected, double tolerance,
                  const std::string& what) {
    REQUIRE(actual.dims() == expected.dims());
    int bad = 0;
    for (std::int64_t i = 0; i < expected.num_elements(); ++i) {
        const double x = actual.data_as<float>()[i], r = expected.data_as<float>()[i];
        if (!(std::fabs(x - r) <= tolerance) && bad++ < 5) {
            INFO(what << " element " << i << ": zaiu " << x << " reference " << r);
            CHECK(std::fabs(x - r) <= tolerance);
        }
    }
    CHECK_MESSAGE(bad == 0, what << ": " << bad << " elements beyond " << tolerance);
}

/// Runs on "zaiu!" (B and C as constants, like weights) and compares with the reference.
void check_quantized(const op::quantized_matmul& q, const std::vector<tensor>& in,
                     double tolerance = -1.0) {
    const tensor expected = reference::execute(q, in).at(0);
    const tensor actual = run_op(q, in, "zaiu!", {false, true, true}).at(0);
    if (tolerance < 0) {
        check_close(actual, expected, tolerance_of("zaiu"), 1, "quantized_matmul");
    } else {
        check_within(actual, expected, tolerance, "quantized_matmul");
    }
}

std::string placement_of(const op::quantized_matmul& q, const std::vector<tensor>& in,
                         tensor* result) {
    std::string report;
    *result = run_op(q, in, "zaiu|reference", {false, true, true}, &report).at(0);
    return report;
}

}  // namespace

TEST_CASE("quantized_matmul int8 A, dequantised addition, odd shapes") {
    // n = 70 spans two weight sticks (rows interleaved in pairs), p = 130 two int8 sticks of C
    const tensor a = int8_tensor(shape{5, 70}, -100, 100, 0.02f, 3, 1);
    const tensor b = int8_tensor(shape{70, 130}, -120, 120, 0.01f, -2, 2);
    const tensor c = int8_tensor(shape{130}, -50, 50, 0.03f, 1, 3);
    check_quantized(op::quantized_matmul(), {a, b, c});
    check_quantized(op::quantized_matmul().output_quantization(0.5f, 7),
                    {a, b, c});  // Sy, Zy cancel
}

TEST_CASE("quantized_matmul stacked, bcast1 and bcast23 forms and transposed int8 operands") {
    const float sa = 0.05f, sb = 0.02f, sc = 0.04f;
    check_quantized(op::quantized_matmul(), {int8_tensor(shape{3, 4, 33}, -90, 90, sa, -1, 4),
                                             int8_tensor(shape{3, 33, 7}, -90, 90, sb, 0, 5),
                                             int8_tensor(shape{3, 7}, -30, 30, sc, 2, 6)});
    check_quantized(op::quantized_matmul(),
                    {int8_tensor(shape{4, 33}, -90, 90, sa, 5, 7),
                     int8_tensor(shape{3, 33, 7}, -90, 90, sb, 1, 8),
                     int8_tensor(shape{3, 7}, -30, 30, sc, 0, 9)});  // bcast1
    check_quantized(op::quantized_matmul(),
                    {int8_tensor(shape{3, 4, 33}, -90, 90, sa, 0, 10),
                     int8_tensor(shape{33, 7}, -90, 90, sb, -3, 11),
                     int8_tensor(shape{7}, -30, 30, sc, 0, 12)});  // bcast23
    check_quantized(op::quantized_matmul().transpose(true, true),
                    {int8_tensor(shape{33, 5}, -90, 90, sa, 2, 13),
                     int8_tensor(shape{9, 33}, -90, 90, sb, -1, 14),
                     int8_tensor(shape{9}, -30, 30, sc, 0, 15)});
}

TEST_CASE(
    "quantized_matmul requantised output rounded half to even and clipped, or left unclipped") {
    const tensor a = int8_tensor(shape{6, 40}, -60, 60, 0.1f, 1, 16);
    const tensor b = int8_tensor(shape{40, 11}, -60, 60, 0.05f, 0, 17);
    const tensor c = int8_tensor(shape{11}, -20, 20, 0.2f, -1, 18);
    // Y spans about +-40 here: out_scale 0.25 takes q past +-128 (clipped), 2.5 keeps it inside.
    check_quantized(op::quantized_matmul().dequantized(false).output_quantization(0.25f, 3),
                    {a, b, c}, 1.0);
    check_quantized(op::quantized_matmul().dequantized(false).output_quantization(2.5f, -4),
                    {a, b, c}, 1.0);
    check_quantized(
        op::quantized_matmul().dequantized(false).no_clipping().output_quantization(0.25f, 3),
        {a, b, c});
}

TEST_CASE("quantized_matmul with a floating A quantised on the fly, clip range applied") {
    // k in [-30, 30], clip [-20, 20]: some values are clipped; zero points odd and even
    const tensor a = off_tie_tensor(shape{5, 37}, -30, 30, 0.5f, 19);
    const tensor b = int8_tensor(shape{37, 8}, -100, 100, 0.01f, 2, 20);
    const tensor c = int8_tensor(shape{8}, -40, 40, 0.05f, 0, 21);
    check_quantized(op::quantized_matmul().input_quantization(0.5f, 3).clip(-20, 20), {a, b, c});
    check_quantized(op::quantized_matmul().input_quantization(0.5f, -2), {a, b, c});
    check_quantized(op::quantized_matmul()
                        .input_quantization(0.5f, 3)
                        .clip(-20, 20)
                        .no_clipping()
                        .dequantized(false)
                        .output_quantization(0.1f, 0),
                    {a, b, c});
    const tensor stacked = off_tie_tensor(shape{2, 5, 37}, -30, 30, 0.25f, 22);
    check_quantized(op::quantized_matmul().input_quantization(0.25f, 1),
                    {stacked, b, c});  // bcast23
}

TEST_CASE("quantized_matmul comparisons are exact with power-of-two scales") {
    const tensor a = int8_tensor(shape{6, 10}, -4, 4, 0.5f, 1, 23);
    const tensor b = int8_tensor(shape{10, 7}, -4, 4, 0.25f, -1, 24);
    const tensor c = int8_tensor(shape{7}, -20, 20, 0.125f, 2, 25);
    for (auto o : {matmul_kind::greater, matmul_kind::greater_equal, matmul_kind::equal,
                   matmul_kind::not_equal, matmul_kind::lesser_equal, matmul_kind::lesser}) {
        CAPTURE(o);
        check_quantized(op::quantized_matmul().operation(o), {a, b, c}, 0.0);
    }
}

TEST_CASE("quantized_matmul with a pre-computed bias") {
    const tensor a = int8_tensor(shape{4, 20}, -50, 50, 0.1f, 0, 26);
    const tensor b = int8_tensor(shape{20, 9}, -50, 50, 0.1f, 0, 27);
    const tensor bias = values(shape{9}, 28, -5, 5);  // output units
    check_quantized(op::quantized_matmul().precomputed(), {a, b, bias});
    check_quantized(
        op::quantized_matmul().precomputed().dequantized(false).output_quantization(0.5f, 2),
        {a, b, bias}, 1.0);
    // comparisons against sum qa * qb: Za may be non-zero (folded into C by the caller)
    const tensor a_offset = int8_tensor(shape{4, 20}, -5, 5, 0.5f, 3, 29);
    const tensor b_small = int8_tensor(shape{20, 9}, -5, 5, 0.5f, 0, 30);
    tensor threshold = values(shape{9}, 31, -20, 20);
    for (std::int64_t i = 0; i < 9; ++i)
        threshold.data_as<float>()[i] = std::floor(threshold.data_as<float>()[i]);
    check_quantized(op::quantized_matmul().precomputed().operation(matmul_kind::greater_equal),
                    {a_offset, b_small, threshold}, 0.0);
}

TEST_CASE("quantized_matmul declines what zDNN cannot express and falls back with the reason") {
    const tensor b = int8_tensor(shape{20, 9}, -50, 50, 0.1f, 4, 32);  // Zb != 0
    const tensor bias = values(shape{9}, 33, -5, 5);
    const std::vector<tensor> in{int8_tensor(shape{4, 20}, -50, 50, 0.1f, 0, 34), b, bias};
    const op::quantized_matmul q = op::quantized_matmul().precomputed();
    tensor result;
    const std::string report = placement_of(q, in, &result);
    CAPTURE(report);
    CHECK(report.find("[quantized_matmul] -> reference") != std::string::npos);
    CHECK(report.find("pre-computed bias with non-zero zero points") != std::string::npos);
    check_within(result, reference::execute(q, in).at(0), 0.0, "fallback");
    try {
        (void)run_op(q, in, "zaiu!", {false, true, true});
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::unsupported);
    }
    // a floating A cannot be transposed in its sticks
    const std::vector<tensor> float_a{off_tie_tensor(shape{20, 4}, -10, 10, 0.5f, 35),
                                      int8_tensor(shape{20, 9}, -50, 50, 0.1f, 0, 36),
                                      int8_tensor(shape{9}, -9, 9, 0.1f, 0, 37)};
    const op::quantized_matmul qt =
        op::quantized_matmul().transpose(true, false).input_quantization(0.5f, 0);
    const std::string report_t = placement_of(qt, float_a, &result);
    CAPTURE(report_t);
    CHECK(report_t.find("[quantized_matmul] -> reference") != std::string::npos);
    CHECK(report_t.find("(attribute)") != std::string::npos);
    check_within(result, reference::execute(qt, float_a).at(0), 0.0, "fallback, transposed A");
}

TEST_CASE("quantized_matmul reads a floating A left in sticks by the previous zaiu op") {
    graph g;
    const tensor x =
        off_tie_tensor(shape{6, 24}, -40, 40, 0.5f, 38);  // relu leaves the positive values
    const auto in = g.input("x", x.desc());
    const auto r = g.apply("relu", op::activation(activation_kind::relu), {in});
    const op::quantized_matmul q = op::quantized_matmul().input_quantization(0.5f, -5);
    const tensor w = int8_tensor(shape{24, 10}, -100, 100, 0.02f, 0, 39),
                 c = int8_tensor(shape{10}, -10, 10, 0.1f, 0, 40);
    g.output(g.apply("qmm", q, {r, g.constant("w", w), g.constant("c", c)}));
    compiled_graph z = g.compile("zaiu!");
    const std::string report = z.placement_report();
    CAPTURE(report);
    CHECK(report.find("transfer") == std::string::npos);
    CHECK(report.find("[reorder]") == std::string::npos);  // no reorder node inserted
    CHECK(report.find(" 0 reorders") != std::string::npos);  // and the partition ran none
    const tensor expected =
        reference::execute(
            q, {reference::execute(op::activation(activation_kind::relu), {x}).at(0), w, c})
            .at(0);
    check_close(z.run({{"x", x}}).at("qmm"), expected, tolerance_of("zaiu"), 1,
                "relu then quantized_matmul");
}
