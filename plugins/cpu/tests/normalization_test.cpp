// normalization_test.cpp: the normalisation and statistics ops the cpu plugin computes in its
// own loops in double, as the reference does (batchnorm forms off the runtime, layer_norm's
// statistics form and 16-bit floats, lrn, moments, mean_reduce2d, norm), run natively and equal
// the reference's results byte for byte; small cases are checked against hand-computed values.
#include "typed_values.hpp"

using namespace cpu_test;

namespace {

/// The one output of `op` run natively on `inputs` (nothing emulated), as f32 values.
std::vector<float> native_values(const op_desc& op, const std::vector<tensor>& inputs,
                                 int output = 0) {
    const auto [got, want] = run_native(op, inputs);
    const tensor t = as_f32(got.at(static_cast<std::size_t>(output)));
    const auto* p = static_cast<const float*>(t.data());
    return {p, p + t.num_elements()};
}

tensor f32_of(const shape& dims, const std::vector<float>& v) {
    tensor t(tensor_desc(dims, dtype::f32));
    std::copy(v.begin(), v.end(), static_cast<float*>(t.data()));
    return t;
}

}  // namespace

TEST_CASE("batchnorm forms off the runtime run natively and match the reference exactly") {
    load_cpu_plugin();
    const tensor c5 = values(shape{5}, 11, -0.5f, 0.5f);
    const tensor variance = values(shape{5}, 12, 0.5f, 2.0f);
    const tensor scale = values(shape{5}, 13, 0.5f, 1.5f);
    const tensor slope = values(shape{5}, 14, -0.5f, 0.5f);
    SUBCASE("affine a * x + b, ranks 2 to 5") {
        for (const shape& s :
             {shape{3, 5}, shape{2, 5, 7}, shape{2, 5, 3, 4}, shape{2, 5, 2, 3, 4}})
            check_exact(op::batchnorm().affine(), {values(s, 15, -2.0f, 2.0f), scale, c5});
    }
    SUBCASE("statistics with scale and shift at ranks 2, 3 and 5") {
        for (const shape& s : {shape{4, 5}, shape{2, 5, 9}, shape{1, 5, 2, 3, 4}})
            check_exact(op::batchnorm().eps(1e-3f),
                        {values(s, 16, -2.0f, 2.0f), c5, variance, scale, c5});
    }
    SUBCASE("PReLU slope [C] and [1], at rank 4 too") {
        const tensor x = values(shape{2, 5, 3, 6}, 17, -2.0f, 2.0f);
        const op_desc prelu = op::batchnorm().fuse(activation_kind::prelu);
        check_exact(prelu, {x, c5, variance, slope});
        check_exact(prelu, {x, c5, variance, scale, c5, values(shape{1}, 18, -0.5f, 0.5f)});
        check_exact(op::batchnorm().affine().fuse(activation_kind::prelu),
                    {values(shape{3, 5}, 19, -2.0f, 2.0f), scale, c5, slope});
    }
    SUBCASE("16-bit floats") {
        for (dtype t : {dtype::f16, dtype::bf16}) {
            INFO(to_string(t));
            check_exact(op::batchnorm(), {grid(shape{2, 3, 4, 5}, t, 20, -2.0, 0.125, 33),
                                          grid(shape{3}, t, 21, -0.5, 0.125, 9),
                                          grid(shape{3}, t, 22, 0.5, 0.125, 13)});
        }
    }
    SUBCASE("hand-computed: (x - mean) / sqrt(variance + eps) * scale + shift, then PReLU") {
        // Channel 0: (4 - 1) / sqrt(8 + 1) = 1, * 2 + 1 = 3; (-2 - 1) / 3 = -1, * 2 + 1 = -1,
        // PReLU 0.5: -0.5. Channel 1: (0 - 0) / sqrt(3 + 1) * 1 + 0 = 0.
        const std::vector<float> y =
            native_values(op::batchnorm().eps(1.0f).fuse(activation_kind::prelu),
                          {f32_of(shape{1, 2, 2}, {4, -2, 0, 0}), f32_of(shape{2}, {1, 0}),
                           f32_of(shape{2}, {8, 3}), f32_of(shape{2}, {2, 1}),
                           f32_of(shape{2}, {1, 0}), f32_of(shape{1}, {0.5f})});
        CHECK(y == std::vector<float>{3.0f, -0.5f, 0.0f, 0.0f});
    }
}

