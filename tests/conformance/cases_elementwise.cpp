// cases_elementwise.cpp: conformance cases of the element-wise multi-input ops: binary (every
// numpy broadcast form of A and B, scaled forms, the gamma*C accumulation; pow on positive bases)
// and PReLU's slope.
#include "case_support.hpp"

namespace conformance {

namespace {

const binary_kind all_binary_ops[] = {binary_kind::add, binary_kind::sub, binary_kind::mul,
                                      binary_kind::min, binary_kind::max, binary_kind::div};

/// One binary form: the shapes of A, B (and C when gamma != 0) derived from the output shape.
struct binary_form {
    const char* name;
    int min_rank;
    shape (*a)(const shape& out);
    shape (*b)(const shape& out);
    float alpha = 1.0f, beta = 1.0f, gamma = 0.0f;
    shape (*c)(const shape& out) = nullptr;
};

shape same(const shape& s) {
    return s;
}
shape scalar(const shape&) {
    return shape{};
}
shape one(const shape&) {
    return shape{1};
}
shape row(const shape& s) {
    return trailing(s, 1);
}
shape column(const shape& s) {
    return with_dim(s, s.rank() - 1, 1);
}
shape drop_leading(const shape& s) {
    return trailing(s, s.rank() - 1);
}
shape leading_ones(const shape& s) {
    shape r = s;
    for (int i = 0; i < s.rank() - 2; ++i) r = with_dim(r, i, 1);
    return r;
}
shape channel(const shape& s) {  // [1, C, 1, ...]: a per-channel operand of an NCHW tensor
    shape r = s;
    for (int i = 0; i < s.rank(); ++i)
        if (i != 1) r = with_dim(r, i, 1);
    return r;
}
shape outer_left(const shape& s) {
    return with_dim(s, s.rank() - 1, 1);
}
shape outer_right(const shape& s) {
    return with_dim(s, s.rank() - 2, 1);
}
shape all_ones(const shape& s) {
    shape r = s;
    for (int i = 0; i < s.rank(); ++i) r = with_dim(r, i, 1);
    return r;
}

const binary_form binary_forms[] = {
    {"equal shapes", 1, same, same},
    {"B scalar []", 1, same, scalar},
    {"B one element [1]", 1, same, one},
    {"B all-ones [1, 1, ...]", 2, same, all_ones},
    {"B row [W] (rank-lower)", 2, same, row},
    {"B column [..., H, 1]", 2, same, column},
    {"B leading-1 [1, ..., H, W]", 3, same, leading_ones},
    {"B rank-lower dims[1:]", 2, same, drop_leading},
    {"B per-channel [1, C, 1, 1]", 4, same, channel},
    {"A scalar [], B full", 1, scalar, same},
    {"A row [W], B full", 2, row, same},
    {"A rank-lower dims[1:], B full", 2, drop_leading, same},
    {"A column [..., H, 1], B row [..., 1, W] (both broadcast)", 2, outer_left, outer_right},
    {"alpha 0.5, beta 2, B row [W]", 2, same, row, 0.5f, 2.0f},
    {"gamma 0.5, C full", 1, same, same, 1.0f, 1.0f, 0.5f, same},
    {"gamma 0.5, B row [W], C row [W]", 2, same, row, 1.0f, 1.0f, 0.5f, row},
    {"gamma 0.5, C column [..., H, 1]", 2, same, same, 1.0f, 1.0f, 0.5f, column},
};

/// PReLU slope shapes for a src shape; each admitted by op::activation's descriptor.
struct slope_form {
    const char* name;
    int src_rank;
    shape (*slope)(const shape& src);
    bool w_equals_c = false;  ///< a trailing slope that a per-channel reading would take as [C]
};

shape per_channel(const shape& s) {
    return shape{s[1]};
}
shape channel_11(const shape& s) {
    return trailing(channel(s), s.rank() - 1);
}
shape spatial(const shape& s) {
    return trailing(s, 2);
}
shape last_of_ones(const shape& s) {
    return with_dim(all_ones(s), s.rank() - 1, s[s.rank() - 1]);
}
shape one_row(const shape& s) {
    return shape{1, s[s.rank() - 1]};
}

const slope_form slope_forms[] = {
    {"slope [C], src [N, C, H, W]", 4, per_channel},
    {"slope [1], src [N, C, H, W]", 4, one},
    {"slope scalar [], src [N, C, H, W]", 4, scalar},
    {"slope [1, C, 1, 1], src [N, C, H, W]", 4, channel},
    {"slope [C, 1, 1] (rank-lower), src [N, C, H, W]", 4, channel_11},
    {"slope [H, W] (trailing), src [N, C, H, W]", 4, spatial},
    {"slope full [N, C, H, W]", 4, same},
    {"slope [1, 1, 1, W] with W = C (per column, not per channel)", 4, last_of_ones, true},
    {"slope [1, W] with W = C (per column, not per channel)", 4, one_row, true},
    {"slope [C], src [N, C]", 2, per_channel},
    {"slope [1], src [N, C]", 2, one},
    {"slope [1, C], src [N, C]", 2, all_ones},
    {"slope [C], src [N, C, L]", 3, per_channel},
    {"slope [1], src [n]", 1, one},
    {"slope [n], src [n]", 1, same},
};

}  // namespace

case_list binary_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : binary_forms) {
        for (int r = 0; r < repeats; ++r) {
            for (binary_kind o : all_binary_ops) {
                const int rank = std::max(f.min_rank, 2 + d.pick(3));
                const shape out = d.dims(rank);
                op::binary b(o);
                b.set_alpha(f.alpha).set_beta(f.beta).set_gamma(f.gamma);
                std::vector<tensor> in{d.values(f.a(out), -2.0f, 2.0f)};
                // Divisors and operands stay away from 0 so div is well conditioned.
                in.push_back(d.signed_values(f.b(out), 0.5f, 2.0f));
                if (f.c) in.push_back(d.values(f.c(out)));
                cases.push_back(
                    {"binary " + std::string(to_string(o)), f.name, b, std::move(in), 1});
            }
        }
    }
    // pow: positive bases (a negative base with a fractional exponent is NaN).
    for (int r = 0; r < repeats; ++r) {
        const shape out = d.dims(2 + d.pick(3));
        cases.push_back({"binary pow",
                         "equal shapes",
                         op::binary(binary_kind::pow),
                         {d.values(out, 0.25f, 2.0f), d.values(out, -2.0f, 2.0f)},
                         2});
        cases.push_back({"binary pow",
                         "B scalar []",
                         op::binary(binary_kind::pow),
                         {d.values(out, 0.25f, 2.0f), d.values(shape{}, -2.0f, 2.0f)},
                         2});
        cases.push_back({"binary pow",
                         "B row [W]",
                         op::binary(binary_kind::pow),
                         {d.values(out, 0.25f, 2.0f), d.values(trailing(out, 1), -2.0f, 2.0f)},
                         2});
    }
    return cases;
}

