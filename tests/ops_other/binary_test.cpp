// binary_test.cpp: op::binary: float arithmetic, numpy broadcasting edge cases, the CLML
// alpha/beta/gamma form, OpenVX integer policies (wrap/saturate, rounding, Q7.8 multiply), and
// validation messages.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/elementwise.hpp"

using namespace ops_test;
using tessera::op::binary;

TEST_CASE("binary: every op on floats") {
    const auto a = make(shape{5}, {1, -2, 3.5, 0, 8});
    const auto b = make(shape{5}, {2, 4, -1, 5, 0.5});
    check_close(values(run1(binary(binary_kind::add), {a, b})), {3, 2, 2.5, 5, 8.5});
    check_close(values(run1(binary(binary_kind::sub), {a, b})), {-1, -6, 4.5, -5, 7.5});
    check_close(values(run1(binary(binary_kind::mul), {a, b})), {2, -8, -3.5, 0, 4});
    check_close(values(run1(binary(binary_kind::min), {a, b})), {1, -2, -1, 0, 0.5});
    check_close(values(run1(binary(binary_kind::max), {a, b})), {2, 4, 3.5, 5, 8});
    check_close(values(run1(binary(binary_kind::div), {a, b})), {0.5, -0.5, -3.5, 0, 16});
    // IEEE division by zero and NaN propagation of min/max stay float semantics.
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const auto z = make(shape{2}, {0, 0});
    check_close(values(run1(binary(binary_kind::div), {make(shape{2}, {1, -1}), z})), {inf, -inf});
    check_close(
        values(run1(binary(binary_kind::max), {make(shape{2}, {nan, 1}), make(shape{2}, {1, nan})})),
        {nan, nan});
}

TEST_CASE("binary: numpy broadcasting") {
    const auto a = make(shape{2, 3}, {1, 2, 3, 4, 5, 6});
    SUBCASE("row vector") {
        const auto out = run1(binary(binary_kind::add), {a, make(shape{3}, {10, 20, 30})});
        CHECK(out.dims() == shape{2, 3});
        check_close(values(out), {11, 22, 33, 14, 25, 36});
    }
    SUBCASE("column vector") {
        check_close(values(run1(binary(binary_kind::sub), {a, make(shape{2, 1}, {1, 2})})),
                    {0, 1, 2, 2, 3, 4});
    }
    SUBCASE("both operands grow: 1x3 op 2x1") {
        const auto out = run1(binary(binary_kind::mul),
                              {make(shape{1, 3}, {1, 2, 3}), make(shape{2, 1}, {10, 100})});
        CHECK(out.dims() == shape{2, 3});
        check_close(values(out), {10, 20, 30, 100, 200, 300});
    }
    SUBCASE("rank-0 scalar, both sides") {
        check_close(values(run1(binary(binary_kind::div), {a, make(shape{}, {2})})),
                    {0.5, 1, 1.5, 2, 2.5, 3});
        const auto out = run1(binary(binary_kind::sub), {make(shape{}, {10}), a});
        CHECK(out.dims() == shape{2, 3});
        check_close(values(out), {9, 8, 7, 6, 5, 4});
    }
    SUBCASE("lower rank operand is aligned from the right, not the left") {
        // B of shape {2} cannot broadcast against A {2,3} (last dims 3 vs 2), even though dim 0
        // is 2.
        check_error(
            [&] {
                binary().infer({a.desc(), tensor_desc(shape{2}, dtype::f32)});
            },
            {"binary", "tensor 'B'", "dim 0 is 2, not broadcastable against 3"});
    }
    SUBCASE("zero-sized dims broadcast against 1") {
        const auto out = binary().infer(
            {tensor_desc(shape{0, 3}, dtype::f32), tensor_desc(shape{1, 3}, dtype::f32)});
        CHECK(out[0].dims() == shape{0, 3});
    }
    SUBCASE("labels of the image operand survive") {
        const auto out = binary().infer({tensor_desc(shape::nchw(1, 2, 3, 3), dtype::f32),
                                         tensor_desc(shape{2, 1, 1}, dtype::f32)});
        CHECK(out[0].dims().label(1) == dim_label::c);
    }
}