TEST_CASE("layer norm's statistics form and 16-bit floats run natively and match exactly") {
    load_cpu_plugin();
    const shape s{2, 3, 4, 5};
    const tensor x = values(s, 30, -2.0f, 2.0f);
    const std::vector<shape> statistics = {shape{2, 1, 1, 1}, shape{2, 3, 1, 1}, shape{1, 1, 1, 1},
                                           shape{1, 1, 1, 5}, shape{1, 3, 1, 5}, s};
    for (std::size_t i = 0; i < statistics.size(); ++i) {
        CAPTURE(i);
        const shape& st = statistics[i];
        check_exact(op::layer_norm().statistics().affine(1.5f, -0.25f).eps(1e-3f),
                    {x, values(st, 31, -0.5f, 0.5f), values(st, 32, 0.5f, 2.0f)});
    }
    for (dtype t : {dtype::f16, dtype::bf16, dtype::dlfloat16}) {
        INFO(to_string(t));
        check_exact(op::layer_norm().from_axis(1), {grid(s, t, 33, -2.0, 0.125, 33)});
        check_exact(op::layer_norm().tensors(true, true),
                    {grid(s, t, 34, -2.0, 0.125, 33), grid(shape{5}, t, 35, 0.5, 0.125, 9),
                     grid(shape{5}, t, 36, -0.5, 0.125, 9)});
    }
    SUBCASE("hand-computed: one mean and variance for every element") {
        // (x - 1) / sqrt(3 + 1) * 2 + 0.5
        const std::vector<float> y = native_values(
            op::layer_norm().statistics().affine(2.0f, 0.5f).eps(1.0f),
            {f32_of(shape{1, 3}, {1, 3, -1}), f32_of(shape{1, 1}, {1}), f32_of(shape{1, 1}, {3})});
        CHECK(y == std::vector<float>{0.5f, 2.5f, -1.5f});
    }
}

TEST_CASE("lrn across and within channels runs natively and matches the reference exactly") {
    load_cpu_plugin();
    const tensor x = values(shape{2, 7, 5, 6}, 40, -2.0f, 2.0f);
    check_exact(op::lrn().window(5).coefficients(1e-2f, 0.75f, 1.0f), {x});
    check_exact(op::lrn().window(3).coefficients(0.05f, 0.5f, 2.0f).scaled(false), {x});
    check_exact(op::lrn().window(9).coefficients(0.1f, 0.75f, 1.0f), {x});  // wider than C / 2
    check_exact(op::lrn().kind(lrn_kind::within_channel).window(3), {x});
    check_exact(op::lrn().kind(lrn_kind::within_channel).window(7), {x});  // wider than H
    check_exact(op::lrn(), {values(shape{3, 6, 40}, 41, -2.0f, 2.0f)});    // rank 3
    check_exact(op::lrn(), {values(shape{4, 9}, 42, -2.0f, 2.0f)});        // rank 2
    check_exact(op::lrn().window(3), {values(shape{2, 16, 64, 64}, 43)});  // split over threads
    for (dtype t : {dtype::f16, dtype::bf16}) {
        INFO(to_string(t));
        check_exact(op::lrn(), {grid(shape{1, 6, 4, 4}, t, 44, -2.0, 0.125, 33)});
    }
    INFO("i16 fixed point");
    check_exact(op::lrn().coefficients(0.5f, 0.75f, 1.0f),
                {grid(shape{1, 6, 4, 4}, dtype::i16, 45, -4000.0, 97.0, 81, {1.0f, 0, 10})});
    SUBCASE("hand-computed: window 3 across two channels") {
        // Both windows hold both channels: sum 1 + 4 = 5; y = x / (1 + 1 * 5)^1.
        const std::vector<float> y =
            native_values(op::lrn().window(3).coefficients(1.0f, 1.0f, 1.0f).scaled(false),
                          {f32_of(shape{1, 2, 1, 1}, {1, 2})});
        CHECK(y[0] == doctest::Approx(1.0 / 6));
        CHECK(y[1] == doctest::Approx(2.0 / 6));
    }
}

