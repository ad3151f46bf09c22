// pooling_test.cpp: pooling reference kernel: max and averages by hand, average including vs
// excluding padding at the corners, ceil-rounding overhang, SAME/VALID, global modes against
// reduce and mean_reduce2d, integer rounding.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "tessera/reference/pooling.hpp"
#include "tessera/reference/reduction.hpp"

using namespace compute_test;

namespace {
const values_t one_to_16 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
}

TEST_CASE("pooling: max and average 2x2 stride 2 by hand") {
    const tensor x = make(shape::nchw(1, 1, 4, 4), one_to_16);
    const tensor mx = run1(op::pooling(pooling_kind::max).kernel(2, 2).stride(2, 2), {x});
    CHECK(mx.dims() == shape{1, 1, 2, 2});
    check_close(values(mx), {6, 8, 14, 16});
    check_close(
        values(run1(op::pooling(pooling_kind::average_exclude_padding).kernel(2, 2).stride(2, 2),
                    {x})),
        {3.5, 5.5, 11.5, 13.5});
    // Overlapping 3x3 windows, stride 1.
    check_close(values(run1(op::pooling(pooling_kind::max).kernel(3, 3), {x})), {11, 12, 15, 16});
    check_close(values(run1(op::pooling(pooling_kind::average_include_padding).kernel(3, 3), {x})),
                {6, 7, 10, 11});
}

