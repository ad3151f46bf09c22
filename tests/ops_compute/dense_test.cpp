// dense_test.cpp: gemm, fully_connected, matmul and quantized_matmul reference kernels:
// hand-computed products, transposes against explicit transposition, stacked and broadcast
// matmul against per-stack products, fused comparisons, quantised arithmetic.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "tessera/reference/fully_connected.hpp"
#include "tessera/reference/gemm.hpp"
#include "tessera/reference/matmul.hpp"

using namespace compute_test;

namespace {

values_t transpose2d(const values_t& v, std::int64_t rows, std::int64_t cols) {
    values_t t(v.size());
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            t[static_cast<std::size_t>(c * rows + r)] = v[static_cast<std::size_t>(r * cols + c)];
    return t;
}

/// Plain triple loop written for the tests: [m,n] x [n,p].
values_t naive_matmul(const values_t& a, const values_t& b, std::int64_t m, std::int64_t n,
                      std::int64_t p) {
    values_t c(static_cast<std::size_t>(m * p), 0.0);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < p; ++j)
            for (std::int64_t k = 0; k < n; ++k)
                c[static_cast<std::size_t>(i * p + j)] +=
                    a[static_cast<std::size_t>(i * n + k)] * b[static_cast<std::size_t>(k * p + j)];
    return c;
}

values_t slice(const values_t& v, std::int64_t start, std::int64_t count) {
    return values_t(v.begin() + start, v.begin() + start + count);
}

}  // namespace

TEST_CASE("gemm: hand-computed, alpha/beta, C broadcast over rows") {
    const tensor a = make(shape{2, 3}, {1, 2, 3, 4, 5, 6});
    const tensor b = make(shape{3, 2}, {7, 8, 9, 10, 11, 12});
    check_close(values(run1(op::gemm(), {a, b})), {58, 64, 139, 154});
    const tensor c = make(shape{2, 2}, {1, 2, 3, 4});
    check_close(values(run1(op::gemm().scales(2.0f, -1.0f), {a, b, c})), {115, 126, 275, 304});
    const tensor row = make(shape{2}, {100, 200});
    check_close(values(run1(op::gemm().scales(1.0f, 0.5f), {a, b, row})), {108, 164, 189, 254});
}

TEST_CASE("gemm: transposed operands equal explicitly transposed inputs") {
    const std::int64_t m = 5, k = 7, n = 3;
    const values_t av = random_values(m * k, 1), bv = random_values(k * n, 2),
                   cv = random_values(m * n, 3);
    const values_t expect =
        values(run1(op::gemm().scales(0.5f, 2.0f),
                    {make(shape{m, k}, av), make(shape{k, n}, bv), make(shape{m, n}, cv)}));
    const tensor at = make(shape{k, m}, transpose2d(av, m, k));
    const tensor bt = make(shape{n, k}, transpose2d(bv, k, n));
    check_close(values(run1(op::gemm().scales(0.5f, 2.0f).transpose(true, true),
                            {at, bt, make(shape{m, n}, cv)})),
                expect);
    check_close(values(run1(op::gemm().scales(0.5f, 2.0f).transpose(true, false),
                            {at, make(shape{k, n}, bv), make(shape{m, n}, cv)})),
                expect);
    check_close(values(run1(op::gemm().scales(0.5f, 2.0f).transpose(false, true),
                            {make(shape{m, k}, av), bt, make(shape{m, n}, cv)})),
                expect);
    check_close(values(run1(op::gemm().scales(0.5f, 2.0f),
                            {make(shape{m, k}, av), make(shape{k, n}, bv), make(shape{m, n}, cv)})),
                [&] {
                    values_t e = naive_matmul(av, bv, m, k, n);
                    for (std::size_t i = 0; i < e.size(); ++i) e[i] = 0.5 * e[i] + 2.0 * cv[i];
                    return e;
                }());
}

