// activation_test.cpp: op::activation: every function against hand values and identities,
// PReLU slopes, Q7.8 int16 behaviour, NaN propagation and validation messages.
#include <doctest/doctest.h>

#include <cmath>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/activation.hpp"

using namespace ops_test;
using tessera::op::activation;

namespace {

std::vector<double> act_values(activation_kind kind, const std::vector<double>& x, float a = 0,
                               float b = 0) {
    return values(
        run1(activation(kind, a, b), {make(shape{static_cast<std::int64_t>(x.size())}, x)}));
}

}  // namespace

TEST_CASE("activation: piecewise-linear functions against hand values") {
    const std::vector<double> x{-3, -0.5, 0, 0.5, 4, 7};
    check_close(act_values(activation_kind::none, x), x);
    check_close(act_values(activation_kind::relu, x), {0, 0, 0, 0.5, 4, 7});
    check_close(act_values(activation_kind::relu6, x), {0, 0, 0, 0.5, 4, 6});
    check_close(act_values(activation_kind::bounded_relu, x, 2.5f), {0, 0, 0, 0.5, 2.5, 2.5});
    check_close(act_values(activation_kind::leaky_relu, x, 0.1f), {-0.3, -0.05, 0, 0.5, 4, 7}, 1e-6);
    check_close(act_values(activation_kind::abs, x), {3, 0.5, 0, 0.5, 4, 7});
    check_close(act_values(activation_kind::square, x), {9, 0.25, 0, 0.25, 16, 49});
    check_close(act_values(activation_kind::linear, x, 2.0f, -1.0f), {-7, -2, -1, 0, 7, 13});
    check_close(act_values(activation_kind::clip, x, -1.0f, 1.0f), {-1, -0.5, 0, 0.5, 1, 1});
}

TEST_CASE("activation: transcendental functions against closed forms") {
    check_close(act_values(activation_kind::sqrt, {0, 1, 2.25, 16}), {0, 1, 1.5, 4});
    check_close(act_values(activation_kind::elu, {-1, 0, 2}, 0.5f), {0.5 * (std::exp(-1.0) - 1), 0, 2},
                1e-7);
    check_close(act_values(activation_kind::tanh, {-1, 0, 0.5}, 2.0f, 3.0f),
                {2 * std::tanh(-3.0), 0, 2 * std::tanh(1.5)}, 1e-6);
    check_close(act_values(activation_kind::sigmoid, {0, 1}), {0.5, 1 / (1 + std::exp(-1.0))}, 1e-7);
    // soft_relu stays finite and exact-ish far out: log(1+e^100) = 100, log(1+e^-100) ~ e^-100.
    check_close(act_values(activation_kind::soft_relu, {100, 0, -100}), {100, std::log(2.0), 0}, 1e-6);
    // gelu(1) = 0.5*(1+erf(1/sqrt 2)) = Phi(1); the tanh form differs in the 4th decimal.
    check_close(act_values(activation_kind::gelu, {1, -1, 0}), {0.8413447460685429, -0.15865525393145707, 0},
                1e-6);
    check_close(act_values(activation_kind::gelu, {1}, 1.0f), {0.8411919906082768}, 1e-6);
}

TEST_CASE("activation: sigmoid(x) == 1 - sigmoid(-x) and tanh is odd") {
    std::vector<double> x, neg;
    for (int i = -40; i <= 40; ++i) {
        x.push_back(i * 0.37);
        neg.push_back(-i * 0.37);
    }
    const auto s = act_values(activation_kind::sigmoid, x);
    const auto sn = act_values(activation_kind::sigmoid, neg);
    const auto t = act_values(activation_kind::tanh, x, 1.0f, 1.0f);
    const auto tn = act_values(activation_kind::tanh, neg, 1.0f, 1.0f);
    for (std::size_t i = 0; i < x.size(); ++i) {
        CHECK(s[i] == doctest::Approx(1.0 - sn[i]).epsilon(1e-6));
        CHECK(t[i] == doctest::Approx(-tn[i]).epsilon(1e-6));
    }
}

TEST_CASE("activation: PReLU with a per-channel slope and with a broadcast slope") {
    // src 1x2x2x2 (N,C,H,W); channel 0 slope 0.5, channel 1 slope -2.
    const auto src = make(shape::nchw(1, 2, 2, 2), {-1, 2, -4, 0, -1, 3, -0.5, 1});
    const auto per_channel = run1(activation(activation_kind::prelu), {src, make(shape{2}, {0.5, -2})});
    check_close(values(per_channel), {-0.5, 2, -2, 0, 2, 3, 1, 1});
    // The same slope as a 2x1x1 tensor broadcast against C,H,W.
    const auto broadcast = run1(activation(activation_kind::prelu), {src, make(shape{2, 1, 1}, {0.5, -2})});
    check_close(values(broadcast), values(per_channel));
    // A slope per W position (last dim) broadcasts numpy-style.
    const auto per_w = run1(activation(activation_kind::prelu), {src, make(shape{1, 2}, {0.1, 10})});
    check_close(values(per_w), {-0.1, 2, -0.4, 0, -0.1, 3, -0.05, 1}, 1e-6);
}

