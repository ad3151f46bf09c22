// unsigned_dtype_test.cpp: reference kernels on u16, u32 and u64 tensors against hand-computed
// values: uint64 values beyond 2^32 and 2^53 survive data movement, casts, comparisons, reductions
// and cumsum exactly; u64 arithmetic runs in integers (wrap modulo 2^64 or saturation at 0 and
// 2^64 - 1); u16 and u32 sums and products wrap modulo 2^16 and 2^32 as ONNX's do.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "helpers.hpp"
#include "tessera/ops/indexing.hpp"
#include "tessera/tessera.hpp"

using namespace ops_test;

namespace {

using u64s = std::vector<std::uint64_t>;
constexpr std::uint64_t u64_two53 = std::uint64_t{1} << 53;
constexpr std::uint64_t u64_big = u64_two53 + 1;  // a double rounds it to 2^53
constexpr std::uint64_t u64_top = std::numeric_limits<std::uint64_t>::max();

tensor make_u64(const shape& dims, const u64s& v) {
    tensor t(dims, dtype::u64);
    REQUIRE(static_cast<std::int64_t>(v.size()) == t.num_elements());
    if (!v.empty()) std::memcpy(t.data(), v.data(), v.size() * sizeof(std::uint64_t));
    return t;
}

u64s u64_values(const tensor& t) {
    REQUIRE(t.type() == dtype::u64);
    const tensor dense = t.clone();
    u64s v(static_cast<std::size_t>(dense.num_elements()));
    if (!v.empty()) std::memcpy(v.data(), dense.data(), v.size() * sizeof(std::uint64_t));
    return v;
}

op::binary wrapping(binary_kind kind) {
    op::binary b(kind);
    b.set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    return b;
}

}  // namespace

TEST_CASE("u64 beyond 2^53 survives reshape, permute, concat, slice, gather and where") {
    const tensor x = make_u64(shape{2, 2}, {u64_big, u64_top, 4294967296u, 7});
    CHECK(u64_values(run1(op::reshape({4}), {x})) == u64s{u64_big, u64_top, 4294967296u, 7});
    CHECK(u64_values(run1(op::permute({1, 0}), {x})) == u64s{u64_big, 4294967296u, u64_top, 7});
    CHECK(u64_values(run1(op::concat(0), {x, make_u64(shape{1, 2}, {1, u64_top - 1})})) ==
          u64s{u64_big, u64_top, 4294967296u, 7, 1, u64_top - 1});
    CHECK(u64_values(run1(op::slice().set_dim(1, 1, 2), {x})) == u64s{u64_top, 7});
    CHECK(u64_values(run1(op::gather(1), {x, make(shape{1}, {1}, dtype::i32)})) ==
          u64s{u64_top, 7});
    const tensor cond = make(shape{2, 2}, {1, 0, 0, 1}, dtype::boolean);
    CHECK(u64_values(run1(op::where(), {cond, x, make_u64(shape{1}, {u64_big + 2})})) ==
          u64s{u64_big, u64_big + 2, u64_big + 2, 7});
}

TEST_CASE("u64 element-wise arithmetic runs in integers beyond 2^53") {
    const tensor a = make_u64(shape{3}, {u64_two53, u64_top, 5});
    const tensor b = make_u64(shape{3}, {1, 2, 7});
    // 2^64 - 1 + 2 wraps to 1; 5 - 7 wraps to 2^64 - 2.
    CHECK(u64_values(run1(wrapping(binary_kind::add), {a, b})) == u64s{u64_big, 1, 12});
    CHECK(u64_values(run1(wrapping(binary_kind::sub), {a, b})) ==
          u64s{u64_two53 - 1, u64_top - 2, u64_top - 1});
    // Saturation at 2^64 - 1 and at 0.
    CHECK(u64_values(run1(op::binary(binary_kind::add), {a, b})) == u64s{u64_big, u64_top, 12});
    CHECK(u64_values(run1(op::binary(binary_kind::sub), {a, b})) ==
          u64s{u64_two53 - 1, u64_top - 2, 0});
    // (2^32 + 1)^2 = 2^64 + 2^33 + 1 wraps to 2^33 + 1.
    const tensor c = make_u64(shape{1}, {4294967297u});
    CHECK(u64_values(run1(wrapping(binary_kind::mul), {c, c})) == u64s{8589934593u});
    // Division truncates (ONNX) or rounds to nearest even; by zero gives 0.
    const tensor n = make_u64(shape{3}, {u64_top, 7, 9});
    const tensor m = make_u64(shape{3}, {2, 2, 0});
    CHECK(u64_values(run1(wrapping(binary_kind::div), {n, m})) == u64s{u64_top / 2, 3, 0});
    CHECK(u64_values(run1(op::binary(binary_kind::div), {n, m})) == u64s{u64_top / 2 + 1, 4, 0});
    CHECK(u64_values(run1(op::binary(binary_kind::max), {a, make_u64(shape{1}, {u64_big})})) ==
          u64s{u64_big, u64_top, u64_big});
    // Comparisons are exact: a double sees 2^53 + 1 == 2^53.
    check_close(
        values(run1(op::compare(compare_kind::greater),
                    {make_u64(shape{2}, {u64_big, u64_two53}), make_u64(shape{1}, {u64_two53})})),
        {1, 0});
}

