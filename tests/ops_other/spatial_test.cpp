// spatial_test.cpp: depth_to_space (DCR, CRD and their relation), resize_bilinear (exact on
// linear ramps with align_corners, half-pixel and legacy coordinates), pad (every mode against
// hand cases), with validation.
#include <doctest/doctest.h>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/data_movement.hpp"

using namespace ops_test;
namespace op = tessera::op;

TEST_CASE("depth_to_space: DCR and CRD against hand indexing") {
    // C = 8, block 2 -> C' = 2; H = W = 1: out[c][i][j].
    const auto x = make(shape::nchw(1, 8, 1, 1), iota(8));
    const auto dcr = run1(op::depth_to_space(2), {x});
    CHECK(dcr.dims() == shape{1, 2, 2, 2});
    // DCR: in channel (i*2+j)*2 + c.
    check_close(values(dcr), {0, 2, 4, 6, 1, 3, 5, 7});
    const auto crd = run1(op::depth_to_space(2, depth_to_space_kind::crd), {x});
    // CRD: in channel c*4 + i*2 + j.
    check_close(values(crd), iota(8));
}

TEST_CASE("depth_to_space: spatial placement with H, W > 1") {
    // C = 4 (C' = 1), H = 1, W = 2, block 2: output 1x1x2x4, out[i][w*2+j] = in[i*2+j][w].
    const auto x = make(shape::nchw(1, 4, 1, 2), {0, 1, 10, 11, 20, 21, 30, 31});
    check_close(values(run1(op::depth_to_space(2), {x})), {0, 10, 1, 11, 20, 30, 21, 31});
}

TEST_CASE("depth_to_space: CRD(x) == DCR(x with channel blocks regrouped)") {
    const std::int64_t b = 2, cp = 3, h = 2, w = 3;
    const auto x = make(shape::nchw(2, b * b * cp, h, w), iota(2 * b * b * cp * h * w));
    // y channel c*b*b + i*b + j = x channel (i*b+j)*C' + c: reshape to (N, b*b, C', H, W), swap
    // the block and C' axes, reshape back.
    const auto grouped = run1(op::reshape{2, b * b, cp, h, w}, {x});
    const auto swapped = run1(op::permute{0, 2, 1, 3, 4}, {grouped});
    const auto y = run1(op::reshape{2, b * b * cp, h, w}, {swapped});
    check_close(values(run1(op::depth_to_space(2, depth_to_space_kind::crd), {y})),
                values(run1(op::depth_to_space(2, depth_to_space_kind::dcr), {x})));
}

TEST_CASE("depth_to_space: shapes and validation") {
    CHECK(op::depth_to_space(4)
              .infer({tensor_desc(shape::nchw(1, 64, 8, 8), dtype::f32)})[0]
              .dims() == shape{1, 4, 32, 32});
    CHECK(op::depth_to_space(8)
              .infer({tensor_desc(shape::nchw(1, 512, 8, 8), dtype::f16)})[0]
              .dims() == shape{1, 8, 64, 64});
    const tensor_desc x(shape::nchw(1, 10, 2, 2), dtype::f32);
    check_error([&] { op::depth_to_space(2).infer({x}); },
                {"depth_to_space", "tensor 'src'", "dim 1 (C) is 10", "block_size^2 = 4"});
    check_error([&] { op::depth_to_space(0).infer({x}); }, {"block_size is 0, must be > 0"});
    check_error(
        [&] {
            op::depth_to_space(1).infer({tensor_desc(shape{12, 2, 2}, dtype::f32)});
        },
        {"tensor 'src'", "rank is 3, expected 4"});
    op::depth_to_space bad(1);
    bad = test::with_raw_params(bad, [](auto& p) { p.mode = 2; });
    check_error([&] { bad.infer({x}); }, {"unknown mode value 2"});
}

