// wide_dtype_test.cpp: reference kernels on wide_i64 and f64 tensors against hand-computed values:
// int64 values beyond 2^53 survive every data-movement op, casts and comparisons exactly;
// reductions, cumsum and topk on int64 are exact; the cast grid between every pair of dtypes;
// descriptors that do not take the 64-bit dtypes reject them with a typed error.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "helpers.hpp"
#include "tessera/ops/broadcast.hpp"
#include "tessera/ops/indexing.hpp"
#include "tessera/tessera.hpp"

using namespace ops_test;

namespace {

using wide_ints = std::vector<std::int64_t>;
constexpr std::int64_t wide_two53 = std::int64_t{1} << 53;
constexpr std::int64_t wide_big =
    wide_two53 + 1;  // the nearest double is 2^53: a double path loses it
constexpr std::int64_t wide_int64_max = std::numeric_limits<std::int64_t>::max();

tensor wide_i64(const shape& dims, const wide_ints& v) {
    tensor t(dims, dtype::i64);
    REQUIRE(static_cast<std::int64_t>(v.size()) == t.num_elements());
    if (!v.empty()) std::memcpy(t.data(), v.data(), v.size() * sizeof(std::int64_t));
    return t;
}

wide_ints wide_values(const tensor& t) {
    REQUIRE(t.type() == dtype::i64);
    const tensor dense = t.clone();
    wide_ints v(static_cast<std::size_t>(dense.num_elements()));
    if (!v.empty()) std::memcpy(v.data(), dense.data(), v.size() * sizeof(std::int64_t));
    return v;
}

/// Every dtype, with default quantisation (scale 1, zero point 0, fixed point 0).
const dtype wide_all_dtypes[] = {dtype::f32,     dtype::f16, dtype::bf16, dtype::dlfloat16,
                                 dtype::i8,      dtype::u8,  dtype::i16,  dtype::i32,
                                 dtype::boolean, dtype::i64, dtype::f64};

}  // namespace

TEST_CASE(
    "i64 beyond 2^53 survives reshape, permute, transpose, concat, slice, gather, tile, "
    "expand, where and pad") {
    const tensor x = wide_i64(shape{2, 2}, {wide_big, -wide_big, wide_int64_max, 7});
    CHECK(wide_values(run1(op::reshape({4}), {x})) ==
          wide_ints{wide_big, -wide_big, wide_int64_max, 7});
    CHECK(wide_values(run1(op::permute({1, 0}), {x})) ==
          wide_ints{wide_big, wide_int64_max, -wide_big, 7});
    CHECK(wide_values(run1(op::transpose(0, 1), {x})) ==
          wide_ints{wide_big, wide_int64_max, -wide_big, 7});
    CHECK(wide_values(run1(op::concat(0), {x, wide_i64(shape{1, 2}, {1, wide_big + 2})})) ==
          wide_ints{wide_big, -wide_big, wide_int64_max, 7, 1, wide_big + 2});
    CHECK(wide_values(run1(op::slice().set_dim(1, 1, 2), {x})) == wide_ints{-wide_big, 7});
    // wide_i64 data gathered with wide_i64 indices (negative counts from the end) and with i32
    // indices.
    CHECK(wide_values(run1(op::gather(1), {x, wide_i64(shape{3}, {1, -2, 0})})) ==
          wide_ints{-wide_big, wide_big, wide_big, 7, wide_int64_max, wide_int64_max});
    CHECK(wide_values(run1(op::gather(0), {x, make(shape{1}, {1}, dtype::i32)})) ==
          wide_ints{wide_int64_max, 7});
    CHECK(wide_values(run1(op::tile({1, 2}), {x})) == wide_ints{wide_big, -wide_big, wide_big,
                                                                -wide_big, wide_int64_max, 7,
                                                                wide_int64_max, 7});
    CHECK(wide_values(run1(op::expand(shape{2, 2}), {wide_i64(shape{2}, {wide_big, 1})})) ==
          wide_ints{wide_big, 1, wide_big, 1});
    const tensor cond = make(shape{2, 2}, {1, 0, 0, 1}, dtype::boolean);
    CHECK(wide_values(run1(op::where(), {cond, x, wide_i64(shape{1}, {wide_big + 4})})) ==
          wide_ints{wide_big, wide_big + 4, wide_big + 4, 7});
    CHECK(wide_values(run1(op::pad().set_pads({0, 1}, {0, 0}), {x})) ==
          wide_ints{0, wide_big, -wide_big, 0, wide_int64_max, 7});
}

TEST_CASE("gather: i64 indices out of range are an error naming the index") {
    check_error(
        [&] {
            run1(op::gather(0), {wide_i64(shape{2}, {1, 2}), wide_i64(shape{1}, {wide_two53})});
        },
        {"gather", "indices", "index 9007199254740992 is outside [-2, 2)"});
}

