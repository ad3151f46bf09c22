// ops_loss.cpp: ONNX GatherElements, NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss,
// lowered at load onto compare, where and reduce_sum: an index tensor is compared with a ramp
// along the gathered axis, the matching elements kept and the axis summed away. Only the element
// an index names contributes, so indices of any integer dtype work, and an index outside the axis
// (ignore_index of the losses) selects nothing instead of reading out of bounds.
#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// Scalar graph constant of `type` holding v.
graph::tensor_id scalar_constant(context& ctx, dtype type, double v, const std::string& hint) {
    host_tensor t = make_host(onnx_type(type), {});
    set_real(t, 0, v);
    return ctx.constant_tensor(t, ctx.node_label + "/" + hint);
}

/// Bool mask [.., m, E, ..] (the new dim E at axis + 1) of index[.., m, ..] == e, the index
/// dims `index` already holding a 1 at axis + 1.
graph::tensor_id one_hot_mask(context& ctx, graph::tensor_id index, int axis, std::int64_t extent) {
    const tensor_desc d = ctx.desc_of(index);
    std::vector<std::int64_t> dims(static_cast<std::size_t>(d.rank()), 1);
    dims[static_cast<std::size_t>(axis + 1)] = extent;
    host_tensor ramp = make_host(onnx_type(d.type()), dims);
    for (std::int64_t e = 0; e < extent; ++e) set_real(ramp, e, static_cast<double>(e));
    return ctx.emit(op::compare(compare_kind::equal),
                    {index, ctx.constant_tensor(ramp, ctx.node_label + "/ramp")});
}

/// Dims with a 1 inserted at position `at`.
shape with_unit_dim(const shape& s, int at) {
    std::vector<std::int64_t> dims(s.begin(), s.end());
    dims.insert(dims.begin() + at, 1);
    return shape(dims.begin(), dims.end());
}

/// Indices wrapped: negative ones count from `extent` (GatherElements).
graph::tensor_id wrap_negative(context& ctx, graph::tensor_id index, std::int64_t extent) {
    const dtype t = ctx.desc_of(index).type();
    const auto negative =
        ctx.emit(op::compare(compare_kind::less), {index, scalar_constant(ctx, t, 0.0, "zero")});
    op::binary add(binary_kind::add);
    add.set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    const auto shifted =
        ctx.emit(add, {index, scalar_constant(ctx, t, static_cast<double>(extent), "extent")});
    return ctx.emit(op::where{}, {negative, shifted, index});
}

graph::tensor_id integer_index(context& ctx, std::size_t input, const std::string& what) {
    const auto index = ctx.tensor_input(input);
    const dtype t = ctx.desc_of(index).type();
    if (!is_integer(t) || t == dtype::boolean)
        ctx.unsupported(what + " of dtype " + std::string(to_string(t)) + " (integers only)");
    return index;
}

/// out[.., i, ..] = data[.., index[.., i, ..], ..] along `axis` (index dims no larger than
/// data's elsewhere); an index outside [0, extent) gives 0.
graph::tensor_id gather_along(context& ctx, graph::tensor_id data, graph::tensor_id index, int axis,
                              const std::string& out) {
    const shape dd = ctx.desc_of(data).dims(), id = ctx.desc_of(index).dims();
    if (dd.rank() != id.rank()) ctx.unsupported("data and indices differ in rank");
    if (dd.rank() + 1 > TSR_MAX_DIMS) ctx.unsupported("rank " + std::to_string(dd.rank()));
    op::slice crop;
    bool cropped = false;
    for (int k = 0; k < dd.rank(); ++k) {
        if (k == axis) continue;
        if (id[k] > dd[k]) ctx.unsupported("indices dim " + std::to_string(k) + " exceeds data's");
        if (id[k] < dd[k]) {
            crop.set_dim(k, 0, id[k]);
            cropped = true;
        }
    }
    if (cropped) data = ctx.emit(crop, {data});
    const auto data_wide = ctx.reshape(data, with_unit_dim(ctx.desc_of(data).dims(), axis));
    const auto index_wide = ctx.reshape(index, with_unit_dim(id, axis + 1));
    const auto mask = one_hot_mask(ctx, index_wide, axis, dd[axis]);
    const dtype type = ctx.desc_of(data).type();
    const auto picked =
        ctx.emit(op::where{}, {mask, data_wide, scalar_constant(ctx, type, 0.0, "zero")});
    op::reduce sum(reduce_kind::sum);
    sum.along(axis + 1).keep(false);
    return ctx.emit(sum, {picked}, out);
}

void map_gather_elements(context& ctx) {
    const auto data = ctx.tensor_input(0);
    const int rank = ctx.desc_of(data).rank();
    const int axis = normalize_axis(ctx.attr_int("axis", 0), rank, "axis");
    const auto index =
        wrap_negative(ctx, integer_index(ctx, 1, "indices"), ctx.desc_of(data).dims()[axis]);
    gather_along(ctx, data, index, axis, ctx.output_name(0));
}

