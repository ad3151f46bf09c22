// cases_dense.cpp: conformance cases of the matrix products: gemm's C ([M, N] and the [N] row
// broadcast, scaled and transposed), matmul's and quantized_matmul's stack broadcasts and C
// forms (addition and comparisons) and fully_connected's bias and PReLU slope.
#include "case_support.hpp"

namespace conformance {

namespace {

/// M, N, K: mostly small, sometimes past one register tile of a packed GEMM kernel.
std::int64_t gemm_extent(draw& d) {
    return d.pick(3) == 0 ? d.dim(17, 40) : d.dim(2, 9);
}

struct gemm_form {
    const char* name;
    enum { none, full, row } c;
    float alpha, beta;
    bool trans_a, trans_b;
    bool n_is_one = false;
};

const gemm_form gemm_forms[] = {
    {"no C", gemm_form::none, 1.0f, 1.0f, false, false},
    {"C [M, N]", gemm_form::full, 1.0f, 1.0f, false, false},
    {"C [N] (row broadcast)", gemm_form::row, 1.0f, 1.0f, false, false},
    {"C [N], alpha 2, beta 0.5", gemm_form::row, 2.0f, 0.5f, false, false},
    {"C [N], beta 0 (C ignored)", gemm_form::row, 1.0f, 0.0f, false, false},
    {"C [N], trans_a, trans_b", gemm_form::row, 1.0f, 1.0f, true, true},
    {"C [M, N], alpha 2, beta 0.5, trans_b", gemm_form::full, 2.0f, 0.5f, false, true},
    {"C [1] with N = 1", gemm_form::row, 1.0f, 1.0f, false, false, true},
};

}  // namespace

case_list gemm_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : gemm_forms) {
        for (int r = 0; r < repeats; ++r) {
            const std::int64_t m = gemm_extent(d), k = gemm_extent(d);
            const std::int64_t n = f.n_is_one ? 1 : gemm_extent(d);
            op::gemm g;
            g.scales(f.alpha, f.beta).transpose(f.trans_a, f.trans_b);
            std::vector<tensor> in{d.values(f.trans_a ? shape{k, m} : shape{m, k}),
                                   d.values(f.trans_b ? shape{n, k} : shape{k, n})};
            if (f.c == gemm_form::full) in.push_back(d.values(shape{m, n}));
            if (f.c == gemm_form::row) in.push_back(d.values(shape{n}));
            // zaiu: an [M, N] C is added in a second rounded step.
            cases.push_back({"gemm", f.name, g, std::move(in), f.c == gemm_form::full ? 2 : 1});
        }
    }
    return cases;
}

namespace {

struct matmul_form {
    const char* name;
    bool a_stacked, b_stacked;
    enum { none, row, stacked } c;
    matmul_kind op = matmul_kind::addition;
    bool trans_a = false, trans_b = false;
};

const matmul_form matmul_forms[] = {
    {"A [m, n], B [n, p], no C", false, false, matmul_form::none},
    {"A [m, n], B [n, p], C [p]", false, false, matmul_form::row},
    {"A [s, m, n], B [s, n, p], C [s, p]", true, true, matmul_form::stacked},
    {"A [s, m, n], B [s, n, p], C [p] (C broadcast over stacks)", true, true, matmul_form::row},
    {"A [s, m, n], B [n, p] (B broadcast), C [p]", true, false, matmul_form::row},
    {"A [s, m, n], B [n, p] (B broadcast), C [s, p]", true, false, matmul_form::stacked},
    {"A [m, n] (A broadcast), B [s, n, p], C [s, p]", false, true, matmul_form::stacked},
    {"A [m, n] (A broadcast), B [s, n, p], C [p]", false, true, matmul_form::row},
    {"A [m, n] (A broadcast), B [s, n, p], no C", false, true, matmul_form::none},
    {"A [s, m, n], B [n, p] (B broadcast), transposed", true, false, matmul_form::row,
     matmul_kind::addition, true, true},
    {"greater: A [m, n], B [n, p], C [p]", false, false, matmul_form::row, matmul_kind::greater},
    {"less_equal: A [s, m, n], B [n, p], C [s, p]", true, false, matmul_form::stacked,
     matmul_kind::lesser_equal},
    {"greater_equal: A [m, n], B [s, n, p], C [p]", false, true, matmul_form::row,
     matmul_kind::greater_equal},
    {"lesser: A [s, m, n], B [s, n, p], C [s, p]", true, true, matmul_form::stacked,
     matmul_kind::lesser},
    {"equal: A [m, n], B [n, p], C [p]", false, false, matmul_form::row, matmul_kind::equal},
    {"not_equal: A [m, n], B [n, p], C [p]", false, false, matmul_form::row,
     matmul_kind::not_equal},
};

}  // namespace