TEST_CASE("resize_bilinear: align_corners reproduces a linear ramp exactly") {
    // in(y, x) = 10*y + x on 3x4; out 5x7 with align_corners: out(y, x) = 10*y*2/4 + x*3/6.
    std::vector<double> ramp;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) ramp.push_back(10 * y + x);
    const auto in = make(shape::nchw(1, 1, 3, 4), ramp);
    const auto out = run1(op::resize_bilinear(5, 7).set_align_corners(true), {in});
    CHECK(out.dims() == shape{1, 1, 5, 7});
    std::vector<double> want;
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 7; ++x) want.push_back(10.0 * y * 2 / 4 + x * 3.0 / 6);
    check_close(values(out), want, 1e-5);
    // Corners are preserved.
    CHECK(out.at<float>({0, 0, 4, 6}) == 23.0f);
}

TEST_CASE("resize_bilinear: half-pixel and legacy coordinates, size from scale") {
    const auto in = make(shape::nchw(1, 1, 1, 2), {0, 1});
    // half-pixel 2x: src = (d+0.5)/2 - 0.5 = -0.25, 0.25, 0.75, 1.25 -> clamped 0, .25, .75, 1.
    check_close(values(run1(op::resize_bilinear(1, 4).set_half_pixel_centers(true), {in})),
                {0, 0.25, 0.75, 1});
    // legacy: src = d/2 = 0, .5, 1, 1.5 -> clamped 1.
    check_close(values(run1(op::resize_bilinear(1, 4), {in})), {0, 0.5, 1, 1});
    // Downscale by 2 (legacy) picks every other sample.
    const auto wide = make(shape::nchw(1, 1, 1, 6), iota(6));
    check_close(values(run1(op::resize_bilinear(1, 3), {wide})), {0, 2, 4});
    // Scale factors give the size (CLML test: (1,16,7,7) x2 with align_corners).
    const auto d = op::resize_bilinear().set_scale(2, 2).set_align_corners(true).infer(
        {tensor_desc(shape::nchw(1, 16, 7, 7), dtype::f32)});
    CHECK(d[0].dims() == shape{1, 16, 14, 14});
    // A constant image stays constant under every coordinate rule.
    const auto flat = make(shape::nchw(1, 2, 3, 3), std::vector<double>(18, 2.5));
    for (int mode = 0; mode < 3; ++mode) {
        auto r = op::resize_bilinear(5, 4).set_align_corners(mode == 1).set_half_pixel_centers(
            mode == 2);
        check_close(values(run1(r, {flat})), std::vector<double>(40, 2.5));
    }
}

TEST_CASE("resize_bilinear: integers round to nearest even") {
    // u8 [0, 1] -> legacy 1x4: 0, 0.5, 1, 1 -> raw 0, 0 (0.5 to even), 1, 1; [1, 2]: 1, 1.5 -> 2.
    CHECK(raw_values(run1(op::resize_bilinear(1, 4),
                          {make_raw(shape::nchw(1, 1, 1, 2), {0, 1}, dtype::u8)})) ==
          std::vector<double>{0, 0, 1, 1});
    CHECK(raw_values(run1(op::resize_bilinear(1, 4),
                          {make_raw(shape::nchw(1, 1, 1, 2), {1, 2}, dtype::u8)})) ==
          std::vector<double>{1, 2, 2, 2});
}

TEST_CASE("resize_bilinear: validation") {
    const tensor_desc x(shape::nchw(1, 1, 4, 4), dtype::f32);
    check_error(
        [&] {
            op::resize_bilinear(2, 2).set_align_corners(true).set_half_pixel_centers(true).infer(
                {x});
        },
        {"resize_bilinear", "cannot both be set"});
    check_error([&] { op::resize_bilinear().infer({x}); },
                {"neither out_h nor a positive scale_h"});
    check_error([&] { op::resize_bilinear().set_scale(0.1f, 1).infer({x}); },
                {"scale_h", "empty output"});
    check_error([&] { op::resize_bilinear(-1, 2).infer({x}); }, {"out_h is -1"});
    check_error(
        [&] {
            op::resize_bilinear(2, 2).infer({tensor_desc(shape{4, 4}, dtype::f32)});
        },
        {"tensor 'src'", "rank is 2, expected 4"});
    check_error(
        [&] {
            op::resize_bilinear(2, 2).infer({tensor_desc(shape::nchw(1, 1, 0, 4), dtype::f32)});
        },
        {"tensor 'src'", "dim 2 is 0, must be > 0"});
    const op::resize_bilinear bad =
        test::with_raw_params(op::resize_bilinear(2, 2), [](auto& p) { p.align_corners = 7; });
    check_error([&] { bad.infer({x}); }, {"align_corners is 7, must be 0 or 1"});
}