TEST_CASE("fully_connected: flatten, bias, activation, transposed weights") {
    // src [2, 2, 2] flattened from axis 1 to [2, 4]; weights [3, 4].
    const tensor x = make(shape{2, 2, 2}, {1, 2, 3, 4, -1, -2, -3, -4});
    const tensor w = make(shape{3, 4}, {1, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1});
    const tensor b = make(shape{3}, {0.5, 0, -1});
    const tensor y = run1(op::fully_connected().bias(), {x, w, b});
    CHECK(y.dims() == shape{2, 3});
    check_close(values(y), {1.5, 5, 9, -0.5, -5, -11});
    check_close(values(run1(op::fully_connected().bias().fuse(activation_kind::relu), {x, w, b})),
                {1.5, 5, 9, 0, 0, 0});
    const tensor wt = make(shape{4, 3}, transpose2d(values(w), 3, 4));
    check_close(values(run1(op::fully_connected().bias().transposed_weights(), {x, wt, b})),
                values(y));
    // Flatten from axis 2: [2, 2] rows of 2 inputs each; output [2, 2, O].
    const tensor w2 = make(shape{1, 2}, {1, -1});
    const tensor y2 = run1(op::fully_connected().flatten_from(2), {x, w2});
    CHECK(y2.dims() == shape{2, 2, 1});
    check_close(values(y2), {-1, -1, 1, 1});
    // Image input: [N, C, H, W] -> [N, O] with the whole image flattened.
    const auto d = op::fully_connected().infer(
        {tensor_desc(shape::nchw(4, 3, 2, 2), dtype::f32), tensor_desc(shape{10, 12}, dtype::f32)});
    CHECK(d[0].dims() == shape{4, 10});
}

TEST_CASE("fully_connected: u8 quantised with i32 bias equals requantised float result") {
    const quantization qx{0.5f, 10, 0}, qw{0.25f, 0, 0}, qy{1.0f, 5, 0};
    const tensor x = make_raw(shape{2, 3}, {10, 12, 20, 0, 30, 11}, dtype::u8, qx);
    const tensor w = make_raw(shape{2, 3}, {4, -8, 1, 0, 2, -2}, dtype::i8, qw);
    const tensor b = make_raw(shape{2}, {8, -16}, dtype::i32);  // units of 0.5 * 0.25
    std::vector<tensor> out{tensor(tensor_desc(shape{2, 2}, dtype::u8, layout::row_major(), qy))};
    reference::run(op::fully_connected().bias(), {x, w, b}, out);
    // Real x = {0, 1, 5; -5, 10, 0.5}, w = {1, -2, 0.25; 0, 0.5, -0.5}, b = {1, -2}.
    // y = {0 - 2 + 1.25 + 1, 0.5 - 2.5 - 2; -5 - 20 + 0.125 + 1, 5 - 0.25 - 2} = {0.25, -4;
    // -23.875, 2.75} q = round(y) + 5, saturated to [0, 255]: {5, 1, 0, 8}.
    check_close(raw_values(out[0]), {5, 1, 0, 8});
}

TEST_CASE("matmul: unstacked, stacked and broadcast forms against per-stack products") {
    const std::int64_t s = 3, m = 4, n = 5, p = 2;
    const values_t a3 = random_values(s * m * n, 1), b3 = random_values(s * n * p, 2);
    const values_t a2 = random_values(m * n, 3), b2 = random_values(n * p, 4);
    const values_t c1 = random_values(p, 5), c2 = random_values(s * p, 6);
    const auto expect = [&](bool a_stacked, bool b_stacked, const values_t& c, bool c_stacked) {
        values_t e;
        for (std::int64_t i = 0; i < s; ++i) {
            const values_t ai = a_stacked ? slice(a3, i * m * n, m * n) : a2;
            const values_t bi = b_stacked ? slice(b3, i * n * p, n * p) : b2;
            values_t r = naive_matmul(ai, bi, m, n, p);
            for (std::int64_t k = 0; k < m * p; ++k)
                r[static_cast<std::size_t>(k)] +=
                    c[static_cast<std::size_t>((c_stacked ? i * p : 0) + k % p)];
            e.insert(e.end(), r.begin(), r.end());
        }
        return e;
    };
    // Unstacked.
    values_t un = naive_matmul(a2, b2, m, n, p);
    for (std::int64_t k = 0; k < m * p; ++k)
        un[static_cast<std::size_t>(k)] += c1[static_cast<std::size_t>(k % p)];
    check_close(values(run1(op::matmul(),
                            {make(shape{m, n}, a2), make(shape{n, p}, b2), make(shape{p}, c1)})),
                un);
    // Stacked.
    const tensor y = run1(
        op::matmul(), {make(shape{s, m, n}, a3), make(shape{s, n, p}, b3), make(shape{s, p}, c2)});
    CHECK(y.dims() == shape{s, m, p});
    check_close(values(y), expect(true, true, c2, true));
    // bcast1: 2-D A over stacks of B; bcast23: stacks of A with 2-D B and [p] C.
    check_close(values(run1(op::matmul(), {make(shape{m, n}, a2), make(shape{s, n, p}, b3),
                                           make(shape{s, p}, c2)})),
                expect(false, true, c2, true));
    check_close(values(run1(op::matmul(),
                            {make(shape{s, m, n}, a3), make(shape{n, p}, b2), make(shape{p}, c1)})),
                expect(true, false, c1, false));
    // No C at all.
    check_close(values(run1(op::matmul(), {make(shape{m, n}, a2), make(shape{n, p}, b2)})),
                naive_matmul(a2, b2, m, n, p));
    // Transposes against explicit transposition, stacked.
    values_t a3t, b3t;
    for (std::int64_t i = 0; i < s; ++i) {
        const values_t at = transpose2d(slice(a3, i * m * n, m * n), m, n);
        const values_t bt = transpose2d(slice(b3, i * n * p, n * p), n, p);
        a3t.insert(a3t.end(), at.begin(), at.end());
        b3t.insert(b3t.end(), bt.begin(), bt.end());
    }
    check_close(
        values(run1(op::matmul().transpose(true, true),
                    {make(shape{s, n, m}, a3t), make(shape{s, p, n}, b3t), make(shape{s, p}, c2)})),
        expect(true, true, c2, true));
}

