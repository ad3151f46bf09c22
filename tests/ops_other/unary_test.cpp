// unary_test.cpp: op::unary: log, exp, sqrt, rsqrt (zDNN invsqrt with epsilon), neg, abs,
// identities, integer behaviour and validation.
#include <doctest/doctest.h>

#include <cmath>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/elementwise.hpp"

using namespace ops_test;
using tessera::op::unary;

TEST_CASE("unary: hand values") {
    const auto x = make(shape{4}, {1, 4, 0.25, 16});
    check_close(values(run1(unary(unary_kind::log), {x})),
                {0, std::log(4.0), std::log(0.25), std::log(16.0)}, 1e-6);
    check_close(values(run1(unary(unary_kind::exp), {make(shape{3}, {0, 1, -2})})),
                {1, std::exp(1.0), std::exp(-2.0)}, 1e-6);
    check_close(values(run1(unary(unary_kind::sqrt), {x})), {1, 2, 0.5, 4});
    check_close(values(run1(unary(unary_kind::rsqrt), {x})), {1, 0.5, 2, 0.25});
    // zDNN invsqrt adds epsilon first: 1/sqrt(x + 0.75).
    check_close(values(run1(unary(unary_kind::rsqrt, 0.75f), {make(shape{2}, {0.25, 3.25})})),
                {1, 0.5});
    check_close(values(run1(unary(unary_kind::neg), {make(shape{3}, {1, -2, 0})})), {-1, 2, 0});
    check_close(values(run1(unary(unary_kind::abs), {make(shape{3}, {1, -2, 0})})), {1, 2, 0});
    // log of 0 and of negatives: -inf and NaN.
    check_close(values(run1(unary(unary_kind::log), {make(shape{2}, {0, -1})})),
                {-INFINITY, std::nan("")});
}

TEST_CASE("unary: exp(log(x)) == x and rsqrt(x)^2 * x == 1") {
    std::vector<double> x;
    for (int i = 1; i <= 50; ++i) x.push_back(i * 0.731);
    const auto t = make(shape{50}, x);
    const auto back = values(run1(unary(unary_kind::exp), {run1(unary(unary_kind::log), {t})}));
    const auto r = values(run1(unary(unary_kind::rsqrt), {t}));
    for (std::size_t i = 0; i < x.size(); ++i) {
        CHECK(back[i] == doctest::Approx(x[i]).epsilon(1e-5));
        CHECK(r[i] * r[i] * x[i] == doctest::Approx(1.0).epsilon(1e-5));
    }
}

TEST_CASE("unary: integers use real values and saturate") {
    CHECK(raw_values(run1(unary(unary_kind::neg), {make_raw(shape{3}, {-128, 127, 0}, dtype::i8)})) ==
          std::vector<double>{127, -127, 0});
    const quantization q78{1.0f, 0, 8};
    // sqrt(4.0) = 2.0 -> raw 512; sqrt(2.0) * 256 = 362.04 -> 362.
    CHECK(raw_values(
              run1(unary(unary_kind::sqrt), {make_raw(shape{2}, {1024, 512}, dtype::i16, q78)})) ==
          std::vector<double>{512, 362});
}

TEST_CASE("unary: validation") {
    const tensor_desc x(shape{2}, dtype::f32);
    unary bad;
    bad = test::with_raw_params(bad, [](auto& p) { p.op = 40; });
    check_error([&] { bad.infer({x}); }, {"unary", "unknown unary op value 40"});
    check_error([&] { unary(unary_kind::rsqrt, -1.0f).infer({x}); },
                {"unary", "epsilon", "must be finite and >= 0"});
    check_error([&] { unary().infer({x, x}); }, {"expects 1 inputs, got 2"});
    check_error([&] { unary().infer({tensor_desc(shape{2}, dtype::undef)}); },
                {"tensor 'src'", "not valid"});
    CHECK(unary().infer({x.with_type(dtype::bf16)})[0].type() == dtype::bf16);
}

TEST_CASE("unary: erf, floor, ceil, round (halves to even), sign, reciprocal") {
    const auto x = make(shape{7}, {-2.5, -1.5, -0.5, 0, 0.5, 1.5, 2.25});
    check_close(values(run1(unary(unary_kind::floor), {x})), {-3, -2, -1, 0, 0, 1, 2});
    check_close(values(run1(unary(unary_kind::ceil), {x})), {-2, -1, -0.0, 0, 1, 2, 3});
    check_close(values(run1(unary(unary_kind::round), {x})), {-2, -2, -0.0, 0, 0, 2, 2});
    check_close(values(run1(unary(unary_kind::sign), {x})), {-1, -1, -1, 0, 1, 1, 1});
    check_close(values(run1(unary(unary_kind::reciprocal), {x})),
                {-0.4, -1 / 1.5, -2, INFINITY, 2, 1 / 1.5, 1 / 2.25}, 1e-6);
    check_close(values(run1(unary(unary_kind::erf), {x})),
                {std::erf(-2.5), std::erf(-1.5), std::erf(-0.5), 0, std::erf(0.5), std::erf(1.5),
                 std::erf(2.25)},
                1e-6);
    check_close(values(run1(unary(unary_kind::sign), {make(shape{1}, {std::nan("")})})),
                {std::nan("")});
}

TEST_CASE("unary: trigonometric and hyperbolic functions against <cmath>") {
    const std::vector<double> x{-0.75, -0.25, 0, 0.5, 0.875};
    const auto t = make(shape{5}, x);
    const auto check = [&](unary_kind k, double (*f)(double)) {
        std::vector<double> want;
        for (double v : x) want.push_back(f(v));
        INFO("unary " << to_string(k));
        check_close(values(run1(unary(k), {t})), want, 1e-6);
    };
    check(unary_kind::sin, [](double v) { return std::sin(v); });
    check(unary_kind::cos, [](double v) { return std::cos(v); });
    check(unary_kind::tan, [](double v) { return std::tan(v); });
    check(unary_kind::asin, [](double v) { return std::asin(v); });
    check(unary_kind::acos, [](double v) { return std::acos(v); });
    check(unary_kind::atan, [](double v) { return std::atan(v); });
    check(unary_kind::sinh, [](double v) { return std::sinh(v); });
    check(unary_kind::cosh, [](double v) { return std::cosh(v); });
    check(unary_kind::asinh, [](double v) { return std::asinh(v); });
    check(unary_kind::atanh, [](double v) { return std::atanh(v); });
    check_close(values(run1(unary(unary_kind::acosh), {make(shape{2}, {1, 2})})),
                {0, std::acosh(2.0)}, 1e-6);
    // Outside the domain: NaN.
    check_close(values(run1(unary(unary_kind::asin), {make(shape{1}, {2})})), {std::nan("")});
    check_error(
        [&] {
            tessera::op::unary u;
            u.set_op(static_cast<tsr_unary_op>(23));
            u.infer({t.desc()});
        },
        {"unary", "unknown unary op value 23"});
}