TEST_CASE("u16 and u32 sums and products wrap modulo 2^16 and 2^32") {
    const tensor a = make(shape{3}, {65535, 40000, 3}, dtype::u16);
    const tensor b = make(shape{3}, {1, 40000, 4}, dtype::u16);
    const tensor s = run1(wrapping(binary_kind::add), {a, b});
    CHECK(s.type() == dtype::u16);
    check_close(values(s), {0, 14464, 7});  // 80000 - 65536 = 14464
    check_close(values(run1(op::binary(binary_kind::add), {a, b})), {65535, 65535, 7});
    const tensor x = make(shape{3}, {4294967295.0, 4000000000.0, 0}, dtype::u32);
    const tensor y = make(shape{3}, {2, 4000000000.0, 1}, dtype::u32);
    check_close(values(run1(wrapping(binary_kind::add), {x, y})),
                {1, 3705032704.0, 1});  // 8e9 - 2^32 = 3705032704
    check_close(values(run1(wrapping(binary_kind::sub),
                            {make(shape{1}, {0}, dtype::u32), make(shape{1}, {1}, dtype::u32)})),
                {4294967295.0});
    // 4e9 * 4e9 = 1.6e19 > 9e18 still wraps exactly: 16e18 mod 2^32 = 1983905792.
    check_close(values(run1(wrapping(binary_kind::mul), {x, y})), {4294967294.0, 1983905792.0, 0});
}

TEST_CASE("reorder (cast) between u64, i64, u32, u16 and f64") {
    const auto cast = [](const tensor& x, dtype to) {
        op::reorder c(tensor_desc(x.dims(), to));
        c.set_rounding(rounding_policy::to_zero);
        return run1(c, {x});
    };
    const tensor x = make_u64(shape{3}, {u64_big, u64_top, 70000});
    // u64 -> i64 saturates above 2^63 - 1; u32 and u16 saturate.
    const tensor i = cast(x, dtype::i64);
    std::int64_t got[3];
    std::memcpy(got, i.clone().data(), sizeof got);
    CHECK(got[0] == static_cast<std::int64_t>(u64_big));
    CHECK(got[1] == std::numeric_limits<std::int64_t>::max());
    CHECK(got[2] == 70000);
    check_close(values(cast(x, dtype::u32)), {4294967295.0, 4294967295.0, 70000});
    check_close(values(cast(x, dtype::u16)), {65535, 65535, 65535});
    // i64 -> u64 saturates negatives at 0; f64 2^63 + 2^11 is exact in u64.
    tensor neg(shape{1}, dtype::i64);
    neg.at<std::int64_t>({0}) = -5;
    CHECK(u64_values(cast(neg, dtype::u64)) == u64s{0});
    CHECK(u64_values(cast(make(shape{1}, {9223372036854777856.0}, dtype::f64), dtype::u64)) ==
          u64s{9223372036854777856u});
    CHECK(u64_values(cast(cast(x, dtype::f64), dtype::u64))[2] == 70000);
}

TEST_CASE("reduce, cumsum and topk on u64 are exact beyond 2^53") {
    const tensor x = make_u64(shape{3}, {u64_two53, 1, 1});
    CHECK(u64_values(run1(op::reduce(reduce_kind::sum).along(0).keep(false), {x})) ==
          u64s{u64_two53 + 2});
    CHECK(u64_values(run1(op::cumsum(0), {x})) == u64s{u64_two53, u64_two53 + 1, u64_two53 + 2});
    const tensor y = make_u64(shape{3}, {u64_two53, u64_big, u64_top});
    CHECK(u64_values(run1(op::reduce(reduce_kind::min).along(0), {y})) == u64s{u64_two53});
    CHECK(u64_values(run1(op::reduce(reduce_kind::max).along(0), {y})) == u64s{u64_top});
    const auto top = run_ref(op::topk(2, 0), {y});
    CHECK(u64_values(top[0]) == u64s{u64_top, u64_big});
    check_close(values(run1(op::reduce(reduce_kind::sum).along(0),
                            {make(shape{2}, {65535, 65535}, dtype::u32)})),
                {131070});
}