TEST_CASE("reorder (cast) to and from i64 and f64") {
    const auto cast = [](const tensor& x, dtype to,
                         rounding_policy r = rounding_policy::to_nearest_even) {
        op::reorder c(tensor_desc(x.dims(), to));
        c.set_rounding(r);
        return run1(c, {x});
    };
    const tensor x = wide_i64(shape{3}, {wide_big, -wide_big, wide_int64_max});
    CHECK(wide_values(cast(x, dtype::i64)) == wide_ints{wide_big, -wide_big, wide_int64_max});
    // wide_i64 -> f64 rounds to the nearest double (2^53 + 1 -> 2^53), wide_i64 -> i32 saturates.
    check_close(values(cast(x, dtype::f64)),
                {9007199254740992.0, -9007199254740992.0, 9223372036854775808.0});
    check_close(values(cast(x, dtype::i32)), {2147483647.0, -2147483648.0, 2147483647.0});
    // f64 -> wide_i64: 2^60 is exact in a double; -2.7 truncates toward zero as ONNX Cast does.
    const tensor d = make(shape{3}, {1152921504606846976.0, -2.7, 1e300}, dtype::f64);
    CHECK(wide_values(cast(d, dtype::i64, rounding_policy::to_zero)) ==
          wide_ints{std::int64_t{1} << 60, -2, wide_int64_max});
    // f32 -> f64 keeps the float; f64 -> f32 rounds.
    check_close(values(cast(make(shape{1}, {0.1}, dtype::f32), dtype::f64)),
                {static_cast<double>(0.1f)});
    CHECK(values(cast(make(shape{1}, {0.1}, dtype::f64), dtype::f32))[0] ==
          static_cast<double>(0.1f));
}

TEST_CASE("cast grid: every dtype to every dtype") {
    const values_t in = {0, 1, 2, 5, 100};
    for (const dtype from : wide_all_dtypes)
        for (const dtype to : wide_all_dtypes) {
            CAPTURE(from);
            CAPTURE(to);
            const tensor x =
                make(shape{5}, from == dtype::boolean ? values_t{0, 1, 1, 0, 1} : in, from);
            const values_t src = values(x);
            const tensor y = run1(op::reorder(tensor_desc(x.dims(), to)), {x});
            CHECK(y.type() == to);
            values_t want;
            for (const double v : src) want.push_back(to == dtype::boolean ? (v != 0 ? 1 : 0) : v);
            CHECK(values(y) == want);
        }
}

TEST_CASE("i64 element-wise arithmetic and comparisons are exact beyond 2^53") {
    const tensor a = wide_i64(shape{3}, {wide_two53, wide_big, -wide_big});
    const tensor b = wide_i64(shape{3}, {1, 2, -3});
    CHECK(wide_values(run1(op::binary(binary_kind::add), {a, b})) ==
          wide_ints{wide_two53 + 1, wide_two53 + 3, -wide_big - 3});
    CHECK(wide_values(run1(op::binary(binary_kind::sub), {a, b})) ==
          wide_ints{wide_two53 - 1, wide_big - 2, -wide_big + 3});
    CHECK(wide_values(run1(op::binary(binary_kind::max), {a, wide_i64(shape{1}, {wide_big})})) ==
          wide_ints{wide_big, wide_big, wide_big});
    CHECK(wide_values(run1(op::unary(unary_kind::neg), {a})) ==
          wide_ints{-wide_two53, -wide_big, wide_big});
    CHECK(wide_values(run1(op::unary(unary_kind::abs), {a})) ==
          wide_ints{wide_two53, wide_big, wide_big});
    // Products beyond 64 bits wrap modulo 2^64 exactly: (2^62 + 1)^2 = 2^124 + 2^63 + 1.
    const wide_ints q = {(std::int64_t{1} << 62) + 1};
    CHECK(wide_values(run1(op::binary(binary_kind::mul).set_overflow(overflow_policy::wrap),
                           {wide_i64(shape{1}, q), wide_i64(shape{1}, q)})) ==
          wide_ints{std::numeric_limits<std::int64_t>::min() + 1});
    CHECK(wide_values(run1(op::binary(binary_kind::mul).set_overflow(overflow_policy::saturate),
                           {wide_i64(shape{1}, q), wide_i64(shape{1}, {-3})})) ==
          wide_ints{std::numeric_limits<std::int64_t>::min()});
    // Integer division: toward zero as ONNX does, or to nearest even; by zero gives 0.
    const tensor n = wide_i64(shape{4}, {7, -7, wide_int64_max, 5});
    const tensor m = wide_i64(shape{4}, {2, 2, 1, 0});
    CHECK(wide_values(run1(op::binary(binary_kind::div).set_rounding(rounding_policy::to_zero),
                           {n, m})) == wide_ints{3, -3, wide_int64_max, 0});
    CHECK(wide_values(run1(op::binary(binary_kind::div), {n, m})) ==
          wide_ints{4, -4, wide_int64_max, 0});
    // A double sees 2^53 + 1 == 2^53.
    const tensor gt =
        run1(op::compare(compare_kind::greater), {a, wide_i64(shape{1}, {wide_two53})});
    CHECK(gt.type() == dtype::boolean);
    check_close(values(gt), {0, 1, 0});
    check_close(values(run1(op::compare(compare_kind::equal), {a, wide_i64(shape{1}, {wide_big})})),
                {0, 1, 0});
    // f64 keeps double precision: 0.1 + 0.2 is the double sum, not a float's.
    const tensor s = run1(op::binary(binary_kind::add),
                          {make(shape{1}, {0.1}, dtype::f64), make(shape{1}, {0.2}, dtype::f64)});
    CHECK(s.type() == dtype::f64);
    CHECK(values(s)[0] == 0.1 + 0.2);
}