/// The loss of NegativeLogLikelihoodLoss on log-probabilities `input` [N, C, d..]: per element
/// -input[n, target, d..] * weight[target], 0 where target == ignore_index, then reduced.
void emit_nll(context& ctx, graph::tensor_id input, std::size_t target_at, std::size_t weight_at,
              const std::string& out) {
    const tensor_desc in = ctx.desc_of(input);
    if (in.rank() < 2) ctx.unsupported("input rank " + std::to_string(in.rank()) + " is below 2");
    if (!is_floating(in.type())) ctx.unsupported("input is not floating");
    const auto target = integer_index(ctx, target_at, "target");
    const shape td = ctx.desc_of(target).dims();
    const shape in_dims = in.dims();
    std::vector<std::int64_t> expected(in_dims.begin(), in_dims.end());
    expected.erase(expected.begin() + 1);
    if (td != shape(expected.begin(), expected.end()))
        ctx.unsupported("target dims are not input's without C");
    const std::string reduction = ctx.attr_string("reduction", "mean");
    if (reduction != "none" && reduction != "sum" && reduction != "mean")
        ctx.unsupported("reduction '" + reduction + "'");
    const std::int64_t classes = in.dims()[1];
    // Compare the target, with a unit C dim, against the class ramp.
    const auto target_wide = ctx.reshape(target, with_unit_dim(td, 1));
    const auto mask = one_hot_mask(ctx, target_wide, 0, classes);
    const auto zero = scalar_constant(ctx, in.type(), 0.0, "zero");
    op::reduce over_classes(reduce_kind::sum);
    over_classes.along(1).keep(false);
    const auto picked = ctx.emit(over_classes, {ctx.emit(op::where{}, {mask, input, zero})});
    graph::tensor_id class_weight;
    if (ctx.has_input(weight_at)) {
        auto w = ctx.tensor_input(weight_at);
        if (ctx.desc_of(w).dims() != shape{classes}) ctx.unsupported("weight is not [C]");
        std::vector<std::int64_t> wd(static_cast<std::size_t>(in.rank()), 1);
        wd[1] = classes;
        class_weight = ctx.reshape(w, shape(wd.begin(), wd.end()));
    } else {
        class_weight = scalar_constant(ctx, in.type(), 1.0, "one");
    }
    // Each element's weight; 0 for a target outside [0, C) or equal to ignore_index.
    auto weight = ctx.emit(over_classes, {ctx.emit(op::where{}, {mask, class_weight, zero})});
    if (ctx.attr("ignore_index")) {
        const auto ignored =
            ctx.emit(op::compare(compare_kind::equal),
                     {target, scalar_constant(ctx, ctx.desc_of(target).type(),
                                              static_cast<double>(ctx.attr_int("ignore_index", 0)),
                                              "ignore_index")});
        weight = ctx.emit(op::where{}, {ignored, zero, weight});
    }
    const auto weighted = ctx.emit(op::binary(binary_kind::mul), {picked, weight});
    if (reduction == "none") {
        ctx.emit(op::unary(unary_kind::neg), {weighted}, out);
        return;
    }
    const auto total = [&](graph::tensor_id t) {
        for (int a = ctx.desc_of(t).rank(); a-- > 0;) {
            op::reduce r(reduce_kind::sum);
            r.along(a).keep(false);
            t = ctx.emit(r, {t});
        }
        return t;
    };
    const auto loss_sum = total(weighted);
    if (reduction == "sum") {
        ctx.emit(op::unary(unary_kind::neg), {loss_sum}, out);
        return;
    }
    const auto mean = ctx.emit(op::binary(binary_kind::div), {loss_sum, total(weight)});
    ctx.emit(op::unary(unary_kind::neg), {mean}, out);
}

void map_nll_loss(context& ctx) {
    emit_nll(ctx, ctx.tensor_input(0), 1, 2, ctx.output_name(0));
}

/// SoftmaxCrossEntropyLoss: log_softmax over C, then the NLL loss; output 1 (optional) is the
/// log-probability tensor.
void map_softmax_cross_entropy(context& ctx) {
    const auto scores = ctx.tensor_input(0);
    if (ctx.desc_of(scores).rank() < 2) ctx.unsupported("scores rank is below 2");
    op::softmax s;
    s.along(1, 1).logarithmic(true);
    const auto log_prob =
        ctx.emit(s, {scores}, ctx.has_output(1) ? ctx.output_name(1) : std::string());
    emit_nll(ctx, log_prob, 1, 2, ctx.output_name(0));
}

}  // namespace

void register_loss(mapper_table& t) {
    t["GatherElements"] = map_gather_elements;
    t["NegativeLogLikelihoodLoss"] = map_nll_loss;
    t["SoftmaxCrossEntropyLoss"] = map_softmax_cross_entropy;
}

}  // namespace tessera::onnx::detail
