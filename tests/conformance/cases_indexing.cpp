// cases_indexing.cpp: conformance cases of the selecting and indexing ops: compare (every
// comparison, broadcast forms, ties), logical (and, or, xor, not), where, slice (positive and
// negative steps, clamped and negative bounds), gather (every axis, negative indices),
// gather_elements (every axis, cropped and longer index tensors, i32 and i64 indices), expand,
// tile, cumsum (exclusive, reverse), topk (largest, smallest, ties) and the index reductions'
// select_last_index; the data-movement ones in every dtype their descriptor admits.
#include <limits>

#include "case_support.hpp"

namespace conformance {

namespace {

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

/// Random bool tensor.
tensor booleans(draw& d, const shape& s) {
    tensor t(tensor_desc(s, dtype::boolean));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>(d.pick(2));
    return t;
}

/// i32 indices in [lo, hi].
tensor indices(draw& d, const shape& s, std::int64_t lo, std::int64_t hi) {
    tensor t(tensor_desc(s, dtype::i32));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<std::int32_t>()[i] =
            static_cast<std::int32_t>(lo + d.pick(static_cast<int>(hi - lo + 1)));
    return t;
}

/// The same indices as i64.
tensor as_i64(const tensor& t) {
    tensor wide(tensor_desc(t.dims(), dtype::i64));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        wide.data_as<std::int64_t>()[i] = t.data_as<std::int32_t>()[i];
    return wide;
}

/// `s` with each dim other than `axis` cut to a random length in [1, dim], and `axis` of
/// length `along`.
shape cropped_around(draw& d, const shape& s, int axis, std::int64_t along) {
    shape c = s;
    for (int k = 0; k < s.rank(); ++k)
        c = with_dim(c, k, k == axis ? along : 1 + d.pick(static_cast<int>(s[k])));
    return c;
}

const compare_kind all_compares[] = {compare_kind::equal, compare_kind::less,
                                     compare_kind::less_equal, compare_kind::greater,
                                     compare_kind::greater_equal};

}  // namespace

case_list selection_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const shape s = d.dims(2 + d.pick(3));
        for (compare_kind k : all_compares) {
            const std::string op = "compare " + std::string(to_string(k));
            // Multiples of 0.5 in [-2, 2]: many ties, so equal and the *_equal forms matter.
            cases.push_back({op,
                             "equal shapes",
                             op::compare(k),
                             {d.multiples(s, 0.5f, -4, 4), d.multiples(s, 0.5f, -4, 4)},
                             1});
            cases.push_back(
                {op,
                 "B row [W]",
                 op::compare(k),
                 {d.multiples(s, 0.5f, -4, 4), d.multiples(trailing(s, 1), 0.5f, -4, 4)},
                 1});
            cases.push_back({op,
                             "A scalar []",
                             op::compare(k),
                             {d.multiples(shape{}, 0.5f, -4, 4), d.multiples(s, 0.5f, -4, 4)},
                             1});
        }
        cases.push_back({"compare equal",
                         "bool",
                         op::compare(compare_kind::equal),
                         {booleans(d, s), booleans(d, s)},
                         1});
        for (logical_kind k : {logical_kind::and_, logical_kind::or_, logical_kind::xor_}) {
            const std::string op = "logical " + std::string(to_string(k));
            cases.push_back(
                {op, "equal shapes", op::logical(k), {booleans(d, s), booleans(d, s)}, 1});
            cases.push_back({op,
                             "B column [..., H, 1]",
                             op::logical(k),
                             {booleans(d, s), booleans(d, with_dim(s, s.rank() - 1, 1))},
                             1});
        }
        cases.push_back(
            {"logical not", "any shape", op::logical(logical_kind::not_), {booleans(d, s)}, 1});
        cases.push_back({"where",
                         "equal shapes",
                         op::where{},
                         {booleans(d, s), d.values(s, -2.0f, 2.0f), d.values(s, -2.0f, 2.0f)},
                         1});
        cases.push_back({"where",
                         "condition row [W], Y scalar []",
                         op::where{},
                         {booleans(d, trailing(s, 1)), d.values(s, -2.0f, 2.0f),
                          d.values(shape{}, -2.0f, 2.0f)},
                         1});
        cases.push_back(
            {"where",
             "condition full, X column, Y row (all broadcast)",
             op::where{},
             {booleans(d, s), d.values(with_dim(s, s.rank() - 1, 1)), d.values(trailing(s, 1))},
             1});
        for (compare_kind k : {compare_kind::less, compare_kind::equal})
            add_dtype_forms(cases, {"compare " + std::string(to_string(k)),
                                    "equal shapes",
                                    op::compare(k),
                                    {d.multiples(s, 0.5f, -4, 4), d.multiples(s, 0.5f, -4, 4)},
                                    1});
        add_dtype_forms(cases,
                        {"where",
                         "equal shapes",
                         op::where{},
                         {booleans(d, s), d.values(s, -2.0f, 2.0f), d.values(s, -2.0f, 2.0f)},
                         1});
    }
    return cases;
}