TEST_CASE("moments, mean_reduce2d and norm run natively and match the reference exactly") {
    load_cpu_plugin();
    const tensor x = values(shape{3, 4, 5, 6}, 50, -2.0f, 2.0f);
    for (int first : {1, 2, 3, -1}) {
        CAPTURE(first);
        check_exact(op::moments().from_axis(first), {x});
        check_exact(op::moments().from_axis(first).correction(bessel_correction::sample), {x});
    }
    check_exact(op::moments().from_axis(0), {values(shape{64, 700}, 51)});  // one long row
    check_exact(op::mean_reduce2d(), {x});
    check_exact(op::mean_reduce2d(), {grid(shape{2, 3, 5, 5}, dtype::f16, 52, -2.0, 0.125, 33)});
    for (int axis : {0, 1, 2, -1}) {
        CAPTURE(axis);
        check_exact(op::norm().along(axis), {x, values(shape{3, 4, 5, 6}, 53, -2.0f, 2.0f)});
    }
    check_exact(op::norm().along(0), {values(shape{9, 5000}, 54), values(shape{9, 5000}, 55)});
    SUBCASE("integer mean_reduce2d averages stored values and rounds as asked") {
        const quantization q{0.5f, 3, 0};
        const tensor u8 = grid(shape{2, 2, 3, 3}, dtype::u8, 56, 0.0, 1.0, 255, q);
        check_exact(op::mean_reduce2d(), {u8});
        check_exact(op::mean_reduce2d(),
                    {grid(shape{1, 3, 4, 4}, dtype::i8, 57, -128.0, 1.0, 256, q)});
        check_exact(op::mean_reduce2d(),
                    {grid(shape{1, 3, 4, 4}, dtype::i16, 58, -30000.0, 7.0, 8000, {1.0f, 0, 8})});
    }
    SUBCASE("hand-computed values") {
        // Sample variance of 1, 2, 3, 4: mean 2.5, squares 2.25 + 0.25 + 0.25 + 2.25 = 5, / 3.
        const tensor row = f32_of(shape{1, 4}, {1, 2, 3, 4});
        const op_desc sample = op::moments().correction(bessel_correction::sample);
        CHECK(native_values(sample, {row}, 0) == std::vector<float>{2.5f});
        CHECK(native_values(sample, {row}, 1)[0] == doctest::Approx(5.0 / 3));
        // |(3, 4) - (0, 0)| = 5 along the last axis; along axis 0: |3 - 0|, |4 - 0|.
        const tensor zero = f32_of(shape{1, 2}, {0, 0}), b = f32_of(shape{1, 2}, {3, 4});
        CHECK(native_values(op::norm(), {zero, b}) == std::vector<float>{5.0f});
        CHECK(native_values(op::norm().along(0), {zero, b}) == std::vector<float>{3.0f, 4.0f});
        // Mean of 1 and 2 stored in u8: 1.5, rounded to nearest even: 2.
        tensor two(tensor_desc(shape{1, 1, 1, 2}, dtype::u8));
        static_cast<std::uint8_t*>(two.data())[0] = 1;
        static_cast<std::uint8_t*>(two.data())[1] = 2;
        const tensor even = run_native(op::mean_reduce2d(), {two}).first.at(0);
        CHECK(static_cast<const std::uint8_t*>(even.data())[0] == 2);
    }
}

TEST_CASE("split over three threads, the loops match the reference exactly") {
    load_cpu_plugin();
    // Large enough for three parts; ranges and chunks start inside a channel's run of 4177.
    const tensor x = values(shape{3, 5, 4177}, 60, -2.0f, 2.0f);
    const tensor c5 = values(shape{5}, 61, -0.5f, 0.5f), v5 = values(shape{5}, 62, 0.5f, 2.0f);
    const tensor big = values(shape{2, 8, 60, 70}, 63, -2.0f, 2.0f);
    const std::vector<std::pair<op_desc, std::vector<tensor>>> cases = {
        {op::batchnorm().fuse(activation_kind::elu, 1.0f), {x, c5, v5}},
        {op::batchnorm().affine(), {x, v5, c5}},
        {op::layer_norm().statistics(),
         {big, values(shape{2, 8, 1, 1}, 64, -0.5f, 0.5f),
          values(shape{1, 8, 60, 1}, 65, 0.5f, 2.0f)}},
        {op::lrn(), {big}},
        {op::lrn().kind(lrn_kind::within_channel), {big}},
        {op::moments().from_axis(2), {big}},
        {op::mean_reduce2d(), {big}},
        {op::norm().along(1), {big, values(shape{2, 8, 60, 70}, 66, -2.0f, 2.0f)}},
    };
    for (const auto& [op, inputs] : cases) {
        std::string report;
        const auto got = run_op(op, inputs, "cpu!:threads=3", {}, &report);
        INFO(report);
        CHECK(report.find(" 0 emulated,") != std::string::npos);
        const auto want = reference::execute(op, inputs);
        for (std::size_t i = 0; i < want.size(); ++i)
            check_same_bytes(got.at(i), want[i], op.describe());
    }
}