TEST_CASE("reduce, argmax, cumsum and topk on i64 are exact beyond 2^53") {
    const tensor x = wide_i64(shape{3}, {wide_two53, 1, 1});
    CHECK(wide_values(run1(op::reduce(reduce_kind::sum).along(0).keep(false), {x})) ==
          wide_ints{wide_two53 + 2});
    const tensor y = wide_i64(shape{3}, {wide_two53, wide_big, 5});
    CHECK(wide_values(run1(op::reduce(reduce_kind::max).along(0), {y})) == wide_ints{wide_big});
    const tensor arg = run1(op::reduce(reduce_kind::max_idx).along(0), {y});
    check_close(values(arg), {1});
    CHECK(wide_values(run1(op::cumsum(0), {x})) ==
          wide_ints{wide_two53, wide_two53 + 1, wide_two53 + 2});
    const auto top = run_ref(op::topk(1, 0), {y});
    CHECK(wide_values(top[0]) == wide_ints{wide_big});
    check_close(values(top[1]), {1});
    // f64 reductions stay doubles.
    const tensor d =
        run1(op::reduce(reduce_kind::sum).along(0), {make(shape{2}, {0.1, 0.2}, dtype::f64)});
    CHECK(d.type() == dtype::f64);
    CHECK(values(d)[0] == 0.1 + 0.2);
}

TEST_CASE("descriptors without 64-bit forms reject i64 and f64 with a typed error") {
    const tensor_desc f64_mat(shape{2, 2}, dtype::f64), i64_mat(shape{2, 2}, dtype::i64);
    check_error(
        [&] {
            op::matmul().infer({i64_mat, i64_mat});
        },
        {"matmul", "tensor 'A'", "dtype i64 not allowed"});
    check_error([&] { op::softmax().infer({f64_mat}); },
                {"softmax", "tensor 'src'", "dtype f64 not allowed"});
    check_error(
        [&] {
            op::table_lookup().infer({i64_mat, tensor_desc(shape{256}, dtype::u8)});
        },
        {"table_lookup", "tensor 'src'", "dtype i64 not allowed"});
    check_error(
        [&] {
            op::gather(0).infer({i64_mat, f64_mat});
        },
        {"gather", "tensor 'indices'", "dtype f64 not allowed"});
    check_error(
        [&] {
            op::conv2d().infer({tensor_desc(shape{1, 1, 3, 3}, dtype::i64),
                                tensor_desc(shape{1, 1, 1, 1}, dtype::i64)});
        },
        {"conv2d", "tensor 'src'", "dtype i64 not allowed"});
    // Where the op makes sense they are accepted.
    CHECK(op::binary(binary_kind::add).infer({i64_mat, i64_mat})[0].type() == dtype::i64);
    CHECK(op::reduce(reduce_kind::mean).along(0).infer({f64_mat})[0].type() == dtype::f64);
    CHECK(op::gather(0).infer({f64_mat, i64_mat})[0].type() == dtype::f64);
    CHECK(op::matmul().infer({f64_mat, f64_mat})[0].type() == dtype::f64);
}

TEST_CASE("matmul on f64 keeps double precision") {
    // [1 + 2^-40, 1] . [1, 2^-40]^T = 1 + 2^-39: below f32's resolution at 1, exact in a double.
    const double e = std::ldexp(1.0, -40);
    const tensor a = make(shape{1, 2}, {1.0 + e, 1.0}, dtype::f64);
    const tensor b = make(shape{2, 1}, {1.0, e}, dtype::f64);
    const tensor y = run1(op::matmul(), {a, b});
    CHECK(y.type() == dtype::f64);
    CHECK(values(y)[0] == 1.0 + 2 * e);
    // Stacked: [2, 1, 2] x [2, 1] broadcasts B over the stack.
    const tensor s = make(shape{2, 1, 2}, {1.0 + e, 1.0, 3.0, -1.0}, dtype::f64);
    const tensor z = run1(op::matmul(), {s, b});
    CHECK(z.dims() == shape{2, 1, 1});
    CHECK(values(z) == values_t{1.0 + 2 * e, 3.0 - e});
}
