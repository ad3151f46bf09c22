// indexing_test.cpp: op::slice, op::gather, op::gather_elements, op::expand and op::tile:
// hand-indexed values, ONNX's clamping of slice bounds, negative indices, shape inference and
// validation errors.
#include <doctest/doctest.h>

#include <limits>

#include "helpers.hpp"
#include "tessera/ops/broadcast.hpp"
#include "tessera/ops/indexing.hpp"

using namespace ops_test;

namespace {
constexpr std::int64_t big = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t small = std::numeric_limits<std::int64_t>::min();

tensor i32(const shape& s, const values_t& v) {
    return make(s, v, dtype::i32);
}
}  // namespace

TEST_CASE("slice: start:end:step per dim against hand indexing") {
    const auto x = make(shape{3, 4}, iota(12));
    // Rows 1:3, columns 0:4:2.
    check_close(values(run1(op::slice().set_dim(0, 1, 3).set_dim(1, 0, 4, 2), {x})), {4, 6, 8, 10});
    // Negative start counts from the end; dims not named stay whole.
    check_close(values(run1(op::slice().set_dim(1, -1, big), {x})), {3, 7, 11});
    // Reversed columns (ONNX: start -1, end INT64_MIN, step -1).
    check_close(values(run1(op::slice().set_dim(1, -1, small, -1), {x})),
                {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8});
    // Step -2 from column 3 down to (excluding) column 0.
    check_close(values(run1(op::slice().set_dim(1, 3, 0, -2), {x})), {3, 1, 7, 5, 11, 9});
}

TEST_CASE("slice: bounds are clamped as ONNX clamps them") {
    const auto x = make(shape{5}, iota(5));
    check_close(values(run1(op::slice().set_dim(0, -100, 100), {x})), {0, 1, 2, 3, 4});
    check_close(values(run1(op::slice().set_dim(0, 100, -100, -1), {x})), {4, 3, 2, 1, 0});
    CHECK(op::slice().set_dim(0, 3, 1).infer({x.desc()})[0].dims() == shape{0});
    CHECK(op::slice().set_dim(0, 1, 4, 2).infer({x.desc()})[0].dims() == shape{2});
    CHECK(op::slice().set_dim(0, 4, 0, -3).infer({x.desc()})[0].dims() == shape{2});
}

TEST_CASE("slice: validation names the op, tensor and reason") {
    const tensor_desc x(shape{4, 4}, dtype::f32);
    check_error([&] { op::slice().set_dim(1, 0, 2, 0).infer({x}); },
                {"slice", "step of dim 1 is 0"});
    check_error([&] { op::slice().set_dim(2, 0, 1).infer({x}); },
                {"slice", "tensor 'src'", "describes 3 dims", "rank 2"});
    check_error([&] { op::slice().set_dim(9, 0, 1).infer({x}); }, {"slice", "describes 9 dims"});
    check_error([&] { op::slice().infer({x, x}); }, {"slice", "expects 1 inputs, got 2"});
}

TEST_CASE("gather: numpy take along every axis, negative indices") {
    const auto x = make(shape{2, 3}, iota(6));
    check_close(values(run1(op::gather(0), {x, i32(shape{3}, {1, 0, -1})})),
                {3, 4, 5, 0, 1, 2, 3, 4, 5});
    check_close(values(run1(op::gather(1), {x, i32(shape{2, 2}, {2, 0, -2, 1})})),
                {2, 0, 1, 1, 5, 3, 4, 4});
    // A scalar index drops the axis.
    const auto s = run1(op::gather(-1), {x, i32(shape{}, {1})});
    CHECK(s.dims() == shape{2});
    check_close(values(s), {1, 4});
}

TEST_CASE("gather: validation and out-of-range indices") {
    const tensor_desc x(shape{2, 3}, dtype::f32);
    check_error(
        [&] {
            op::gather(0).infer({x, tensor_desc(shape{2}, dtype::f32)});
        },
        {"gather", "tensor 'indices'", "dtype f32 not allowed"});
    check_error(
        [&] {
            op::gather(2).infer({x, tensor_desc(shape{2}, dtype::i32)});
        },
        {"gather", "axis 2 is out of range for rank 2"});
    check_error(
        [&] {
            op::gather(0).infer({tensor_desc(shape{2, 2, 2, 2, 2}, dtype::f32),
                                 tensor_desc(shape{2, 2, 2, 2, 2}, dtype::i32)});
        },
        {"gather", "tensor 'indices'", "output rank 9 exceeds 8"}, status::invalid_argument);
    check_error(
        [&] {
            run1(op::gather(1), {make(shape{2, 3}, iota(6)), i32(shape{1}, {3})});
        },
        {"gather", "indices", "index 3 is outside [-3, 3)"});
}