TEST_CASE("pooling: average including vs excluding padding at corners and edges") {
    const tensor x = make(shape::nchw(1, 1, 3, 3), {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const auto pool = [&](pooling_kind m) {
        return values(run1(op::pooling(m).kernel(3, 3).padding(1, 1, 1, 1), {x}));
    };
    const values_t excl = pool(pooling_kind::average_exclude_padding);
    const values_t incl = pool(pooling_kind::average_include_padding);
    // Corner (0,0): 1+2+4+5 = 12 over 4 inside / 9 padded positions; edge (0,1): 1+2+3+4+5+6 = 21.
    check_close(excl, {3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7});
    check_close(incl, {12.0 / 9, 21.0 / 9, 16.0 / 9, 27.0 / 9, 45.0 / 9, 33.0 / 9, 24.0 / 9,
                       39.0 / 9, 28.0 / 9});
    // Max ignores padding even with negative values.
    const tensor neg = make(shape::nchw(1, 1, 2, 2), {-4, -3, -2, -1});
    check_close(
        values(run1(op::pooling(pooling_kind::max).kernel(2, 2).padding(1, 0, 1, 0), {neg})),
        {-4, -3, -2, -1});
}

TEST_CASE("pooling: ceil rounding overhang is neither input nor padding") {
    const tensor x =
        make(shape::nchw(1, 1, 5, 5), {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                       14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25});
    const op::pooling base =
        op::pooling().kernel(2, 2).stride(2, 2).rounding_mode(output_rounding::ceil);
    op::pooling incl = base, excl = base, mx = base;
    incl.kind(pooling_kind::average_include_padding);
    excl.kind(pooling_kind::average_exclude_padding);
    const tensor yi = run1(incl, {x});
    CHECK(yi.dims() == shape{1, 1, 3, 3});
    // Last column windows cover column 4 only: (5+10)/2, (15+20)/2, 25.
    check_close(values(yi), {4, 6, 7.5, 14, 16, 17.5, 21.5, 23.5, 25});
    check_close(values(run1(excl, {x})), values(yi));
    check_close(values(run1(mx, {x})), {7, 9, 10, 17, 19, 20, 22, 24, 25});
    // Floor drops the partial windows.
    CHECK(op::pooling().kernel(2, 2).stride(2, 2).infer({x.desc()})[0].dims() == shape{1, 1, 2, 2});
    // With padding and ceil, a window that would start past the input and its leading padding
    // is dropped: H = 5, pads (1, 1), k 2, s 2: ceil(5 / 2) + 1 = 4 windows, the 4th would start at
    // 6 - 1 = 5 (trailing padding only) -> 3.
    CHECK(op::pooling()
              .kernel(2, 2)
              .stride(2, 2)
              .padding(1, 1, 1, 1)
              .rounding_mode(output_rounding::ceil)
              .infer({tensor_desc(shape::nchw(1, 1, 5, 5), dtype::f32)})[0]
              .dims() == shape{1, 1, 3, 3});
    // H = 6, pads (1, 0): ceil(5 / 2) + 1 = 4 windows, the 4th starts at 5, inside the input.
    CHECK(op::pooling()
              .kernel(2, 2)
              .stride(2, 2)
              .padding(1, 0, 1, 0)
              .rounding_mode(output_rounding::ceil)
              .infer({tensor_desc(shape::nchw(1, 1, 6, 6), dtype::f32)})[0]
              .dims() == shape{1, 1, 4, 4});
}

TEST_CASE("pooling: SAME and VALID padding (zDNN)") {
    const tensor x = random_tensor(shape::nchw(2, 3, 5, 6), 7);
    const tensor same = run1(
        op::pooling(pooling_kind::max).kernel(3, 3).stride(2, 2).padding(padding_kind::same), {x});
    CHECK(same.dims() == shape{2, 3, 3, 3});
    // H: total pad (3-1)*2 + 3 - 5 = 2 -> (1, 1); W: (3-1)*2 + 3 - 6 = 1 -> (0, 1).
    check_close(
        values(same),
        values(run1(op::pooling(pooling_kind::max).kernel(3, 3).stride(2, 2).padding(1, 1, 0, 1),
                    {x})));
    const tensor avg_same = run1(op::pooling(pooling_kind::average_exclude_padding)
                                     .kernel(3, 3)
                                     .stride(2, 2)
                                     .padding(padding_kind::same),
                                 {x});
    check_close(values(avg_same), values(run1(op::pooling(pooling_kind::average_exclude_padding)
                                                  .kernel(3, 3)
                                                  .stride(2, 2)
                                                  .padding(1, 1, 0, 1),
                                              {x})));
    const tensor valid = run1(
        op::pooling(pooling_kind::max).kernel(3, 3).stride(2, 2).padding(padding_kind::valid), {x});
    CHECK(valid.dims() == shape{2, 3, 2, 2});
    check_close(values(valid),
                values(run1(op::pooling(pooling_kind::max).kernel(3, 3).stride(2, 2), {x})));
}

TEST_CASE("pooling: global modes equal reduce over H*W and mean_reduce2d") {
    const tensor x = random_tensor(shape::nchw(2, 3, 4, 5), 9);
    const tensor flat = x.reshape(shape{2, 3, 20});
    const tensor gmax = run1(op::pooling(pooling_kind::global_max), {x});
    const tensor gavg = run1(op::pooling(pooling_kind::global_average), {x});
    CHECK(gmax.dims() == shape{2, 3, 1, 1});
    check_close(values(gmax), values(run1(op::reduce(reduce_kind::max), {flat})));
    check_close(values(gavg), values(run1(op::reduce(reduce_kind::mean), {flat})));
    check_close(values(gavg), values(run1(op::mean_reduce2d(), {x})));
}

TEST_CASE("pooling: integer average rounds the stored values, max keeps them") {
    const quantization q{0.5f, 3, 0};
    const tensor x = make_raw(shape::nchw(1, 1, 2, 2), {1, 2, 4, 4}, dtype::u8, q);
    const tensor avg = run1(op::pooling(pooling_kind::global_average), {x});
    CHECK(avg.type() == dtype::u8);
    CHECK(raw_values(avg)[0] == 3);  // 11 / 4 = 2.75 -> 3
    op::pooling to_zero(pooling_kind::global_average);
    to_zero.set_rounding(rounding_policy::to_zero);
    CHECK(raw_values(run1(to_zero, {x}))[0] == 2);
    CHECK(raw_values(run1(op::pooling(pooling_kind::global_max), {x}))[0] == 4);
    // Ties round to even: (1 + 2 + 2 + 4) / 4 = 2.25 -> 2; (1+2)/2 = 1.5 -> 2; (3+2)/2 = 2.5 -> 2.
    const tensor y = make_raw(shape::nchw(1, 1, 1, 4), {1, 2, 3, 2}, dtype::i16, {1.0f, 0, 8});
    check_close(
        raw_values(run1(
            op::pooling(pooling_kind::average_exclude_padding).kernel(1, 2).stride(1, 2), {y})),
        {2, 2});
}
