// ops_reduce.cpp: ONNX reductions onto chains of Tessera's single-axis reduce (ReduceMean, Sum,
// Max, Min, Prod on any set of axes; SumSquare, L1, L2, LogSum, LogSumExp with element-wise
// steps around the sum) and ArgMax/ArgMin (first or last index; the indices come out as int64).
#include <algorithm>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

enum class pre { none, square, abs, exp };
enum class post { none, sqrt, log };

std::vector<int> reduce_axes(context& ctx, int rank, bool& noop) {
    std::vector<std::int64_t> axes;
    const bool axes_input = ctx.node->op_type() == "ReduceSum" ? ctx.opset >= 13 : ctx.opset >= 18;
    if (axes_input) {
        if (ctx.has_input(1)) axes = integers(ctx.constant_input(1, "axes"));
    } else {
        axes = ctx.attr_ints("axes");
    }
    noop = axes.empty() && ctx.attr_int("noop_with_empty_axes", 0) != 0;
    std::vector<int> out;
    if (axes.empty()) {
        for (int i = 0; i < rank; ++i) out.push_back(i);
        return out;
    }
    for (auto a : axes) {
        const int k = normalize_axis(a, rank, "axis");
        if (std::find(out.begin(), out.end(), k) != out.end()) ctx.unsupported("axis repeated");
        out.push_back(k);
    }
    std::sort(out.begin(), out.end());
    return out;
}

void map_reduce(context& ctx, reduce_kind kind, pre before, post after) {
    auto x = ctx.tensor_input(0);
    const int rank = ctx.desc_of(x).rank();
    bool noop = false;
    const auto axes = reduce_axes(ctx, rank, noop);
    const bool keep = ctx.attr_int("keepdims", 1) != 0;
    const std::string& out = ctx.output_name(0);
    if (noop || rank == 0) {
        ctx.reshape(x, ctx.desc_of(x).dims(), out);
        return;
    }
    if (before == pre::square) x = ctx.emit(op::activation(activation_kind::square), {x});
    if (before == pre::abs) x = ctx.emit(op::activation(activation_kind::abs), {x});
    if (before == pre::exp) x = ctx.emit(op::unary(unary_kind::exp), {x});
    // Reduce from the last axis to the first so earlier axis numbers stay valid without keepdims.
    for (std::size_t i = axes.size(); i-- > 0;) {
        op::reduce r(kind);
        r.along(axes[i]).keep(keep);
        const bool last = i == 0 && after == post::none;
        x = ctx.emit(r, {x}, last ? out : "");
    }
    if (after == post::sqrt) ctx.emit(op::unary(unary_kind::sqrt), {x}, out);
    if (after == post::log) ctx.emit(op::unary(unary_kind::log), {x}, out);
}

void map_arg(context& ctx, reduce_kind kind) {
    const auto x = ctx.tensor_input(0);
    op::reduce r(kind);
    r.along(normalize_axis(ctx.attr_int("axis", 0), ctx.desc_of(x).rank(), "axis"))
        .keep(ctx.attr_int("keepdims", 1) != 0)
        .set_select_last_index(ctx.attr_int("select_last_index", 0) != 0);
    // Tessera's index outputs are i32; ONNX's are int64.
    const auto index = ctx.emit(r, {x});
    ctx.emit(op::reorder(tensor_desc(ctx.desc_of(index).dims(), dtype::i64)), {index},
             ctx.output_name(0));
}

}  // namespace

void register_reduce(mapper_table& t) {
    t["ReduceMean"] = [](context& c) { map_reduce(c, reduce_kind::mean, pre::none, post::none); };
    t["ReduceSum"] = [](context& c) { map_reduce(c, reduce_kind::sum, pre::none, post::none); };
    t["ReduceMax"] = [](context& c) { map_reduce(c, reduce_kind::max, pre::none, post::none); };
    t["ReduceMin"] = [](context& c) { map_reduce(c, reduce_kind::min, pre::none, post::none); };
    t["ReduceProd"] = [](context& c) { map_reduce(c, reduce_kind::prod, pre::none, post::none); };
    t["ReduceSumSquare"] = [](context& c) {
        map_reduce(c, reduce_kind::sum, pre::square, post::none);
    };
    t["ReduceL1"] = [](context& c) { map_reduce(c, reduce_kind::sum, pre::abs, post::none); };
    t["ReduceL2"] = [](context& c) { map_reduce(c, reduce_kind::sum, pre::square, post::sqrt); };
    t["ReduceLogSum"] = [](context& c) { map_reduce(c, reduce_kind::sum, pre::none, post::log); };
    t["ReduceLogSumExp"] = [](context& c) { map_reduce(c, reduce_kind::sum, pre::exp, post::log); };
    t["ArgMax"] = [](context& c) { map_arg(c, reduce_kind::max_idx); };
    t["ArgMin"] = [](context& c) { map_arg(c, reduce_kind::min_idx); };
}

}  // namespace tessera::onnx::detail
