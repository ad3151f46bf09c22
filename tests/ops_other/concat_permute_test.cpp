// concat_permute_test.cpp: concat, permute, transpose and reshape: hand values, identities
// (permute then inverse, transpose twice), raw moves of non-float dtypes, validation.
#include <doctest/doctest.h>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/data_movement.hpp"

using namespace ops_test;
namespace op = tessera::op;

TEST_CASE("concat: along an inner axis, a negative axis and three inputs") {
    const auto a = make(shape{2, 2}, {1, 2, 3, 4});
    const auto b = make(shape{2, 1}, {9, 8});
    const auto out = run1(op::concat(1), {a, b});
    CHECK(out.dims() == shape{2, 3});
    check_close(values(out), {1, 2, 9, 3, 4, 8});
    check_close(values(run1(op::concat(-1), {a, b})), values(out));
    const auto rows = run1(op::concat(0), {a, make(shape{1, 2}, {5, 6}), a});
    CHECK(rows.dims() == shape{5, 2});
    check_close(values(rows), {1, 2, 3, 4, 5, 6, 1, 2, 3, 4});
    // One input is a copy.
    check_close(values(run1(op::concat(0), {a})), values(a));
}

TEST_CASE("concat: NCHW channel concat as CLML's test shapes, raw i8 moves") {
    const quantization q{0.1f, 3, 0};
    const auto a = make_raw(shape::nchw(1, 2, 1, 2), {-128, 127, 5, 6}, dtype::i8, q);
    const auto b = make_raw(shape::nchw(1, 1, 1, 2), {-1, 0}, dtype::i8, q);
    const auto out = run1(op::concat(1), {a, b});
    CHECK(out.dims() == shape{1, 3, 1, 2});
    CHECK(out.dims().label(1) == dim_label::c);
    CHECK(raw_values(out) == std::vector<double>{-128, 127, 5, 6, -1, 0});
    CHECK(out.desc().quant().zero_point == 3);
    const auto big = op::concat(1).infer({tensor_desc(shape::nchw(1, 1280, 32, 32), dtype::f16),
                                          tensor_desc(shape::nchw(1, 640, 32, 32), dtype::f16)});
    CHECK(big[0].dims() == shape{1, 1920, 32, 32});
}

TEST_CASE("concat: empty pieces and bool tensors") {
    const auto a = make(shape{2, 0}, {});
    const auto b = make(shape{2, 2}, {1, 2, 3, 4});
    const auto out = run1(op::concat(1), {a, b, a});
    CHECK(out.dims() == shape{2, 2});
    check_close(values(out), {1, 2, 3, 4});
    const auto t = make_raw(shape{1, 2}, {1, 0}, dtype::boolean);
    const auto f = make_raw(shape{1, 2}, {0, 1}, dtype::boolean);
    const auto joined = run1(op::concat(0), {t, f});
    CHECK(joined.type() == dtype::boolean);
    CHECK(raw_values(run1(op::transpose(), {joined})) == std::vector<double>{1, 0, 0, 1});
}

TEST_CASE("concat: validation") {
    const tensor_desc a(shape{2, 3}, dtype::f32);
    check_error([&] { op::concat(1).infer({}); }, {"concat", "at least 1 input"});
    check_error(
        [&] {
            op::concat(1).infer({a, tensor_desc(shape{3, 3}, dtype::f32)});
        },
        {"concat", "tensor 'input 1'", "dim 0 is 3, expected 2"});
    check_error(
        [&] {
            op::concat(1).infer({a, tensor_desc(shape{2, 3, 1}, dtype::f32)});
        },
        {"tensor 'input 1'", "rank is 3, expected 2"});
    check_error(
        [&] {
            op::concat(1).infer({a, a.with_type(dtype::f16)});
        },
        {"tensor 'input 1'", "dtype is f16, expected f32"});
    check_error([&] { op::concat(2).infer({a, a}); }, {"axis 2 is out of range for rank 2"});
    check_error([&] { op::concat(-3).infer({a, a}); }, {"axis -3 is out of range"});
    const tensor_desc q1(shape{2}, dtype::u8, layout::row_major(), {0.5f, 1, 0});
    const tensor_desc q2(shape{2}, dtype::u8, layout::row_major(), {0.25f, 1, 0});
    check_error([&] { op::concat(0).infer({q1, q2}); }, {"tensor 'input 1'", "quantisation"});
}

