// reduction_softmax_test.cpp: moments, mean_reduce2d, reduce and softmax reference kernels:
// hand-computed values, first-index ties, keep_dims, softmax sums to one, log-softmax equals
// log(softmax), stability with large inputs, zDNN mask, multi-axis (CLML instance/spatial).
#include <doctest/doctest.h>

#include <limits>

#include "helpers.hpp"
#include "tessera/reference/reduction.hpp"
#include "tessera/reference/softmax.hpp"

using namespace compute_test;

TEST_CASE("moments: population and sample variance by hand") {
    const tensor x = make(shape::nchw(2, 1, 2, 2), {1, 2, 3, 4, 2, 2, 2, 10});
    const auto pop = run_ref(op::moments(), {x});
    REQUIRE(pop.size() == 2);
    CHECK(pop[0].dims() == shape{2, 1, 1, 1});
    check_close(values(pop[0]), {2.5, 4});
    check_close(values(pop[1]), {1.25, 12});
    const auto sample = run_ref(op::moments().correction(bessel_correction::sample), {x});
    check_close(values(sample[1]), {5.0 / 3, 16});
    // From axis 2: per (n, c).
    const auto per_row = run_ref(op::moments().from_axis(3), {x});
    CHECK(per_row[0].dims() == shape{2, 1, 2, 1});
    check_close(values(per_row[0]), {1.5, 3.5, 2, 6});
    check_close(values(per_row[1]), {0.25, 0.25, 0, 16});
}

TEST_CASE("mean_reduce2d: mean over H and W by hand") {
    const tensor x = make(shape::nchw(1, 2, 2, 3), {1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1, 5});
    const tensor y = run1(op::mean_reduce2d(), {x});
    CHECK(y.dims() == shape{1, 2, 1, 1});
    check_close(values(y), {3.5, 0});
}

