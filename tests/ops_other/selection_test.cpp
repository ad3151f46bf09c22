// selection_test.cpp: op::compare, op::logical and op::where: hand values with broadcasting,
// NaN, bool outputs and validation errors.
#include <doctest/doctest.h>

#include <cmath>

#include "helpers.hpp"
#include "tessera/ops/compare.hpp"

using namespace ops_test;

TEST_CASE("compare: every comparison with broadcasting, NaN is never true") {
    const auto a = make(shape{2, 3}, {1, 2, 3, 4, 5, std::nan("")});
    const auto b = make(shape{3}, {2, 2, 2});
    const auto run = [&](compare_kind k) {
        const auto out = run1(op::compare(k), {a, b});
        CHECK(out.type() == dtype::boolean);
        CHECK(out.dims() == shape{2, 3});
        return values(out);
    };
    check_close(run(compare_kind::equal), {0, 1, 0, 0, 0, 0});
    check_close(run(compare_kind::less), {1, 0, 0, 0, 0, 0});
    check_close(run(compare_kind::less_equal), {1, 1, 0, 0, 0, 0});
    check_close(run(compare_kind::greater), {0, 0, 1, 1, 1, 0});
    check_close(run(compare_kind::greater_equal), {0, 1, 1, 1, 1, 0});
}

TEST_CASE("compare: validation") {
    const tensor_desc f(shape{2}, dtype::f32), i(shape{2}, dtype::i32), b(shape{2}, dtype::boolean);
    check_error([&] { op::compare().infer({f, i}); }, {"compare", "tensor 'B'", "dtype is i32"});
    check_error(
        [&] {
            op::compare(compare_kind::less).infer({b, b});
        },
        {"compare", "tensor 'A'", "bool is only compared for equality"});
    CHECK(op::compare().infer({b, b})[0].type() == dtype::boolean);
    check_error(
        [&] {
            op::compare().infer({f, tensor_desc(shape{3}, dtype::f32)});
        },
        {"compare", "tensor 'B'", "not broadcastable"});
}

TEST_CASE("logical: and, or, xor, not") {
    const auto a = make(shape{4}, {0, 0, 1, 1}, dtype::boolean);
    const auto b = make(shape{4}, {0, 1, 0, 1}, dtype::boolean);
    check_close(values(run1(op::logical(logical_kind::and_), {a, b})), {0, 0, 0, 1});
    check_close(values(run1(op::logical(logical_kind::or_), {a, b})), {0, 1, 1, 1});
    check_close(values(run1(op::logical(logical_kind::xor_), {a, b})), {0, 1, 1, 0});
    check_close(values(run1(op::logical(logical_kind::not_), {a})), {1, 1, 0, 0});
    // Broadcast: [2, 1] and [2].
    const auto c = make(shape{2, 1}, {0, 1}, dtype::boolean);
    const auto d = make(shape{2}, {0, 1}, dtype::boolean);
    check_close(values(run1(op::logical(logical_kind::or_), {c, d})), {0, 1, 1, 1});
    check_error(
        [&] {
            op::logical().infer({tensor_desc(shape{2}, dtype::f32), d.desc()});
        },
        {"logical", "tensor 'A'", "dtype f32 not allowed"});
    check_error(
        [&] {
            op::logical(logical_kind::not_).infer({d.desc(), d.desc()});
        },
        {"logical", "expects 1 inputs, got 2"});
}

TEST_CASE("where: picks X or Y with three-way broadcasting") {
    const auto cond = make(shape{2, 1}, {1, 0}, dtype::boolean);
    const auto x = make(shape{3}, {1, 2, 3});
    const auto y = make(shape{}, {-1});
    const auto out = run1(op::where{}, {cond, x, y});
    CHECK(out.dims() == shape{2, 3});
    check_close(values(out), {1, 2, 3, -1, -1, -1});
    check_error(
        [&] {
            op::where{}.infer({x.desc(), x.desc(), x.desc()});
        },
        {"where", "tensor 'condition'", "dtype f32 not allowed"});
    check_error(
        [&] {
            op::where{}.infer({cond.desc(), x.desc(), tensor_desc(shape{3}, dtype::i32)});
        },
        {"where", "tensor 'Y'", "dtype is i32"});
}