TEST_CASE("permute: hand values and labels") {
    const auto x = make(shape{2, 3}, {1, 2, 3, 4, 5, 6});
    const auto t = run1(op::permute{1, 0}, {x});
    CHECK(t.dims() == shape{3, 2});
    check_close(values(t), {1, 4, 2, 5, 3, 6});
    // NCHW -> NHWC keeps the labels with their dims.
    const auto d =
        op::permute{0, 2, 3, 1}.infer({tensor_desc(shape::nchw(1, 3, 4, 5), dtype::f32)});
    CHECK(d[0].dims() == shape{1, 4, 5, 3});
    CHECK(d[0].dims().label(3) == dim_label::c);
    CHECK(d[0].dims().label(1) == dim_label::h);
}

TEST_CASE("permute: then its inverse is the identity, for any dtype") {
    const shape s{2, 3, 4, 5};
    const auto x = make_raw(s, iota(120, -60), dtype::i16);
    const op::permute p{2, 0, 3, 1};
    const auto y = run1(p, {x});
    CHECK(y.dims() == shape{4, 2, 5, 3});
    // y[i0,i1,i2,i3] = x[i1,i3,i0,i2]
    CHECK(y.at<std::int16_t>({3, 1, 4, 2}) == x.at<std::int16_t>({1, 2, 3, 4}));
    const auto back = run1(p.inverse(), {y});
    CHECK(back.dims() == s);
    CHECK(raw_values(back) == raw_values(x));
}

TEST_CASE("permute: validation") {
    const tensor_desc x(shape{2, 3, 4}, dtype::f32);
    check_error(
        [&] {
            op::permute{0, 1}.infer({x});
        },
        {"permute", "tensor 'src'", "rank is 3, but order has 2 entries"});
    check_error(
        [&] {
            op::permute{0, 1, 1}.infer({x});
        },
        {"permute", "order entry 2 is 1", "not a permutation"});
    check_error([&] { op::permute{0, 1, 3}.infer({x}); }, {"order entry 2 is 3"});
    op::permute too_long;
    too_long = test::with_raw_params(too_long, [](auto& p) { p.rank = 9; });
    check_error([&] { too_long.infer({x}); }, {"order has 9 entries"});
}

TEST_CASE("transpose: last two dims by default, any pair, twice is the identity") {
    const auto x = make(shape{2, 2, 3}, iota(12));
    const auto t = run1(op::transpose(), {x});
    CHECK(t.dims() == shape{2, 3, 2});
    check_close(values(t), {0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11});
    check_close(values(run1(op::transpose(), {t})), values(x));
    const auto outer = run1(op::transpose(0, 2), {x});
    CHECK(outer.dims() == shape{3, 2, 2});
    CHECK(outer.at<float>({2, 1, 0}) == x.at<float>({0, 1, 2}));
    check_close(values(run1(op::transpose(2, 0), {outer})), values(x));
    // Same dim twice: identity.
    check_close(values(run1(op::transpose(1, 1), {x})), values(x));
    check_error([&] { op::transpose().infer({tensor_desc(shape{4}, dtype::f32)}); },
                {"transpose", "tensor 'src'", "rank is 1, expected >= 2"});
    check_error([&] { op::transpose(0, 3).infer({x.desc()}); },
                {"transpose", "dim_b 3 is out of range for rank 3"});
}

TEST_CASE("reshape: preserves row-major order, infers -1, validates counts") {
    const auto x = make_raw(shape{2, 3, 2}, iota(12), dtype::u8);
    const auto y = run1(op::reshape{3, -1}, {x});
    CHECK(y.dims() == shape{3, 4});
    CHECK(raw_values(y) == raw_values(x));
    CHECK(op::reshape{}.infer({tensor_desc(shape{1, 1}, dtype::f32)})[0].rank() == 0);
    check_error(
        [&] {
            op::reshape{5, 2}.infer({x.desc()});
        },
        {"reshape", "tensor 'src'", "has 12 elements", "has 10"});
    check_error(
        [&] {
            op::reshape{-1, 5}.infer({x.desc()});
        },
        {"cannot infer target dim 0", "not a multiple of 5"});
    check_error(
        [&] {
            op::reshape{-1, -1}.infer({x.desc()});
        },
        {"target dims 0 and 1 are both -1"});
    check_error([&] { op::reshape{-2, 6}.infer({x.desc()}); }, {"target dim 0 is -2"});
}