TEST_CASE("matmul: fused comparisons yield 1.0 / 0.0") {
    // Product [[1, 2], [3, 4]] (A = I) against C = [2, 3].
    const tensor a = make(shape{2, 2}, {1, 0, 0, 1});
    const tensor b = make(shape{2, 2}, {1, 2, 3, 4});
    const tensor c = make(shape{2}, {2, 3});
    const auto cmp = [&](matmul_kind o) {
        return values(run1(op::matmul().operation(o), {a, b, c}));
    };
    check_close(cmp(matmul_kind::greater), {0, 0, 1, 1});
    check_close(cmp(matmul_kind::greater_equal), {0, 0, 1, 1});
    check_close(cmp(matmul_kind::equal), {0, 0, 0, 0});
    check_close(cmp(matmul_kind::not_equal), {1, 1, 1, 1});
    check_close(cmp(matmul_kind::lesser_equal), {1, 1, 0, 0});
    check_close(cmp(matmul_kind::lesser), {1, 1, 0, 0});
    const tensor c2 = make(shape{2}, {1, 4});
    check_close(values(run1(op::matmul().operation(matmul_kind::equal), {a, b, c2})), {1, 0, 0, 1});
    check_close(values(run1(op::matmul().operation(matmul_kind::greater_equal), {a, b, c2})),
                {1, 0, 1, 1});
    check_close(values(run1(op::matmul().operation(matmul_kind::lesser), {a, b, c2})),
                {0, 1, 0, 0});
}

TEST_CASE("quantized_matmul: dequantised result equals the float product of dequantised inputs") {
    const std::int64_t m = 3, n = 4, p = 2;
    const quantization qa{0.5f, 3, 0}, qb{0.25f, 0, 0}, qc{0.125f, -2, 0};
    const values_t ra = {1, -4, 7, 0, 3, 3, -8, 12, 5, -1, 0, 2};
    const values_t rb = {2, -1, 4, 0, -3, 5, 1, 1};
    const values_t rc = {6, -10};
    const tensor a = make_raw(shape{m, n}, ra, dtype::i8, qa);
    const tensor b = make_raw(shape{n, p}, rb, dtype::i8, qb);
    const tensor c = make_raw(shape{p}, rc, dtype::i8, qc);
    values_t expect = naive_matmul(values(a), values(b), m, n, p);
    const values_t cv = values(c);
    for (std::int64_t k = 0; k < m * p; ++k)
        expect[static_cast<std::size_t>(k)] += cv[static_cast<std::size_t>(k % p)];
    const tensor y = run1(op::quantized_matmul(), {a, b, c});
    CHECK(y.type() == dtype::f32);
    check_close(values(y), expect, 1e-12);

    // Quantised output: round(y / 0.5 + 1) (zero point added before rounding), clipped.
    const tensor yq =
        run1(op::quantized_matmul().dequantized(false).output_quantization(0.5f, 1), {a, b, c});
    values_t q = expect;
    for (auto& v : q) v = std::min(127.0, std::max(-128.0, std::nearbyint(v / 0.5 + 1)));
    check_close(values(yq), q, 0);
    // Clipping: a small output scale saturates; disable_clipping keeps the unrounded value.
    const tensor ysat =
        run1(op::quantized_matmul().dequantized(false).output_quantization(0.01f, 0), {a, b, c});
    const tensor yraw =
        run1(op::quantized_matmul().dequantized(false).no_clipping().output_quantization(0.01f, 0),
             {a, b, c});
    const values_t sat = values(ysat), unclipped = values(yraw);
    int saturated = 0;
    for (std::size_t i = 0; i < expect.size(); ++i) {
        const double scaled = expect[i] / static_cast<double>(0.01f);
        CHECK(sat[i] == std::min(127.0, std::max(-128.0, std::nearbyint(scaled))));
        saturated += std::fabs(scaled) > 128 ? 1 : 0;
        CHECK(unclipped[i] == doctest::Approx(scaled).epsilon(1e-6));
    }
    CHECK(saturated > 0);

    // Comparisons in the real domain.
    const tensor gt = run1(op::quantized_matmul().operation(matmul_kind::greater), {a, b, c});
    const values_t prod = naive_matmul(values(a), values(b), m, n, p), g = values(gt);
    for (std::int64_t k = 0; k < m * p; ++k) {
        CHECK(
            g[static_cast<std::size_t>(k)] ==
            (prod[static_cast<std::size_t>(k)] > cv[static_cast<std::size_t>(k % p)] ? 1.0 : 0.0));
    }
}

