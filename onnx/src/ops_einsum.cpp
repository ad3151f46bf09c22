// ops_einsum.cpp: ONNX Einsum of one or two operands lowered at load onto Tessera's reduce,
// permute, reshape and matmul: a letter repeated within an operand takes the diagonal (where with
// an eye mask, then a sum), letters absent from the output and from the other operand are summed
// away, and the two operands become a batched [batch, M, K] x [batch, K, N] matmul whose result is
// reshaped and permuted into the output's letter order. "..." stands for the leading dims.
#include <algorithm>
#include <cctype>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// An operand while it is lowered: its graph tensor and one letter per dim.
struct labelled {
    graph::tensor_id id = -1;
    std::string letters;
};

std::string trim(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != ' ') out += c;
    return out;
}

/// Replaces "..." with the capital letters standing for `count` leading dims.
std::string expand_ellipsis(const context& ctx, const std::string& term, int rank) {
    const auto at = term.find("...");
    if (at == std::string::npos) return term;
    const int named = static_cast<int>(term.size()) - 3;
    const int count = rank - named;
    if (count < 0 || count > 26) ctx.unsupported("'" + term + "' does not fit its operand's rank");
    std::string dims;
    for (int i = 0; i < count; ++i) dims += static_cast<char>('Z' - count + 1 + i);
    return term.substr(0, at) + dims + term.substr(at + 3);
}

graph::tensor_id sum_over(context& ctx, graph::tensor_id t, int axis) {
    op::reduce r(reduce_kind::sum);
    r.along(axis).keep(false);
    return ctx.emit(r, {t});
}

graph::tensor_id permuted(context& ctx, graph::tensor_id t,
                          const std::vector<std::int64_t>& order) {
    bool identity = true;
    for (std::size_t i = 0; i < order.size(); ++i)
        identity = identity && order[i] == static_cast<std::int64_t>(i);
    if (identity) return t;
    op::permute p;
    p.set_order(order);
    return ctx.emit(p, {t});
}

/// Takes the diagonal of every letter repeated within the operand.
void take_diagonals(context& ctx, labelled& x) {
    for (;;) {
        std::size_t p = std::string::npos, q = std::string::npos;
        for (std::size_t i = 0; i < x.letters.size() && q == std::string::npos; ++i) {
            const auto j = x.letters.find(x.letters[i], i + 1);
            if (j != std::string::npos) p = i, q = j;
        }
        if (q == std::string::npos) return;
        const tensor_desc d = ctx.desc_of(x.id);
        const auto n = d.dims()[static_cast<int>(p)];
        if (d.dims()[static_cast<int>(q)] != n)
            ctx.unsupported("letter '" + std::string(1, x.letters[p]) + "' has two extents");
        std::vector<std::int64_t> mask_dims(static_cast<std::size_t>(d.rank()), 1);
        mask_dims[p] = mask_dims[q] = n;
        host_tensor eye = make_host(element_type::boolean, mask_dims);
        for (std::int64_t i = 0; i < n; ++i) set_integer(eye, i * n + i, 1);
        host_tensor zero = make_host(onnx_type(d.type()), {});
        const auto kept =
            ctx.emit(op::where{}, {ctx.constant_tensor(eye, ctx.node_label + "/eye"), x.id,
                                   ctx.constant_tensor(zero, ctx.node_label + "/zero")});
        x.id = sum_over(ctx, kept, static_cast<int>(q));
        x.letters.erase(q, 1);
    }
}

/// Sums away the letters of x that are in neither `keep_a` nor `keep_b`.
void sum_unused(context& ctx, labelled& x, const std::string& keep_a, const std::string& keep_b) {
    for (std::size_t i = x.letters.size(); i-- > 0;) {
        const char c = x.letters[i];
        if (keep_a.find(c) != std::string::npos || keep_b.find(c) != std::string::npos) continue;
        x.id = sum_over(ctx, x.id, static_cast<int>(i));
        x.letters.erase(i, 1);
    }
}

std::int64_t extent_of(const context& ctx, const labelled& x, char c) {
    return ctx.desc_of(x.id).dims()[static_cast<int>(x.letters.find(c))];
}

/// x permuted to the letters `groups` (concatenated) and reshaped to their group products.
graph::tensor_id grouped(context& ctx, const labelled& x, const std::vector<std::string>& groups) {
    std::vector<std::int64_t> order;
    std::vector<std::int64_t> dims;
    for (const auto& g : groups) {
        std::int64_t size = 1;
        for (char c : g) {
            order.push_back(static_cast<std::int64_t>(x.letters.find(c)));
            size *= extent_of(ctx, x, c);
        }
        dims.push_back(size);
    }
    return ctx.reshape(permuted(ctx, x.id, order), shape(dims.begin(), dims.end()));
}

