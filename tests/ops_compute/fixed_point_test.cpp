// fixed_point_test.cpp: OpenVX provisional Q7.8 (i16) convolution and fully connected layers:
// every product rounded (to zero / nearest even) and narrowed (saturate / wrap) on its own, wide
// accumulation, bias added, final narrowing; checked by hand and against an oracle written here.
#include <doctest/doctest.h>

#include <algorithm>

#include "helpers.hpp"
#include "tessera/reference/conv2d.hpp"
#include "tessera/reference/fully_connected.hpp"

using namespace compute_test;

namespace {

const quantization q78{1.0f, 0, 8};

tensor i16(const shape& dims, const values_t& raw_values, int pos = 8) {
    return make_raw(dims, raw_values, dtype::i16, {1.0f, 0, pos});
}

op::conv2d conv_with(rounding_policy r, overflow_policy o) {
    return op::conv2d().policies(r, o);
}

/// The provisional formula written out directly: a 1-D dot product of raw Q7.8 values.
std::int64_t oracle_dot(const values_t& x, const values_t& w, bool to_zero, bool saturate) {
    std::int64_t acc = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double exact = x[i] * w[i] / 256.0;
        double r = to_zero ? std::trunc(exact) : std::nearbyint(exact);
        std::int64_t v = static_cast<std::int64_t>(r);
        if (saturate) {
            v = std::clamp<std::int64_t>(v, -32768, 32767);
        } else {
            v = static_cast<std::int16_t>(static_cast<std::uint16_t>(v & 0xFFFF));
        }
        acc += v;
    }
    return acc;
}

std::int64_t narrow(std::int64_t v, bool saturate) {
    if (saturate) return std::clamp<std::int64_t>(v, -32768, 32767);
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(v & 0xFFFF));
}

}  // namespace

TEST_CASE("i16 conv2d: each product is rounded with the policy") {
    // x = {1.5, -1.5, 2.5, 0.5}, w = 1/256: the products are exactly those reals in raw units.
    const tensor x = i16(shape::nchw(1, 1, 1, 4), {384, -384, 640, 128});
    const tensor w = i16(shape{1, 1, 1, 1}, {1});
    check_close(
        raw_values(run1(conv_with(rounding_policy::to_zero, overflow_policy::saturate), {x, w})),
        {1, -1, 2, 0});
    check_close(
        raw_values(
            run1(conv_with(rounding_policy::to_nearest_even, overflow_policy::saturate), {x, w})),
        {2, -2, 2, 0});
    // Two products of 0.5 raw units each round to 0 one by one (a single final rounding gives 1).
    const tensor x2 = i16(shape::nchw(1, 2, 1, 1), {128, 128});
    const tensor w2 = i16(shape{1, 2, 1, 1}, {1, 1});
    check_close(
        raw_values(
            run1(conv_with(rounding_policy::to_nearest_even, overflow_policy::saturate), {x2, w2})),
        {0});
}

TEST_CASE("i16 conv2d: saturation and wrap of products and of the sum") {
    // 127.0 * 2.0 = 254 -> raw 65024: saturates to 32767 or wraps to -512.
    const tensor x = i16(shape::nchw(1, 2, 1, 1), {32512, 32512});
    const tensor w = i16(shape{1, 2, 1, 1}, {512, 512});
    check_close(
        raw_values(run1(conv_with(rounding_policy::to_zero, overflow_policy::saturate), {x, w})),
        {32767});
    check_close(
        raw_values(run1(conv_with(rounding_policy::to_zero, overflow_policy::wrap), {x, w})),
        {-1024});
    // One channel: the single product wraps to -512.
    const tensor x1 = i16(shape::nchw(1, 1, 1, 1), {32512});
    const tensor w1 = i16(shape{1, 1, 1, 1}, {512});
    check_close(
        raw_values(run1(conv_with(rounding_policy::to_zero, overflow_policy::wrap), {x1, w1})),
        {-512});
    // Sum overflow: 3 * 100.0 = 300 saturates at the end (each product fits).
    const tensor x3 = i16(shape::nchw(1, 3, 1, 1), {25600, 25600, 25600});
    const tensor w3 = i16(shape{1, 3, 1, 1}, {256, 256, 256});
    check_close(
        raw_values(run1(conv_with(rounding_policy::to_zero, overflow_policy::saturate), {x3, w3})),
        {32767});
    check_close(
        raw_values(run1(conv_with(rounding_policy::to_zero, overflow_policy::wrap), {x3, w3})),
        {static_cast<double>(narrow(76800, false))});
}

TEST_CASE("i16 conv2d: bias at another fixed-point position, i32 bias, other output position") {
    const tensor x = i16(shape::nchw(1, 1, 1, 2), {384, -256});  // 1.5, -1.0
    const tensor w = i16(shape{1, 1, 1, 1}, {256});              // 1.0
    const tensor b4 = i16(shape{1}, {16}, 4);                    // 1.0 in Q11.4
    check_close(values(run1(op::conv2d().bias(), {x, w, b4})), {2.5, 0});
    const tensor b32 = make_raw(shape{1}, {-128}, dtype::i32);  // -0.5 at the output position
    check_close(values(run1(op::conv2d().bias(), {x, w, b32})), {1.0, -1.5});
    // Output in Q11.4: products rescaled by 2^-12.
    std::vector<tensor> out{tensor(
        tensor_desc(shape::nchw(1, 1, 1, 2), dtype::i16, layout::row_major(), {1.0f, 0, 4}))};
    reference::run(op::conv2d(), {x, w}, out);
    check_close(raw_values(out[0]), {24, -16});
    // Fused ReLU on the fixed-point result.
    check_close(values(run1(op::conv2d().fuse(activation_kind::relu), {x, w})), {1.5, 0});
}