TEST_CASE("reduce: min, max, index forms with first-index ties, sum, mean, product, keep_dims") {
    const tensor x = make(shape{2, 4}, {3, 1, 4, 1, 5, 9, 2, 9});
    const auto red = [&](reduce_kind o) { return run1(op::reduce(o), {x}); };
    CHECK(red(reduce_kind::max).dims() == shape{2, 1});
    check_close(values(red(reduce_kind::min)), {1, 2});
    check_close(values(red(reduce_kind::max)), {4, 9});
    const tensor imin = red(reduce_kind::min_idx), imax = red(reduce_kind::max_idx);
    CHECK(imin.type() == dtype::i32);
    check_close(raw_values(imin), {1, 2});  // first of the tied 1s
    check_close(raw_values(imax), {2, 1});  // first of the tied 9s
    check_close(values(red(reduce_kind::sum)), {9, 25});
    check_close(values(red(reduce_kind::mean)), {2.25, 6.25});
    check_close(values(red(reduce_kind::prod)), {12, 810});
    const tensor cols = run1(op::reduce(reduce_kind::sum).along(0).keep(false), {x});
    CHECK(cols.dims() == shape{4});
    check_close(values(cols), {8, 10, 6, 10});
    // Middle axis of a 3-D tensor.
    const tensor t = make(shape{2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
    check_close(values(run1(op::reduce(reduce_kind::max).along(1), {t})), {3, 4, 7, 8});
    // Integer sums saturate; integer means round.
    const tensor i8 = make_raw(shape{1, 3}, {100, 100, 1}, dtype::i8);
    CHECK(raw_values(run1(op::reduce(reduce_kind::sum), {i8}))[0] == 127);
    CHECK(raw_values(run1(op::reduce(reduce_kind::mean), {i8}))[0] == 67);
}

TEST_CASE("softmax: hand values, sums to one, log-softmax equals log(softmax)") {
    const tensor x = make(shape{1, 3}, {0, std::log(2.0), std::log(5.0)});
    check_close(values(run1(op::softmax(), {x})), {0.125, 0.25, 0.625});
    const tensor r = random_tensor(shape{3, 4, 5}, 5, -4, 4);
    for (int axis : {0, 1, 2, -1}) {
        CAPTURE(axis);
        const values_t s = values(run1(op::softmax().along(axis), {r}));
        const values_t ls = values(run1(op::softmax().along(axis).logarithmic(), {r}));
        values_t logs = s;
        for (auto& v : logs) v = std::log(v);
        check_close(ls, logs, 1e-5);
        // Sum along the axis.
        const int a = axis < 0 ? 2 : axis;
        const std::int64_t dims[3] = {3, 4, 5};
        const std::int64_t inner = a == 2 ? 1 : (a == 1 ? 5 : 20);
        const std::int64_t outer = 60 / (dims[a] * inner);
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t i = 0; i < inner; ++i) {
                double sum = 0;
                for (std::int64_t k = 0; k < dims[a]; ++k)
                    sum += s[static_cast<std::size_t>((o * dims[a] + k) * inner + i)];
                CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
            }
    }
}

TEST_CASE("softmax: numerically stable for large inputs") {
    const tensor x = make(shape{2, 2}, {1000, 1001, -1000, -1000});
    const values_t s = values(run1(op::softmax(), {x}));
    const double e = std::exp(1.0);
    check_close(s, {1 / (1 + e), e / (1 + e), 0.5, 0.5}, 1e-6);
    check_close(values(run1(op::softmax().logarithmic(), {x})),
                {-std::log1p(e), 1 - std::log1p(e), -std::log(2.0), -std::log(2.0)}, 1e-6);
}

TEST_CASE("softmax: ACL beta scales the input") {
    const tensor x = random_tensor(shape{3, 5}, 21, -2, 2);
    values_t doubled = values(x);
    for (auto& v : doubled) v *= 2;
    check_close(values(run1(op::softmax().scaled_by(2.0f), {x})),
                values(run1(op::softmax(), {make(shape{3, 5}, doubled)})), 1e-6);
    // beta 1 (the default) changes nothing; ln-based hand value with beta 0.5: [0, 2 ln 3] -> [1/4,
    // 3/4].
    check_close(
        values(run1(op::softmax().scaled_by(0.5f), {make(shape{1, 2}, {0, 2 * std::log(3.0)})})),
        {0.25, 0.75}, 1e-6);
}

TEST_CASE("softmax: zDNN mask uses the first elements only") {
    const tensor x = make(shape{2, 4}, {0, std::log(3.0), 100, 7, 1, 1, 1, 1});
    const values_t s = values(run1(op::softmax().masked(2), {x}));
    check_close(s, {0.25, 0.75, 0, 0, 0.5, 0.5, 0, 0});
    const values_t ls = values(run1(op::softmax().masked(2).logarithmic(), {x}));
    CHECK(ls[2] == -std::numeric_limits<double>::infinity());
    CHECK(ls[0] == doctest::Approx(std::log(0.25)));
    // mask == length behaves like no mask.
    check_close(values(run1(op::softmax().masked(4), {x})), values(run1(op::softmax(), {x})));
}

TEST_CASE("softmax: CLML channel, spatial and instance modes as axis ranges") {
    const tensor x = random_tensor(shape::nchw(2, 3, 2, 2), 8, -2, 2);
    const values_t xv = values(x);
    // Instance: over C*H*W per image == softmax of the flattened [2, 12] tensor.
    check_close(values(run1(op::softmax().along(1, 3), {x})),
                values(run1(op::softmax(), {x.reshape(shape{2, 12})})));
    // Spatial: over H*W per (n, c) == softmax of [6, 4].
    check_close(values(run1(op::softmax().along(2, 2), {x})),
                values(run1(op::softmax(), {x.reshape(shape{6, 4})})));
    // Channel: over C per pixel; check one pixel by hand.
    const values_t ch = values(run1(op::softmax().along(1), {x}));
    double denom = 0;
    for (int c = 0; c < 3; ++c) denom += std::exp(xv[static_cast<std::size_t>(c * 4 + 1)]);
    for (int c = 0; c < 3; ++c)
        CHECK(ch[static_cast<std::size_t>(c * 4 + 1)] ==
              doctest::Approx(std::exp(xv[static_cast<std::size_t>(c * 4 + 1)]) / denom));
}