case_list indexing_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const int rank = 2 + d.pick(3);
        const shape s = d.dims(rank, 3, 9);
        const int axis = d.pick(rank);
        const std::int64_t n = s[axis];
        case_list bases = {
            {"slice", "one axis 1:n-1", op::slice().set_dim(axis, 1, n - 1), {d.values(s)}, 1},
            {"slice",
             "last axis ::2",
             op::slice().set_dim(rank - 1, 0, int64_max, 2),
             {d.values(s)},
             1},
            {"slice",
             "reversed (step -1 from the end)",
             op::slice().set_dim(axis, -1, std::numeric_limits<std::int64_t>::min(), -1),
             {d.values(s)},
             1},
            {"slice",
             "step -2, negative bounds",
             op::slice().set_dim(axis, -2, -n - 5, -2),
             {d.values(s)},
             1},
            {"slice",
             "every dim, bounds past the extent clamped",
             op::slice().set_dim(0, 0, 1000).set_dim(rank - 1, -3, 1000, 1),
             {d.values(s)},
             1},
            {"slice", "empty (start past end)", op::slice().set_dim(axis, 3, 1), {d.values(s)}, 1},
            {"gather",
             "axis " + std::to_string(axis) + ", indices [k]",
             op::gather(axis),
             {d.values(s), indices(d, shape{d.dim(1, 6)}, 0, n - 1)},
             1},
            {"gather",
             "negative axis and indices, indices [2, k]",
             op::gather(axis - rank),
             {d.values(s), indices(d, shape{2, d.dim(1, 4)}, -n, n - 1)},
             1},
            {"gather",
             "scalar index (drops the axis)",
             op::gather(axis),
             {d.values(s), indices(d, shape{}, -n, n - 1)},
             1},
            {"gather_elements",
             "axis " + std::to_string(axis) + ", indices of the data's shape",
             op::gather_elements(axis),
             {d.values(s), indices(d, s, -n, n - 1)},
             1},
            {"gather_elements",
             "negative axis, cropped i64 indices longer along the axis",
             op::gather_elements(axis - rank),
             {d.values(s), as_i64(indices(d, cropped_around(d, s, axis, n + 2), -n, n - 1))},
             1},
            {"expand",
             "size-1 dims to the target",
             op::expand(s),
             {d.values(with_dim(with_dim(s, 0, 1), rank - 1, 1))},
             1},
            {"expand",
             "lower rank src, target with 1s",
             op::expand(with_dim(s, rank - 1, 1)),
             {d.values(trailing(s, 1))},
             1},
            {"expand",
             "to a higher rank [2, 3, 4] from [3, 1]",
             op::expand(shape{2, 3, 4}),
             {d.values(shape{3, 1})},
             1},
            {"tile",
             "every dim repeated",
             op::tile().set_repeats(std::vector<std::int64_t>(static_cast<std::size_t>(rank), 2)),
             {d.values(s)},
             1},
            {"tile",
             "one dim 3 times, one 0 times",
             op::tile().set_repeats([&] {
                 std::vector<std::int64_t> v(static_cast<std::size_t>(rank), 1);
                 v[static_cast<std::size_t>(axis)] = 3;
                 if (r == 1) v[static_cast<std::size_t>((axis + 1) % rank)] = 0;
                 return v;
             }()),
             {d.values(s)},
             1},
        };
        for (const auto& b : bases) {
            cases.push_back(b);
            add_dtype_forms(cases, b);
        }
    }
    return cases;
}

case_list scan_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const int rank = 1 + d.pick(4);
        const shape s = d.dims(rank, 2, 9);
        const int axis = d.pick(rank);
        for (bool exclusive : {false, true})
            for (bool reverse : {false, true}) {
                const std::string form = std::string(exclusive ? "exclusive" : "inclusive") +
                                         (reverse ? ", reverse" : ", forward");
                cases.push_back({"cumsum",
                                 form,
                                 op::cumsum(axis).set_exclusive(exclusive).set_reverse(reverse),
                                 {d.values(s, -2.0f, 2.0f)},
                                 2});
            }
        const std::int64_t k = 1 + d.pick(static_cast<int>(s[axis]));
        cases.push_back(
            {"topk", "largest, sorted", op::topk(k, axis), {d.values(s, -2.0f, 2.0f)}, 1});
        cases.push_back({"topk",
                         "smallest, last axis",
                         op::topk(1 + d.pick(2), -1).set_largest(false),
                         {d.values(s, -2.0f, 2.0f)},
                         1});
        cases.push_back({"topk",
                         "ties (multiples of 0.5): lower index first",
                         op::topk(k, axis),
                         {d.multiples(s, 0.5f, -2, 2)},
                         1});
        for (reduce_kind kind : {reduce_kind::max_idx, reduce_kind::min_idx}) {
            op::reduce red(kind);
            red.along(axis).set_select_last_index(true);
            cases.push_back({"reduce " + std::string(to_string(kind)),
                             "select_last_index, ties (multiples of 0.5)",
                             red,
                             {d.multiples(s, 0.5f, -2, 2)},
                             1});
            // The innermost axis, where zDNN's reduce (first index only) would otherwise take it.
            op::reduce inner(kind);
            inner.along(-1).set_select_last_index(true);
            cases.push_back({"reduce " + std::string(to_string(kind)),
                             "select_last_index, last axis, ties (multiples of 0.5)",
                             inner,
                             {d.multiples(s, 0.5f, -2, 2)},
                             1});
        }
        add_dtype_forms(
            cases,
            {"cumsum", "inclusive, forward", op::cumsum(axis), {d.values(s, -2.0f, 2.0f)}, 2});
        add_dtype_forms(
            cases, {"topk", "largest, sorted", op::topk(k, axis), {d.values(s, -2.0f, 2.0f)}, 1});
    }
    return cases;
}

}  // namespace conformance