case_list matmul_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : matmul_forms) {
        for (int r = 0; r < repeats; ++r) {
            const std::int64_t s = d.dim(2, 4), m = d.dim(2, 9), n = d.dim(2, 9), p = d.dim(2, 9);
            const shape a = f.trans_a ? shape{n, m} : shape{m, n};
            const shape b = f.trans_b ? shape{p, n} : shape{n, p};
            auto stacked = [&](const shape& x) { return shape{s, x[0], x[1]}; };
            op::matmul mm;
            mm.operation(f.op).transpose(f.trans_a, f.trans_b);
            std::vector<tensor> in{d.values(f.a_stacked ? stacked(a) : a),
                                   d.values(f.b_stacked ? stacked(b) : b)};
            const shape c = f.c == matmul_form::stacked ? shape{s, p} : shape{p};
            if (f.c != matmul_form::none) {
                // Comparisons: C far from every product (|product| <= n), so rounding cannot
                // flip a result, with a random sign per element so each column matters.
                in.push_back(f.op == matmul_kind::addition ? d.values(c)
                                                           : d.signed_values(c, 16.0f, 20.0f));
            }
            cases.push_back({"matmul", f.name, mm, std::move(in), 1});
        }
    }
    return cases;
}

namespace {

struct quantized_form {
    const char* name;
    bool a_stacked, b_stacked, c_stacked;
    bool float_a = false;
};

const quantized_form quantized_forms[] = {
    {"A [m, n], B [n, p], C [p]", false, false, false},
    {"A [s, m, n], B [s, n, p], C [s, p]", true, true, true},
    {"A [s, m, n], B [s, n, p], C [p] (C broadcast over stacks)", true, true, false},
    {"A [s, m, n], B [n, p] (B broadcast), C [p]", true, false, false},
    {"A [s, m, n], B [n, p] (B broadcast), C [s, p]", true, false, true},
    {"A [m, n] (A broadcast), B [s, n, p], C [s, p]", false, true, true},
    {"on-the-fly f32 A [m, n], B [n, p], C [p]", false, false, false, true},
};

}  // namespace

case_list quantized_matmul_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : quantized_forms) {
        for (int r = 0; r < repeats; ++r) {
            const std::int64_t s = d.dim(2, 4), m = d.dim(2, 9), n = d.dim(2, 9), p = d.dim(2, 9);
            auto maybe_stacked = [&](bool st, shape x) {
                return st ? shape{s, x[0], x[x.rank() - 1]} : x;
            };
            op::quantized_matmul q;
            // Power-of-two scales: every product and sum is exact before the output rounding.
            std::vector<tensor> in;
            if (f.float_a) {
                q.input_quantization(0.5f, 1);
                in.push_back(d.multiples(shape{m, n}, 0.5f, -20, 20));
            } else {
                in.push_back(d.integers(maybe_stacked(f.a_stacked, shape{m, n}), dtype::i8, -20, 20,
                                        {0.5f, 1, 0}));
            }
            in.push_back(d.integers(maybe_stacked(f.b_stacked, shape{n, p}), dtype::i8, -10, 10,
                                    {0.25f, 0, 0}));
            in.push_back(d.integers(f.c_stacked ? shape{s, p} : shape{p}, dtype::i8, -50, 50,
                                    {0.125f, 2, 0}));
            cases.push_back({"quantized_matmul", f.name, q, std::move(in), 3});
        }
    }
    return cases;
}

namespace {

struct fc_form {
    const char* name;
    int src_rank, flatten_axis;
    bool bias, transposed;
    enum { no_act, relu, prelu_channel, prelu_one } act;
};

const fc_form fc_forms[] = {
    {"src [B, I], no bias", 2, 1, false, false, fc_form::no_act},
    {"src [B, I], bias [O]", 2, 1, true, false, fc_form::no_act},
    {"src [B, I], bias [O], weights [I, O]", 2, 1, true, true, fc_form::no_act},
    {"src [N, C, H, W] flattened from 1, bias [O]", 4, 1, true, false, fc_form::no_act},
    {"src [N, S, I] flattened from 2, bias [O]", 3, 2, true, false, fc_form::no_act},
    {"src [B, I], bias [O], relu", 2, 1, true, false, fc_form::relu},
    {"src [B, I], bias [O], prelu slope [O]", 2, 1, true, false, fc_form::prelu_channel},
    {"src [B, I], prelu slope [1]", 2, 1, false, false, fc_form::prelu_one},
};

}  // namespace

case_list fully_connected_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : fc_forms) {
        for (int r = 0; r < repeats; ++r) {
            const shape src = d.dims(f.src_rank, 2, 6);
            std::int64_t inner = 1;
            for (int i = f.flatten_axis; i < src.rank(); ++i) inner *= src[i];
            const std::int64_t o = d.pick(3) == 0 ? d.dim(17, 33) : d.dim(2, 9);
            op::fully_connected fc;
            fc.flatten_from(f.flatten_axis).transposed_weights(f.transposed);
            if (f.bias) fc.bias();
            if (f.act == fc_form::relu) fc.fuse(activation_kind::relu);
            if (f.act == fc_form::prelu_channel || f.act == fc_form::prelu_one)
                fc.fuse(activation_kind::prelu);
            std::vector<tensor> in{d.values(src),
                                   d.values(f.transposed ? shape{inner, o} : shape{o, inner})};
            if (f.bias) in.push_back(d.values(shape{o}));
            if (f.act == fc_form::prelu_channel) in.push_back(d.values(shape{o}, -0.5f, 0.5f));
            if (f.act == fc_form::prelu_one) in.push_back(d.values(shape{1}, -0.5f, 0.5f));
            cases.push_back({"fully_connected", f.name, fc, std::move(in), f.act ? 2 : 1});
        }
    }
    return cases;
}

}  // namespace conformance