TEST_CASE("quantized_matmul: pre-computed bias reproduces the plain form, on-the-fly A") {
    const std::int64_t s = 2, m = 2, n = 3, p = 2;
    const quantization qa{0.5f, 2, 0}, qb{0.25f, 0, 0}, qc{0.1f, 1, 0};
    const float sy = 0.2f;
    const int zy = -3;
    const tensor a =
        make_raw(shape{s, m, n}, {1, 5, -3, 0, 9, 2, -7, 4, 4, 6, -1, 0}, dtype::i8, qa);
    const tensor b = make_raw(shape{n, p}, {3, -2, 1, 7, -5, 0}, dtype::i8, qb);
    const tensor c = make_raw(shape{p}, {20, -30}, dtype::i8, qc);
    const op::quantized_matmul plain =
        op::quantized_matmul().dequantized(false).output_quantization(sy, zy);
    const values_t expect = values(run1(plain, {a, b, c}));
    // C' = Zy + (Sc/Sy)(qc - Zc) + (Sa*Sb/Sy)*n*Za*Zb (Zb = 0 here).
    values_t pre;
    for (double qc_v : {20.0, -30.0}) pre.push_back(zy + (0.1 / 0.2) * (qc_v - 1));
    op::quantized_matmul with_pre = plain;
    with_pre.precomputed();
    check_close(values(run1(with_pre, {a, b, make(shape{p}, pre)})), expect, 1e-6);

    // Comparison with a pre-computed threshold: sum qa*qb OP Sc/(Sa*Sb)*(qc - Zc) + Za*sum_k qb.
    const tensor gt_plain = run1(op::quantized_matmul().operation(matmul_kind::greater), {a, b, c});
    values_t thr;
    const values_t rb = raw_values(b);
    for (std::int64_t j = 0; j < p; ++j) {
        double colsum = 0;
        for (std::int64_t k = 0; k < n; ++k) colsum += rb[static_cast<std::size_t>(k * p + j)];
        thr.push_back(0.1 / (0.5 * 0.25) * ((j == 0 ? 20.0 : -30.0) - 1) + 2 * colsum);
    }
    check_close(values(run1(op::quantized_matmul().operation(matmul_kind::greater).precomputed(),
                            {a, b, make(shape{p}, thr)})),
                values(gt_plain), 0);

    // On-the-fly: a floating A quantised with a_scale 0.5, zero point 2 equals the i8 A above.
    const tensor af = make(shape{s, m, n}, values(a));
    op::quantized_matmul fly = plain;
    fly.input_quantization(0.5f, 2);
    check_close(values(run1(fly, {af, b, c})), expect, 0);
    // Clip range of the on-the-fly quantisation: [-1, 1] after the zero point.
    fly.clip(-1, 1);
    const values_t clipped = values(run1(fly.dequantized(true), {af, b, c}));
    values_t qa_clip = raw_values(a);
    for (auto& v : qa_clip) v = 0.5 * (std::min(1.0, std::max(-1.0, v)) - 2);
    values_t e2;
    for (std::int64_t i = 0; i < s; ++i) {
        values_t r = naive_matmul(slice(qa_clip, i * m * n, m * n), values(b), m, n, p);
        for (std::int64_t k = 0; k < m * p; ++k)
            r[static_cast<std::size_t>(k)] += 0.1 * ((k % p == 0 ? 20.0 : -30.0) - 1);
        e2.insert(e2.end(), r.begin(), r.end());
    }
    check_close(clipped, e2, 1e-6);
}
