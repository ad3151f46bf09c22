// scan_test.cpp: op::cumsum (inclusive, exclusive, reverse), op::topk (largest, smallest, ties,
// NaN) and the index reductions' select_last_index, against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>

#include "helpers.hpp"
#include "tessera/ops/reduction.hpp"
#include "tessera/ops/scan.hpp"

using namespace ops_test;

TEST_CASE("cumsum: the four forms along an axis") {
    const auto x = make(shape{2, 3}, {1, 2, 3, 4, 5, 6});
    check_close(values(run1(op::cumsum(1), {x})), {1, 3, 6, 4, 9, 15});
    check_close(values(run1(op::cumsum(1).set_exclusive(true), {x})), {0, 1, 3, 0, 4, 9});
    check_close(values(run1(op::cumsum(1).set_reverse(true), {x})), {6, 5, 3, 15, 11, 6});
    check_close(values(run1(op::cumsum(-1).set_exclusive(true).set_reverse(true), {x})),
                {5, 3, 0, 11, 6, 0});
    check_close(values(run1(op::cumsum(0), {x})), {1, 2, 3, 5, 7, 9});
    check_error([&] { op::cumsum(2).infer({x.desc()}); }, {"cumsum", "axis 2 is out of range"});
    check_error([&] { op::cumsum(0).infer({tensor_desc(shape{2}, dtype::boolean)}); },
                {"cumsum", "tensor 'src'", "bool is not numeric"});
}

TEST_CASE("topk: values and indices, largest and smallest, ties keep the lower index") {
    const auto x = make(shape{2, 4}, {1, 3, 3, 2, 0, -1, 5, std::nan("")});
    auto out = run_ref(op::topk(2, 1), {x});
    REQUIRE(out.size() == 2);
    CHECK(out[1].type() == dtype::i32);
    CHECK(out[0].dims() == shape{2, 2});
    // Row 0: 3 (index 1) before the equal 3 (index 2). Row 1: NaN counts as the largest.
    check_close(values(out[0]), {3, 3, std::nan(""), 5});
    check_close(values(out[1]), {1, 2, 3, 2});
    out = run_ref(op::topk(3, -1).set_largest(false), {x});
    check_close(values(out[0]), {1, 2, 3, -1, 0, 5});
    check_close(values(out[1]), {0, 3, 1, 1, 0, 2});
    out = run_ref(op::topk(1, 0), {x});
    check_close(values(out[0]), {1, 3, 5, std::nan("")});
    check_close(values(out[1]), {0, 0, 1, 1});
    check_error([&] { op::topk(5, 1).infer({x.desc()}); },
                {"topk", "tensor 'src'", "k is 5, must be in [0, 4]"});
    check_error([&] { op::topk(1, 2).infer({x.desc()}); }, {"topk", "axis 2 is out of range"});
}

TEST_CASE("reduce: select_last_index returns the last extreme element") {
    const auto x = make(shape{2, 4}, {1, 3, 3, 2, 5, 0, 5, 0});
    op::reduce first(reduce_kind::max_idx);
    first.along(1).keep(false);
    check_close(values(run1(first, {x})), {1, 0});
    op::reduce last = first;
    last.set_select_last_index(true);
    CHECK(last.select_last_index());
    check_close(values(run1(last, {x})), {2, 2});
    op::reduce last_min(reduce_kind::min_idx);
    last_min.along(1).keep(false).set_select_last_index(true);
    check_close(values(run1(last_min, {x})), {0, 3});
}