TEST_CASE("gather_elements: take_along_axis on each axis, negative and i64 indices") {
    const auto x = make(shape{2, 3}, iota(6));
    // out[i][j] = x[i][index[i][j]]
    const auto along1 = run1(op::gather_elements(1), {x, i32(shape{2, 2}, {2, 0, -1, 1})});
    CHECK(along1.dims() == shape{2, 2});
    check_close(values(along1), {2, 0, 5, 4});
    // out[i][j] = x[index[i][j]][j], fewer rows than the data
    check_close(values(run1(op::gather_elements(-2), {x, i32(shape{1, 3}, {1, 0, 1})})), {3, 1, 5});
    // ONNX's own example, int64 indices
    const auto onnx_data = make(shape{2, 2}, {1, 2, 3, 4});
    check_close(values(run1(op::gather_elements(1),
                            {onnx_data, make(shape{2, 2}, {0, 0, 1, 0}, dtype::i64)})),
                {1, 1, 4, 3});
    // Raw elements of any dtype move unchanged.
    const auto bytes = make(shape{3}, {7, -8, 9}, dtype::i8);
    const auto picked = run1(op::gather_elements(0), {bytes, i32(shape{4}, {2, 2, 0, -2})});
    CHECK(picked.type() == dtype::i8);
    check_close(values(picked), {9, 9, 7, -8});
}

TEST_CASE("gather_elements: validation and out-of-range indices") {
    const tensor_desc x(shape{2, 3}, dtype::f32);
    check_error(
        [&] {
            op::gather_elements(0).infer({x, tensor_desc(shape{2, 3}, dtype::f32)});
        },
        {"gather_elements", "tensor 'indices'", "dtype f32 not allowed"});
    check_error(
        [&] {
            op::gather_elements(0).infer({x, tensor_desc(shape{2}, dtype::i32)});
        },
        {"gather_elements", "tensor 'indices'", "rank 1 differs from data's 2"});
    check_error(
        [&] {
            op::gather_elements(1).infer({x, tensor_desc(shape{3, 1}, dtype::i32)});
        },
        {"gather_elements", "tensor 'indices'", "dim 0 is 3, more than data's 2"});
    check_error(
        [&] {
            op::gather_elements(-3).infer({x, tensor_desc(shape{2, 3}, dtype::i32)});
        },
        {"gather_elements", "axis -3 is out of range for rank 2"});
    // Along the axis the indices may be longer than the data.
    CHECK(op::gather_elements(1).infer({x, tensor_desc(shape{2, 5}, dtype::i64)})[0].dims() ==
          shape{2, 5});
    check_error(
        [&] {
            run1(op::gather_elements(1), {make(shape{2, 3}, iota(6)), i32(shape{2, 1}, {0, -4})});
        },
        {"gather_elements", "indices", "index -4 is outside [-3, 3)"});
}

TEST_CASE("expand: numpy broadcast both ways") {
    const auto x = make(shape{3, 1}, {1, 2, 3});
    const auto y = run1(op::expand(shape{2, 1, 2}), {x});
    CHECK(y.dims() == shape{2, 3, 2});
    check_close(values(y), {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
    // Target dims of 1 keep the source's extent (ONNX Expand is bidirectional).
    CHECK(op::expand(shape{1, 1}).infer({x.desc()})[0].dims() == shape{3, 1});
    check_error(
        [&] {
            op::expand(shape{2, 2}).infer({x.desc()});
        },
        {"expand", "tensor 'src'", "not broadcastable"});
    check_error([&] { op::expand(shape{-1}).infer({x.desc()}); }, {"expand", "target dim 0 is -1"});
}

TEST_CASE("tile: repeats per dim") {
    const auto x = make(shape{2, 2}, {1, 2, 3, 4});
    check_close(values(run1(op::tile({2, 3}), {x})),
                {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
    CHECK(op::tile({0, 1}).infer({x.desc()})[0].dims() == shape{0, 2});
    check_error([&] { op::tile({2}).infer({x.desc()}); },
                {"tile", "tensor 'src'", "the repeats cover 1 dims"});
    check_error([&] { op::tile({2, -1}).infer({x.desc()}); }, {"tile", "repeats of dim 1 is -1"});
    check_error([&] { op::tile({big, 2}).infer({x.desc()}); }, {"tile", "does not fit int64"});
}

TEST_CASE("slice, gather, expand, tile move raw elements of every dtype") {
    const auto q = make(shape{4}, {1, 2, 3, 4}, dtype::i8, quantization{0.5f, 3});
    const auto s = run1(op::slice().set_dim(0, 1, 3), {q});
    CHECK(s.type() == dtype::i8);
    CHECK(s.desc().quant().zero_point == 3);
    check_close(values(s), {2, 3});
    const auto b = make(shape{2}, {1, 0}, dtype::boolean);
    check_close(values(run1(op::tile({2}), {b})), {1, 0, 1, 0});
    check_close(values(run1(op::gather(0), {b, i32(shape{2}, {1, 1})})), {0, 0});
}

TEST_CASE("gather: an output too large for INT64_MAX bytes is an error, not an overflow") {
    const std::int64_t huge = std::int64_t{1} << 40;
    check_error(
        [&] {
            op::gather(0).infer(
                {tensor_desc(shape{4, huge}, dtype::f32), tensor_desc(shape{huge, 4}, dtype::i32)});
        },
        {"gather", "tensor 'indices'", "INT64_MAX bytes"});
}
