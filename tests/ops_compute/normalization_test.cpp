// normalization_test.cpp: batchnorm (statistics and affine forms), lrn (across and within
// channels), layer_norm (axis and zDNN statistics forms) and norm, by hand and by identities.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "tessera/reference/normalization.hpp"
#include "tessera/reference/reduction.hpp"

using namespace compute_test;

TEST_CASE("batchnorm: statistics form by hand, without and with scale/shift") {
    const tensor x = make(shape::nchw(1, 2, 1, 2), {1, 3, 10, 20});
    const tensor mean = make(shape{2}, {2, 10});
    const tensor var = make(shape{2}, {4, 100});
    const tensor scale = make(shape{2}, {2, 0.5});
    const tensor shift = make(shape{2}, {1, -1});
    check_close(values(run1(op::batchnorm().eps(0), {x, mean, var})), {-0.5, 0.5, 0, 1});
    check_close(values(run1(op::batchnorm().eps(0), {x, mean, var, scale, shift})),
                {0, 2, -1, -0.5});
    // Epsilon enters under the square root: var 4 + eps 5 -> 3.
    check_close(values(run1(op::batchnorm().eps(5), {x, mean, make(shape{2}, {4, 4})})),
                {-1.0 / 3, 1.0 / 3, 0, 10.0 / 3});
    // Fused ReLU.
    check_close(values(run1(op::batchnorm().eps(0).fuse(activation_kind::relu), {x, mean, var})),
                {0, 0.5, 0, 1});
}

TEST_CASE("batchnorm: affine (zDNN a*x+b) equals the statistics form with folded parameters") {
    const tensor x = random_tensor(shape::nchw(2, 3, 4, 5), 1);
    const values_t mean = random_values(3, 2), var = random_values(3, 3, 0.1, 2),
                   sc = random_values(3, 4), sh = random_values(3, 5);
    const double eps = 1e-3;
    values_t a, b;
    for (int c = 0; c < 3; ++c) {
        a.push_back(sc[c] / std::sqrt(var[c] + eps));
        b.push_back(sh[c] - mean[c] * a.back());
    }
    const tensor stats = run1(
        op::batchnorm().eps(static_cast<float>(eps)),
        {x, make(shape{3}, mean), make(shape{3}, var), make(shape{3}, sc), make(shape{3}, sh)});
    check_close(values(run1(op::batchnorm().affine(), {x, make(shape{3}, a), make(shape{3}, b)})),
                values(stats), 1e-5);
    // Rank 2 input [N, C]: the channel is dim 1.
    const tensor x2 = make(shape{2, 3}, {1, 2, 3, 4, 5, 6});
    check_close(values(run1(op::batchnorm().affine(),
                            {x2, make(shape{3}, {1, 2, 3}), make(shape{3}, {0, 0, 1})})),
                {1, 4, 10, 4, 10, 19});
}

TEST_CASE("lrn: across channels and within a channel") {
    // Across, size 3, alpha 3 (scaled by 3 -> 1), beta 1, bias 1: y = x / (1 + sum of squares of
    // neighbours).
    const tensor x = make(shape::nchw(1, 3, 1, 1), {1, 2, 3});
    check_close(values(run1(op::lrn().window(3).coefficients(3.0f, 1.0f, 1.0f), {x})),
                {1.0 / (1 + 1 + 4), 2.0 / (1 + 1 + 4 + 9), 3.0 / (1 + 4 + 9)});
    // Unscaled alpha, beta 0.5, bias 2.
    check_close(values(run1(op::lrn().window(3).coefficients(1.0f, 0.5f, 2.0f).scaled(false), {x})),
                {1.0 / std::sqrt(2 + 5.0), 2.0 / std::sqrt(2 + 14.0), 3.0 / std::sqrt(2 + 13.0)});
    // Within a channel, size 3, alpha 9 scaled by 9 -> 1: 3x3 neighbourhoods of a 2x2 map.
    const tensor m = make(shape::nchw(1, 1, 2, 2), {1, 2, 3, 4});
    check_close(
        values(
            run1(op::lrn().kind(lrn_kind::within_channel).window(3).coefficients(9.0f, 1.0f, 1.0f),
                 {m})),
        {1.0 / 31, 2.0 / 31, 3.0 / 31, 4.0 / 31});
    // Size 1 within a channel: x / (1 + x^2).
    check_close(
        values(
            run1(op::lrn().kind(lrn_kind::within_channel).window(1).coefficients(1.0f, 1.0f, 1.0f),
                 {m})),
        {0.5, 0.4, 0.3, 4.0 / 17});
}

TEST_CASE("layer_norm: rows have mean 0 and variance 1, gamma/beta tensors, zDNN statistics form") {
    const tensor x = random_tensor(shape{3, 4, 5}, 11, -3, 5);
    const values_t y = values(run1(op::layer_norm().from_axis(1).eps(0), {x}));
    for (int r = 0; r < 3; ++r) {
        double mean = 0, var = 0;
        for (int k = 0; k < 20; ++k) mean += y[static_cast<std::size_t>(r * 20 + k)];
        mean /= 20;
        for (int k = 0; k < 20; ++k)
            var += std::pow(y[static_cast<std::size_t>(r * 20 + k)] - mean, 2);
        CHECK(std::fabs(mean) < 1e-6);  // f32 outputs
        CHECK(var / 20 == doctest::Approx(1).epsilon(1e-5));
    }
    // Hand example over the last axis: [1, 3] -> mean 2, var 1 -> [-1, 1], then gamma/beta.
    const tensor h = make(shape{1, 2}, {1, 3});
    check_close(values(run1(op::layer_norm().eps(0), {h})), {-1, 1});
    check_close(values(run1(op::layer_norm().eps(0).tensors(true, true),
                            {h, make(shape{2}, {2, 3}), make(shape{2}, {10, 20})})),
                {8, 23});
    check_close(
        values(run1(op::layer_norm().eps(0).tensors(false, true), {h, make(shape{2}, {10, 20})})),
        {9, 21});
    check_close(values(run1(op::layer_norm().eps(0).affine(2, 1), {h})), {-1, 3});

    // zDNN: moments then layernorm(statistics) equals the axis form from axis 1 (per batch index).
    const tensor img = random_tensor(shape::nchw(2, 3, 2, 4), 12);
    const auto mv = run_ref(op::moments(), {img});
    const op::layer_norm stats = op::layer_norm().statistics().eps(1e-3f).affine(1.5f, -0.5f);
    check_close(values(run1(stats, {img, mv[0], mv[1]})),
                values(run1(op::layer_norm().from_axis(1).eps(1e-3f).affine(1.5f, -0.5f), {img})),
                1e-5);
}

TEST_CASE("norm: Euclidean norm of the difference along an axis") {
    const tensor a = make(shape{2, 2}, {0, 0, 1, 1});
    const tensor b = make(shape{2, 2}, {3, 4, 4, 5});
    const tensor y = run1(op::norm(), {a, b});
    CHECK(y.dims() == shape{2, 1});
    check_close(values(y), {5, 5});
    const tensor y0 = run1(op::norm().along(0), {a, b});
    CHECK(y0.dims() == shape{1, 2});
    check_close(values(y0), {std::sqrt(9.0 + 9.0), std::sqrt(16.0 + 16.0)});
}