case_list prelu_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : slope_forms) {
        for (int r = 0; r < repeats; ++r) {
            shape src = d.dims(f.src_rank);
            if (f.w_equals_c) src = with_dim(src, src.rank() - 1, src[1]);
            cases.push_back({"activation prelu",
                             f.name,
                             op::activation(activation_kind::prelu),
                             {d.values(src, -2.0f, 2.0f), d.values(f.slope(src), -0.5f, 0.5f)},
                             1});
        }
    }
    return cases;
}

case_list data_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const int rank = 1 + d.pick(4);
        const int axis = d.pick(rank);
        const shape base = d.dims(rank);
        std::vector<tensor> pieces;
        for (int k = 0; k < 3; ++k) pieces.push_back(d.values(with_dim(base, axis, d.dim(1, 4))));
        cases.push_back({"concat", "3 pieces, equal dims but the axis", op::concat(axis),
                         std::move(pieces), 1});

        const shape ab = d.dims(rank);
        cases.push_back({"norm",
                         "a and b of one shape (no broadcast admitted)",
                         op::norm(),
                         {d.values(ab), d.values(ab)},
                         1});

        cases.push_back({"table_lookup",
                         "u8 src, lut [256] (no broadcast admitted)",
                         op::table_lookup(),
                         {d.integers(d.dims(rank), dtype::u8, 0, 255),
                          d.integers(shape{256}, dtype::u8, 0, 255)},
                         1});
    }
    return cases;
}

}  // namespace conformance