TEST_CASE("pad: every mode on abcd against hand cases") {
    const auto x = make(shape{4}, {1, 2, 3, 4});
    check_close(values(run1(op::pad({3}, {3}, pad_kind::constant, 9), {x})),
                {9, 9, 9, 1, 2, 3, 4, 9, 9, 9});
    check_close(values(run1(op::pad({3}, {3}, pad_kind::reflect), {x})),
                {4, 3, 2, 1, 2, 3, 4, 3, 2, 1});
    check_close(values(run1(op::pad({3}, {3}, pad_kind::symmetric), {x})),
                {3, 2, 1, 1, 2, 3, 4, 4, 3, 2});
    check_close(values(run1(op::pad({2}, {1}, pad_kind::edge), {x})), {1, 1, 1, 2, 3, 4, 4});
    check_close(values(run1(op::pad({4}, {4}, pad_kind::symmetric), {x})),
                {4, 3, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1});
}

TEST_CASE("pad: 2-D with different amounts per dim, corners, raw and quantised dtypes") {
    const auto x = make(shape{2, 2}, {1, 2, 3, 4});
    const auto r = run1(op::pad({1, 0}, {0, 1}, pad_kind::reflect), {x});
    CHECK(r.dims() == shape{3, 3});
    check_close(values(r), {3, 4, 3, 1, 2, 1, 3, 4, 3});
    const auto e = run1(op::pad({1, 1}, {1, 1}, pad_kind::edge), {x});
    check_close(values(e), {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
    // Q7.8: the constant is a real value, stored as raw 384.
    const auto q = make_raw(shape{2}, {256, -256}, dtype::i16, {1.0f, 0, 8});
    CHECK(raw_values(run1(op::pad({1}, {0}, pad_kind::constant, 1.5), {q})) ==
          std::vector<double>{384, 256, -256});
    // NCHW image padded only in H and W (CLML's Left/Right/Top/Bottom).
    const auto img = op::pad().set_dim(2, 1, 2).set_dim(3, 3, 0).infer(
        {tensor_desc(shape::nchw(1, 3, 4, 4), dtype::f32)});
    CHECK(img[0].dims() == shape{1, 3, 7, 7});
}

TEST_CASE("pad: validation") {
    const tensor_desc x(shape{4}, dtype::f32);
    check_error([&] { op::pad({4}, {0}, pad_kind::reflect).infer({x}); },
                {"pad", "tensor 'src'", "dim 0 is 4: reflect padding 4 must be <= 3"});
    check_error([&] { op::pad({0}, {5}, pad_kind::symmetric).infer({x}); },
                {"tensor 'src'", "dim 0 is 4: symmetric padding 5 must be <= 4"});
    check_error([&] { op::pad({-1}, {0}).infer({x}); },
                {"padding of dim 0 is (-1, 0), must be >= 0"});
    check_error(
        [&] {
            op::pad({0, 1}, {0, 0}).infer({x});
        },
        {"tensor 'src'", "rank is 1 but dim 1 is padded"});
    check_error(
        [&] { op::pad({1}, {1}, pad_kind::edge).infer({tensor_desc(shape{0}, dtype::f32)}); },
        {"edge padding needs an element"});
    op::pad bad;
    bad = test::with_raw_params(bad, [](auto& p) { p.mode = 4; });
    check_error([&] { bad.infer({x}); }, {"unknown pad mode value 4"});
}