TEST_CASE("i16 conv2d: padded strided 3x3 against the provisional formula") {
    const std::int64_t c = 3, h = 5, wd = 6, o = 2;
    values_t xr = random_values(c * h * wd, 51, -6000, 6000),
             wr = random_values(o * c * 9, 52, -400, 400);
    for (auto& v : xr) v = std::floor(v);
    for (auto& v : wr) v = std::floor(v);
    const tensor x = i16(shape::nchw(1, c, h, wd), xr);
    const tensor w = i16(shape{o, c, 3, 3}, wr);
    for (bool to_zero : {true, false})
        for (bool saturate : {true, false}) {
            CAPTURE(to_zero);
            CAPTURE(saturate);
            const op::conv2d cv =
                op::conv2d()
                    .stride(2, 2)
                    .padding(1, 1, 1, 0)
                    .policies(to_zero ? rounding_policy::to_zero : rounding_policy::to_nearest_even,
                              saturate ? overflow_policy::saturate : overflow_policy::wrap);
            const tensor y = run1(cv, {x, w});
            REQUIRE(y.dims() == shape{1, o, 3, 3});
            const values_t got = raw_values(y);
            for (std::int64_t k = 0; k < o; ++k)
                for (std::int64_t oy = 0; oy < 3; ++oy)
                    for (std::int64_t ox = 0; ox < 3; ++ox) {
                        values_t xs, ws;
                        for (std::int64_t ci = 0; ci < c; ++ci)
                            for (std::int64_t ky = 0; ky < 3; ++ky)
                                for (std::int64_t kx = 0; kx < 3; ++kx) {
                                    const std::int64_t iy = oy * 2 - 1 + ky, ix = ox * 2 - 1 + kx;
                                    if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                                    xs.push_back(
                                        xr[static_cast<std::size_t>((ci * h + iy) * wd + ix)]);
                                    ws.push_back(wr[static_cast<std::size_t>(
                                        ((k * c + ci) * 3 + ky) * 3 + kx)]);
                                }
                        const auto want = narrow(oracle_dot(xs, ws, to_zero, saturate), saturate);
                        CHECK(got[static_cast<std::size_t>((k * 3 + oy) * 3 + ox)] ==
                              static_cast<double>(want));
                    }
        }
}

TEST_CASE("i16 fully_connected: the same per-product arithmetic") {
    const tensor x = i16(shape{1, 3}, {384, 128, 32512});
    const tensor w = i16(shape{2, 3}, {1, 1, 0, 0, 0, 512});
    const tensor b = i16(shape{2}, {256, 0});
    // Row 0: round(1.5) + round(0.5) + 0 = 2 + 0 (nearest even) + bias 256 = 258.
    // Row 1: 127 * 2 = 254 -> saturated 32767.
    check_close(raw_values(run1(op::fully_connected().bias(), {x, w, b})), {258, 32767});
    check_close(raw_values(run1(op::fully_connected().bias().policies(rounding_policy::to_zero,
                                                                      overflow_policy::wrap),
                                {x, w, b})),
                {257, -512});
}

TEST_CASE(
    "i8 conv2d with i32 bias equals the requantised float convolution of dequantised values") {
    const quantization qx{0.05f, -3, 0}, qw{0.02f, 1, 0}, qy{0.1f, 2, 0};
    values_t xr = random_values(2 * 3 * 5 * 5, 61, -100, 100),
             wr = random_values(4 * 3 * 9, 62, -100, 100);
    for (auto& v : xr) v = std::floor(v);
    for (auto& v : wr) v = std::floor(v);
    const tensor x = make_raw(shape::nchw(2, 3, 5, 5), xr, dtype::i8, qx);
    const tensor w = make_raw(shape{4, 3, 3, 3}, wr, dtype::i8, qw);
    // i32 bias in accumulator units (0.05 * 0.02 = 0.001): {1.0, -0.5, 0, 2.5}.
    const tensor b = make_raw(shape{4}, {1000, -500, 0, 2500}, dtype::i32);
    const op::conv2d cv = op::conv2d().padding(1, 1, 1, 1).bias();
    const values_t ref = values(run1(cv, {make(x.dims(), values(x)), make(w.dims(), values(w)),
                                          make(shape{4}, {1.0, -0.5, 0, 2.5})}));
    std::vector<tensor> out{
        tensor(tensor_desc(shape::nchw(2, 4, 5, 5), dtype::i8, layout::row_major(), qy))};
    reference::run(cv, {x, w, b}, out);
    const values_t got = raw_values(out[0]);
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double want = std::clamp(std::nearbyint(ref[i] / 0.1 + 2), -128.0, 127.0);
        if (std::fabs(got[i] - want) > 1) FAIL("element " << i << ": " << got[i] << " vs " << want);
    }
}