void map_einsum(context& ctx) {
    const std::string equation = trim(ctx.attr_string("equation", ""));
    const std::size_t n = ctx.input_count();
    if (n < 1 || n > 2) ctx.unsupported(std::to_string(n) + " operands (1 or 2 are supported)");
    const auto arrow = equation.find("->");
    const std::string lhs = equation.substr(0, arrow);
    std::vector<labelled> ops;
    std::size_t from = 0;
    int ellipsis_rank = -1;
    for (std::size_t i = 0; i < n; ++i) {
        const auto comma = lhs.find(',', from);
        if ((comma == std::string::npos) != (i + 1 == n))
            ctx.unsupported("equation '" + equation + "' does not name " + std::to_string(n) +
                            " operands");
        const std::string term =
            lhs.substr(from, comma == std::string::npos ? comma : comma - from);
        from = comma + 1;
        labelled x;
        x.id = ctx.tensor_input(i);
        const int rank = ctx.desc_of(x.id).rank();
        x.letters = expand_ellipsis(ctx, term, rank);
        if (term.find("...") != std::string::npos)
            ellipsis_rank = std::max(ellipsis_rank, rank - static_cast<int>(term.size()) + 3);
        if (static_cast<int>(x.letters.size()) != rank)
            ctx.unsupported("term '" + term + "' does not match its operand's rank");
        for (char c : x.letters)
            if (!std::isalpha(static_cast<unsigned char>(c)))
                ctx.unsupported("equation '" + equation + "' has character '" + c + "'");
        ops.push_back(x);
    }
    std::string out;
    if (arrow != std::string::npos) {
        out = equation.substr(arrow + 2);
        if (out.find("...") != std::string::npos)
            out = expand_ellipsis(ctx, out,
                                  static_cast<int>(out.size()) - 3 + std::max(ellipsis_rank, 0));
    } else {  // implicit output: the ellipsis dims, then letters used once, alphabetically
        std::string all;
        for (const auto& x : ops) all += x.letters;
        std::string once;
        for (char c : all)
            if (std::count(all.begin(), all.end(), c) == 1 &&
                std::islower(static_cast<unsigned char>(c)))
                once += c;
        std::sort(once.begin(), once.end());
        for (char c : all)
            if (std::isupper(static_cast<unsigned char>(c)) && out.find(c) == std::string::npos)
                out += c;
        out += once;
    }
    for (auto& x : ops) take_diagonals(ctx, x);
    for (std::size_t i = 0; i < ops.size(); ++i)
        sum_unused(ctx, ops[i], out, ops.size() == 2 ? ops[1 - i].letters : std::string());
    for (char c : out) {
        bool found = false;
        for (const auto& x : ops) found = found || x.letters.find(c) != std::string::npos;
        if (!found) ctx.unsupported("output letter '" + std::string(1, c) + "' is in no operand");
    }
    labelled result;
    if (ops.size() == 1) {
        result = ops[0];
    } else {
        const labelled &a = ops[0], &b = ops[1];
        std::string batch, m, k, nn;
        for (char c : a.letters) {
            const bool in_b = b.letters.find(c) != std::string::npos;
            const bool in_out = out.find(c) != std::string::npos;
            if (in_b && extent_of(ctx, a, c) != extent_of(ctx, b, c))
                ctx.unsupported("letter '" + std::string(1, c) + "' has two extents");
            (in_b ? (in_out ? batch : k) : m) += c;
        }
        for (char c : b.letters)
            if (a.letters.find(c) == std::string::npos) nn += c;
        const auto a3 = grouped(ctx, a, {batch, m, k});
        const auto b3 = grouped(ctx, b, {batch, k, nn});
        const auto product = ctx.emit(op::matmul(), {a3, b3});
        std::vector<std::int64_t> dims;
        for (char c : batch) dims.push_back(extent_of(ctx, a, c));
        for (char c : m) dims.push_back(extent_of(ctx, a, c));
        for (char c : nn) dims.push_back(extent_of(ctx, b, c));
        result.id = ctx.reshape(product, shape(dims.begin(), dims.end()));
        result.letters = batch + m + nn;
    }
    std::vector<std::int64_t> order;
    for (char c : out) order.push_back(static_cast<std::int64_t>(result.letters.find(c)));
    const auto y = permuted(ctx, result.id, order);
    ctx.reshape(y, ctx.desc_of(y).dims(), ctx.output_name(0));
}

}  // namespace

void register_einsum(mapper_table& t) {
    t["Einsum"] = map_einsum;
}

}  // namespace tessera::onnx::detail