TEST_CASE("binary: CLML form out = (alpha*A) op (beta*B) + gamma*C") {
    const auto a = make(shape{2, 2}, {1, 2, 3, 4});
    const auto b = make(shape{2, 2}, {4, 3, 2, 1});
    const auto c = make(shape{2, 2}, {10, 20, 30, 40});
    auto op = binary(binary_kind::sub).set_alpha(2).set_beta(0.5f).set_gamma(3);
    check_close(values(run1(op, {a, b, c})), {2 - 2 + 30, 4 - 1.5 + 60, 6 - 1 + 90, 8 - 0.5 + 120});
    // gamma != 0 needs C; with gamma == 0 a given C is ignored.
    check_error([&] { op.infer({a.desc(), b.desc()}); }, {"binary", "expects 3 inputs, got 2"});
    check_close(values(run1(binary(binary_kind::max).set_alpha(-1), {a, b, c})), {4, 3, 2, 1});
    // C broadcasts to the output shape.
    check_close(
        values(run1(binary(binary_kind::add).set_gamma(1), {a, b, make(shape{2, 1}, {100, 200})})),
        {105, 105, 205, 205});
    check_error(
        [&] {
            op.infer({a.desc(), b.desc(), tensor_desc(shape{3, 2}, dtype::f32)});
        },
        {"tensor 'C'", "dim 0 is 3"});
}

TEST_CASE("binary: integer add/sub saturate vs wrap at the edges (OpenVX policies)") {
    const auto wrap = binary(binary_kind::add).set_overflow(overflow_policy::wrap);
    const auto sat = binary(binary_kind::add).set_overflow(overflow_policy::saturate);
    const auto i16a = make_raw(shape{3}, {32767, -32768, 100}, dtype::i16);
    const auto i16b = make_raw(shape{3}, {1, -1, -200}, dtype::i16);
    CHECK(raw_values(run1(sat, {i16a, i16b})) == std::vector<double>{32767, -32768, -100});
    CHECK(raw_values(run1(wrap, {i16a, i16b})) == std::vector<double>{-32768, 32767, -100});
    const auto u8a = make_raw(shape{2}, {250, 3}, dtype::u8);
    const auto u8b = make_raw(shape{2}, {10, 5}, dtype::u8);
    CHECK(raw_values(run1(sat, {u8a, u8b})) == std::vector<double>{255, 8});
    CHECK(raw_values(run1(wrap, {u8a, u8b})) == std::vector<double>{4, 8});
    const auto sub_sat = binary(binary_kind::sub);
    const auto sub_wrap = binary(binary_kind::sub).set_overflow(overflow_policy::wrap);
    CHECK(raw_values(run1(sub_sat, {u8b, u8a})) == std::vector<double>{0, 2});
    CHECK(raw_values(run1(sub_wrap, {u8b, u8a})) == std::vector<double>{16, 2});  // -240 mod 256
    const auto i8a = make_raw(shape{2}, {-128, 127}, dtype::i8);
    const auto i8b = make_raw(shape{2}, {1, -1}, dtype::i8);
    CHECK(raw_values(run1(sub_sat, {i8a, i8b})) == std::vector<double>{-128, 127});
    CHECK(raw_values(run1(sub_wrap, {i8a, i8b})) == std::vector<double>{127, -128});
    // i32 is exact at the edges too (no double rounding of 2^31 - 1).
    const auto i32a = make_raw(shape{2}, {2147483647, -2147483647}, dtype::i32);
    const auto i32b = make_raw(shape{2}, {2, -2}, dtype::i32);
    CHECK(raw_values(run1(sat, {i32a, i32b})) == std::vector<double>{2147483647, -2147483648.0});
    CHECK(raw_values(run1(wrap, {i32a, i32b})) == std::vector<double>{-2147483647, 2147483647});
    CHECK(raw_values(run1(binary(binary_kind::mul).set_overflow(overflow_policy::wrap),
                          {i32a, i32b})) == std::vector<double>{-2, -2});
}

TEST_CASE("binary: Q7.8 multiply rounds once, per the rounding policy, with OpenVX scale") {
    const quantization q78{1.0f, 0, 8};
    // raw products / 256: 3*128/256 = 1.5, 5*128/256 = 2.5, -3*128/256 = -1.5, 7*128/256 = 3.5
    const auto a = make_raw(shape{4}, {3, 5, -3, 7}, dtype::i16, q78);
    const auto b = make_raw(shape{4}, {128, 128, 128, 128}, dtype::i16, q78);
    const auto even = binary(binary_kind::mul).set_rounding(rounding_policy::to_nearest_even);
    const auto zero = binary(binary_kind::mul).set_rounding(rounding_policy::to_zero);
    CHECK(raw_values(run1(even, {a, b})) == std::vector<double>{2, 2, -2, 4});
    CHECK(raw_values(run1(zero, {a, b})) == std::vector<double>{1, 2, -1, 3});
    // The product of two Q7.8 numbers agrees with numeric::fixed_multiply.
    for (int x : {-32768, -1000, -3, 0, 3, 77, 1000, 32767}) {
        for (int y : {-32768, -129, -1, 1, 129, 255, 32767}) {
            const auto got =
                raw_values(run1(even, {make_raw(shape{1}, {double(x)}, dtype::i16, q78),
                                       make_raw(shape{1}, {double(y)}, dtype::i16, q78)}));
            const auto want = numeric::fixed_multiply<std::int16_t>(
                static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), 8,
                rounding_policy::to_nearest_even, overflow_policy::saturate);
            CHECK_MESSAGE(got[0] == want, x << " * " << y);
        }
    }
    // scale 0.5: 1.0 * 1.0 * 0.5 = 0.5 -> raw 128; saturation vs wrap of 100 * 100.
    const auto one = make_raw(shape{1}, {256}, dtype::i16, q78);
    CHECK(raw_values(run1(binary(binary_kind::mul).set_scale(0.5f), {one, one})) ==
          std::vector<double>{128});
    const auto hundred = make_raw(shape{1}, {25600}, dtype::i16, q78);
    CHECK(raw_values(run1(binary(binary_kind::mul), {hundred, hundred})) ==
          std::vector<double>{32767});
    // 10000.0 -> raw 2560000, wrapped to 16 bits: 2560000 mod 65536 = 4096.
    CHECK(raw_values(run1(binary(binary_kind::mul).set_overflow(overflow_policy::wrap),
                          {hundred, hundred})) == std::vector<double>{4096});
}