TEST_CASE("activation: Q7.8 int16 computes on real values, rounds to nearest even, saturates") {
    const quantization q78{1.0f, 0, 8};
    // raw -256 (-1.0), 0, 256 (1.0), 384 (1.5), 25600 (100.0)
    const auto src = make_raw(shape{5}, {-256, 0, 256, 384, 25600}, dtype::i16, q78);
    CHECK(raw_values(run1(activation(activation_kind::relu), {src})) ==
          std::vector<double>{0, 0, 256, 384, 25600});
    // sigmoid(0) = 0.5 -> 128; sigmoid(1) * 256 = 187.15 -> 187; sigmoid(100) -> 1.0 -> 256.
    const auto sig = raw_values(run1(activation(activation_kind::sigmoid), {src}));
    CHECK(sig ==
          std::vector<double>{std::nearbyint(256 / (1 + std::exp(1.0))), 128, 187, 209, 256});
    // square: 100^2 saturates to 32767 raw; 1.5^2 = 2.25 -> 576.
    CHECK(raw_values(run1(activation(activation_kind::square), {src})) ==
          std::vector<double>{256, 0, 256, 576, 32767});
    // linear 0.5x + 0.25 on raw 1 and 3: 64.5 -> 64 (even), 65.5 -> 66 (even).
    const auto small = make_raw(shape{2}, {1, 3}, dtype::i16, q78);
    CHECK(raw_values(run1(activation(activation_kind::linear, 0.5f, 0.25f), {small})) ==
          std::vector<double>{64, 66});
}

TEST_CASE("activation: zDNN clipping_value caps relu and leaky_relu") {
    const auto x = make(shape{4}, {-2, 1, 3, 9});
    check_close(values(run1(activation(activation_kind::relu).set_clipping_value(2.5f), {x})),
                {0, 1, 2.5, 2.5});
    check_close(values(run1(activation(activation_kind::leaky_relu, 0.5f).set_clipping_value(4), {x})),
                {-1, 1, 3, 4});
    // 0 means no clipping.
    check_close(values(run1(activation(activation_kind::relu).set_clipping_value(0), {x})), {0, 1, 3, 9});
    check_error([&] { activation().set_clipping_value(-1).infer({x.desc()}); },
                {"activation", "clipping_value is -1", "must be finite and >= 0"});
}

TEST_CASE("activation: NaN propagation") {
    const double nan = std::nan("");
    const auto src = make(shape{3}, {nan, -1, 2});
    check_close(values(run1(activation(activation_kind::relu), {src})), {nan, 0, 2});
    check_close(values(run1(activation(activation_kind::relu).set_propagate_nan(false), {src})), {0, 0, 2});
}

TEST_CASE("activation: validation names op, tensor and dimension") {
    const tensor_desc src(shape::nchw(1, 3, 4, 4), dtype::f32);
    activation bad;
    bad = test::with_raw_params(bad, [](auto& p) { p.act.kind = 99; });
    check_error([&] { bad.infer({src}); }, {"activation", "unknown activation kind value 99"});
    check_error([&] { activation(activation_kind::prelu).infer({src}); },
                {"activation", "expects 2 inputs, got 1"});
    check_error(
        [&] {
            activation(activation_kind::prelu).infer({src, tensor_desc(shape{2}, dtype::f32)});
        },
        {"activation", "tensor 'slope'", "dim 0 (C) is 2, expected 3"});
    check_error(
        [&] {
            activation(activation_kind::prelu).infer({src, tensor_desc(shape{3, 4, 5}, dtype::f32)});
        },
        {"tensor 'slope'", "dim 2 is 5, must be 1 or 4"});
    check_error([&] { activation(activation_kind::relu).infer({tensor_desc(shape{2}, dtype::boolean)}); },
                {"tensor 'src'", "bool"});
    check_error([&] { activation(activation_kind::bounded_relu, -1.0f).infer({src}); },
                {"bounded_relu", "must be >= 0"});
    check_error([&] { activation(activation_kind::clip, 2.0f, 1.0f).infer({src}); }, {"clip lower bound"});
    check_error([&] { activation(activation_kind::relu).infer({src, src}); }, {"expects 1 inputs, got 2"});
    const auto out = activation(activation_kind::tanh).infer({src.with_type(dtype::f16)});
    REQUIRE(out.size() == 1);
    CHECK(out[0].dims() == src.dims());
    CHECK(out[0].type() == dtype::f16);
}

TEST_CASE("activation: hard_sigmoid, hard_swish, thresholded_relu, softsign against hand values") {
    const std::vector<double> x{-4, -3, -1.5, 0, 1.5, 3, 4};
    check_close(act_values(activation_kind::hard_sigmoid, x, 0.2f, 0.5f),
                {0, 0, 0.2, 0.5, 0.8, 1, 1}, 1e-6);
    // ONNX HardSwish: x * max(0, min(1, x/6 + 1/2)).
    check_close(act_values(activation_kind::hard_swish, x, 1.0f / 6.0f, 0.5f),
                {0, 0, -1.5 * 0.25, 0, 1.5 * 0.75, 3, 4}, 1e-6);
    check_close(act_values(activation_kind::thresholded_relu, x, 1.0f), {0, 0, 0, 0, 1.5, 3, 4});
    check_close(act_values(activation_kind::softsign, x), {-0.8, -0.75, -0.6, 0, 0.6, 0.75, 0.8},
                1e-6);
    // The default parameters are ONNX's.
    CHECK(activation(activation_kind::hard_sigmoid).a() == 0.2f);
    CHECK(activation(activation_kind::hard_swish).b() == 0.5f);
    CHECK(activation(activation_kind::thresholded_relu).a() == 1.0f);
}

TEST_CASE("activation: mish and selu against closed forms") {
    const std::vector<double> x{-2, -0.5, 0, 0.5, 2};
    std::vector<double> mish, selu;
    const double alpha = 1.67326319217681884765625, gamma = 1.05070102214813232421875;
    for (double v : x) {
        mish.push_back(v * std::tanh(std::log(1 + std::exp(v))));
        selu.push_back(v > 0 ? gamma * v : gamma * alpha * (std::exp(v) - 1));
    }
    check_close(act_values(activation_kind::mish, x), mish, 1e-6);
    check_close(values(run1(activation(activation_kind::selu), {make(shape{5}, x)})), selu, 1e-5);
}
