// ops_indexing.cpp: ONNX ops that select, repeat or reorder elements of computed tensors: Slice
// and Gather (constant data folds in ops_folding.cpp), Split (one slice per output), Expand,
// Tile, CumSum, TopK, Where, and the comparison and logical ops (Equal, Less, LessOrEqual,
// Greater, GreaterOrEqual, And, Or, Xor, Not, and IsNaN and IsInf built from them). Index operands
// (starts, axes, repeats, K, ...) must be constants; int64 indices of Gather become i32
// when constant; ArgMax and TopK indices come out as int64.
#include <algorithm>
#include <cmath>
#include <limits>

#include "context.hpp"

namespace tessera::onnx::detail {

slice_arguments read_slice_arguments(context& ctx) {
    slice_arguments s;
    if (ctx.opset < 10) {
        s.starts = ctx.attr_ints("starts");
        s.ends = ctx.attr_ints("ends");
        s.axes = ctx.attr_ints("axes");
    } else {
        s.starts = integers(ctx.constant_input(1, "starts"));
        s.ends = integers(ctx.constant_input(2, "ends"));
        if (ctx.has_input(3)) s.axes = integers(ctx.constant_input(3, "axes"));
        if (ctx.has_input(4)) s.steps = integers(ctx.constant_input(4, "steps"));
    }
    if (s.axes.empty())
        for (std::size_t i = 0; i < s.starts.size(); ++i)
            s.axes.push_back(static_cast<std::int64_t>(i));
    if (s.steps.empty()) s.steps.assign(s.starts.size(), 1);
    if (s.ends.size() != s.starts.size() || s.axes.size() != s.starts.size() ||
        s.steps.size() != s.starts.size())
        ctx.unsupported("starts, ends, axes and steps differ in length");
    return s;
}

void map_slice_on_graph(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const int r = ctx.desc_of(x).rank();
    const slice_arguments s = read_slice_arguments(ctx);
    op::slice sl;
    std::vector<bool> seen(static_cast<std::size_t>(r), false);
    for (std::size_t k = 0; k < s.starts.size(); ++k) {
        const int a = normalize_axis(s.axes[k], r, "axis");
        if (seen[static_cast<std::size_t>(a)]) ctx.unsupported("axis repeated");
        seen[static_cast<std::size_t>(a)] = true;
        if (s.steps[k] == 0) ctx.unsupported("step 0");
        sl.set_dim(a, s.starts[k], s.ends[k], s.steps[k]);  // dims not named stay whole
    }
    ctx.emit(sl, {x}, ctx.output_name(0));
}

void map_gather_on_graph(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const int r = ctx.desc_of(x).rank();
    const int axis = normalize_axis(ctx.attr_int("axis", 0), r, "axis");
    graph::tensor_id indices;
    if (ctx.input_is_constant(1)) {
        const auto& idx = ctx.constant_input(1, "indices");
        if (!is_integer_type(idx.type)) ctx.unsupported("indices are not integers");
        host_tensor i32 = make_host(element_type::int32, idx.dims);
        const std::int64_t n = ctx.desc_of(x).dim(axis);
        for (std::int64_t i = 0; i < idx.num_elements(); ++i) {
            const std::int64_t v = idx.integer(i);
            if (v < -n || v >= n)
                ctx.unsupported("index " + std::to_string(v) + " is out of range for dim " +
                                std::to_string(axis) + " of extent " + std::to_string(n));
            set_integer(i32, i, v);
        }
        indices = ctx.constant_tensor(i32, ctx.node_label + "/indices");
    } else {
        indices = ctx.tensor_input(1);
    }
    ctx.emit(op::gather(axis), {x, indices}, ctx.output_name(0));
}

namespace {

void map_split(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const shape dims = ctx.desc_of(x).dims();
    const int axis = normalize_axis(ctx.attr_int("axis", 0), dims.rank(), "axis");
    const std::int64_t n = dims[axis];
    const std::size_t outputs = ctx.output_count();
    std::vector<std::int64_t> sizes;
    if (ctx.opset >= 13) {
        if (ctx.has_input(1)) sizes = integers(ctx.constant_input(1, "split"));
    } else {
        sizes = ctx.attr_ints("split");
        // Split-1 also took the lengths as an optional second input.
        if (ctx.opset < 2 && sizes.empty() && ctx.has_input(1))
            sizes = integers(ctx.constant_input(1, "split"));
    }
    if (sizes.empty()) {
        const std::int64_t parts =
            ctx.opset >= 18 ? ctx.attr_int("num_outputs", static_cast<std::int64_t>(outputs))
                            : static_cast<std::int64_t>(outputs);
        if (parts <= 0) ctx.unsupported("no outputs to split into");
        const std::int64_t each = (n + parts - 1) / parts;
        for (std::int64_t p = 0, left = n; p < parts; ++p, left -= each)
            sizes.push_back(std::max<std::int64_t>(0, std::min(each, left)));
    }
    if (sizes.size() != outputs)
        ctx.unsupported(std::to_string(sizes.size()) + " split sizes for " +
                        std::to_string(outputs) + " outputs");
    std::int64_t start = 0;
    for (std::size_t i = 0; i < outputs; ++i) {
        if (sizes[i] < 0) ctx.unsupported("split size " + std::to_string(sizes[i]));
        op::slice sl;
        sl.set_dim(axis, start, start + sizes[i]);
        start += sizes[i];
        if (ctx.has_output(i)) ctx.emit(sl, {x}, ctx.output_name(i));
    }
    if (start != n)
        ctx.unsupported("split sizes add up to " + std::to_string(start) + ", the dim is " +
                        std::to_string(n));
}

void map_expand(context& ctx) {
    const auto target = integers(ctx.constant_input(1, "shape"));
    if (target.size() > static_cast<std::size_t>(TSR_MAX_DIMS))
        ctx.unsupported("rank " + std::to_string(target.size()) + " exceeds Tessera's maximum");
    produce(ctx, op::expand(shape(target.begin(), target.end())), {0}, ctx.output_name(0));
}

/// Tile-1 repeats along one axis (inputs tiles and axis); Tile-6 takes a repeat per dim.
std::vector<std::int64_t> tile_repeats(context& ctx) {
    if (ctx.opset >= 6) return integers(ctx.constant_input(1, "repeats"));
    const auto& tiles = ctx.constant_input(1, "tiles");
    const auto& axis = ctx.constant_input(2, "axis");
    if (tiles.num_elements() != 1 || axis.num_elements() != 1)
        ctx.unsupported("tiles and axis must hold one value each");
    const int rank = ctx.input_desc(0).rank();
    std::vector<std::int64_t> repeats(static_cast<std::size_t>(rank), 1);
    repeats[static_cast<std::size_t>(normalize_axis(axis.integer(0), rank, "axis"))] =
        tiles.integer(0);
    return repeats;
}

void map_tile(context& ctx) {
    const auto repeats = tile_repeats(ctx);
    op::tile t;
    t.set_repeats(repeats);
    produce(ctx, t, {0}, ctx.output_name(0));
}

void map_cumsum(context& ctx) {
    const auto& a = ctx.constant_input(1, "axis");
    if (a.num_elements() != 1) ctx.unsupported("axis must hold one value");
    const int rank = ctx.input_desc(0).rank();
    op::cumsum c(normalize_axis(a.integer(0), rank, "axis"));
    c.set_exclusive(ctx.attr_int("exclusive", 0) != 0).set_reverse(ctx.attr_int("reverse", 0) != 0);
    produce(ctx, c, {0}, ctx.output_name(0));
}

void map_topk(context& ctx) {
    std::int64_t k = 0;
    if (ctx.opset < 10) {
        k = ctx.attr_int("k", 0);
    } else {
        const auto& kt = ctx.constant_input(1, "K");
        if (kt.num_elements() != 1) ctx.unsupported("K must hold one value");
        k = kt.integer(0);
    }
    const auto x = ctx.tensor_input(0);
    op::topk t(k, normalize_axis(ctx.attr_int("axis", -1), ctx.desc_of(x).rank(), "axis"));
    t.set_largest(ctx.attr_int("largest", 1) != 0).set_sorted(ctx.attr_int("sorted", 1) != 0);
    const auto ids =
        ctx.emit_multi(t, {x}, {ctx.has_output(0) ? ctx.output_name(0) : std::string(), ""});
    // Tessera's indices are i32; ONNX's are int64.
    if (ctx.has_output(1))
        ctx.emit(op::reorder(tensor_desc(ctx.desc_of(ids[1]).dims(), dtype::i64)), {ids[1]},
                 ctx.output_name(1));
}

void map_compare(context& ctx, compare_kind kind) {
    if (ctx.input_count() != 2) ctx.unsupported("expects 2 inputs");
    if (map_legacy_broadcast(ctx, op::compare(kind))) return;
    produce(ctx, op::compare(kind), {0, 1}, ctx.output_name(0));
}

void map_logical(context& ctx, logical_kind kind) {
    const op::logical l(kind);
    if (ctx.input_count() != l.arity())
        ctx.unsupported("expects " + std::to_string(l.arity()) + " inputs");
    if (l.arity() == 1) return produce(ctx, l, {0}, ctx.output_name(0));
    if (map_legacy_broadcast(ctx, l)) return;
    produce(ctx, l, {0, 1}, ctx.output_name(0));
}

void map_where(context& ctx) {
    produce(ctx, op::where{}, {0, 1, 2}, ctx.output_name(0));
}

/// IsNaN: not (x == x).
void map_isnan(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const auto same = ctx.emit(op::compare(compare_kind::equal), {x, x});
    ctx.emit(op::logical(logical_kind::not_), {same}, ctx.output_name(0));
}

/// IsInf: x == +inf and/or x == -inf (detect_positive, detect_negative).
void map_isinf(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const tensor_desc d = ctx.desc_of(x);
    if (!is_floating(d.type())) ctx.unsupported("IsInf of a non-floating dtype");
    const bool positive = ctx.attr_int("detect_positive", 1) != 0;
    const bool negative = ctx.attr_int("detect_negative", 1) != 0;
    const auto equal_to = [&](double v, const std::string& out) {
        host_tensor c = make_host(onnx_type(d.type()), {});
        set_real(c, 0, v);
        return ctx.emit(op::compare(compare_kind::equal),
                        {x, ctx.constant_tensor(c, ctx.node_label + "/inf")}, out);
    };
    const double inf = std::numeric_limits<double>::infinity();
    if (positive && negative) {
        const auto p = equal_to(inf, "");
        const auto n = equal_to(-inf, "");
        ctx.emit(op::logical(logical_kind::or_), {p, n}, ctx.output_name(0));
    } else if (positive || negative) {
        equal_to(positive ? inf : -inf, ctx.output_name(0));
    } else {
        equal_to(std::nan(""), ctx.output_name(0));  // neither: x == NaN is always false
    }
}

}  // namespace

void register_indexing(mapper_table& t) {
    t["Split"] = map_split;
    t["Expand"] = map_expand;
    t["Tile"] = map_tile;
    t["CumSum"] = map_cumsum;
    t["TopK"] = map_topk;
    t["Where"] = map_where;
    t["IsNaN"] = map_isnan;
    t["IsInf"] = map_isinf;
    t["Equal"] = [](context& c) { map_compare(c, compare_kind::equal); };
    t["Less"] = [](context& c) { map_compare(c, compare_kind::less); };
    t["LessOrEqual"] = [](context& c) { map_compare(c, compare_kind::less_equal); };
    t["Greater"] = [](context& c) { map_compare(c, compare_kind::greater); };
    t["GreaterOrEqual"] = [](context& c) { map_compare(c, compare_kind::greater_equal); };
    t["And"] = [](context& c) { map_logical(c, logical_kind::and_); };
    t["Or"] = [](context& c) { map_logical(c, logical_kind::or_); };
    t["Xor"] = [](context& c) { map_logical(c, logical_kind::xor_); };
    t["Not"] = [](context& c) { map_logical(c, logical_kind::not_); };
}

}  // namespace tessera::onnx::detail