TEST_CASE("binary: integer division rounds by policy, division by zero gives 0") {
    const auto a = make_raw(shape{4}, {7, -7, 5, 9}, dtype::i32);
    const auto b = make_raw(shape{4}, {2, 2, 2, 0}, dtype::i32);
    CHECK(raw_values(run1(binary(binary_kind::div), {a, b})) == std::vector<double>{4, -4, 2, 0});
    CHECK(raw_values(run1(binary(binary_kind::div).set_rounding(rounding_policy::to_zero), {a, b})) ==
          std::vector<double>{3, -3, 2, 0});
}

TEST_CASE("binary: quantised u8 operands with different scales add on real values") {
    const quantization qa{0.5f, 10, 0}, qb{0.25f, 0, 0};
    const auto a = make(shape{3}, {1.0, 2.5, -5}, dtype::u8, qa);  // raw 12, 15, 0
    const auto b = make(shape{3}, {0.5, 1.0, 60}, dtype::u8, qb);  // raw 2, 4, 240
    const auto out = run1(binary(binary_kind::add), {a, b});
    CHECK(out.desc().quant().scale == 0.5f);
    CHECK(out.desc().quant().zero_point == 10);
    CHECK(values(out) == std::vector<double>{1.5, 3.5, 55});
}

TEST_CASE("binary: validation names op, tensor and dimension") {
    const tensor_desc a(shape{2, 3}, dtype::f32);
    check_error(
        [&] {
            binary().infer({a, tensor_desc(shape{2, 3}, dtype::i8)});
        },
        {"binary", "tensor 'B'", "dtype is i8, expected f32"});
    check_error(
        [&] {
            binary().infer({a, tensor_desc(shape{4, 3}, dtype::f32)});
        },
        {"tensor 'B'", "dim 0 is 4, not broadcastable against 2"});
    check_error([&] { binary().infer({a}); }, {"expects 2 to 3 inputs, got 1"});
    binary bad;
    bad = test::with_raw_params(bad, [](auto& p) { p.op = 17; });
    check_error([&] { bad.infer({a, a}); }, {"unknown binary op value 17"});
    bad = binary();
    bad = test::with_raw_params(bad, [](auto& p) { p.rounding = 5; });
    check_error([&] { bad.infer({a, a}); }, {"unknown rounding value 5"});
    bad = binary();
    bad = test::with_raw_params(bad, [](auto& p) { p.overflow = -1; });
    check_error([&] { bad.infer({a, a}); }, {"unknown overflow value -1"});
    check_error([&] { binary().set_alpha(std::nanf("")).infer({a, a}); }, {"must be finite"});
    check_error(
        [&] {
            binary().infer(
                {tensor_desc(shape{2}, dtype::boolean), tensor_desc(shape{2}, dtype::boolean)});
        },
        {"tensor 'A'", "bool"});
}

TEST_CASE("binary: pow with broadcasting, negative bases with integral exponents") {
    const auto a = make(shape{2, 2}, {2, 9, -2, 4});
    check_close(values(run1(binary(binary_kind::pow), {a, make(shape{2}, {3, 0.5})})),
                {8, 3, -8, 2}, 1e-6);
    check_close(values(run1(binary(binary_kind::pow), {a, make(shape{}, {-1})})),
                {0.5, 1.0 / 9, -0.5, 0.25}, 1e-6);
    // A negative base with a fractional exponent is NaN (C pow).
    check_close(
        values(run1(binary(binary_kind::pow), {make(shape{1}, {-2}), make(shape{1}, {0.5})})),
        {std::nan("")});
    // Integer tensors: exact integer powers.
    check_close(values(run1(binary(binary_kind::pow), {make(shape{2}, {3, -2}, dtype::i32),
                                                       make(shape{2}, {4, 3}, dtype::i32)})),
                {81, -8});
}
