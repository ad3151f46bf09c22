// ops_by_index.cpp: ONNX ops that read or write elements named by index tensors. GatherElements
// and ReverseSequence map onto op::gather_elements. ScatterElements, GatherND, ScatterND,
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss are lowered at load onto compare, where
// and reductions: an index tensor is compared with a ramp along the indexed axis (or the
// flattened indexed dims), the matching elements kept and the axis reduced away. Only the
// element an index names contributes, so indices of any integer dtype work, and an index outside
// the axis (ignore_index of the losses) selects nothing instead of reading or writing out of
// bounds.
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

void map_gather_elements(context& ctx) {
    const auto data = ctx.tensor_input(0);
    const int axis = normalize_axis(ctx.attr_int("axis", 0), ctx.desc_of(data).rank(), "axis");
    ctx.emit(op::gather_elements(axis), {data, integer_index(ctx, 1, "indices")},
             ctx.output_name(0));
}

/// Writes `updates` into `data` where `mask` holds, the written-over index running along
/// `over` of mask and updates (reduced away; data has the other dims): reduction none replaces,
/// add and mul combine with data.
graph::tensor_id emit_scatter(context& ctx, graph::tensor_id data, graph::tensor_id mask,
                              graph::tensor_id updates, int over, const std::string& out) {
    const std::string reduction = ctx.attr_string("reduction", "none");
    const dtype type = ctx.desc_of(data).type();
    const auto zero = scalar_constant(ctx, type, 0.0, "zero");
    const auto reduced = [&](reduce_kind kind, graph::tensor_id t) {
        op::reduce r(kind);
        r.along(over).keep(false);
        return ctx.emit(r, {t});
    };
    const auto target_dims = ctx.desc_of(data).dims();
    const auto fit = [&](graph::tensor_id t) { return ctx.reshape(t, target_dims); };
    op::binary combine(reduction == "mul" ? binary_kind::mul : binary_kind::add);
    if (is_integer(type))
        combine.set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    if (reduction == "add") {
        const auto sum =
            fit(reduced(reduce_kind::sum, ctx.emit(op::where{}, {mask, updates, zero})));
        return ctx.emit(combine, {data, sum}, out);
    } else if (reduction == "mul") {
        const auto one = scalar_constant(ctx, type, 1.0, "one");
        const auto prod =
            fit(reduced(reduce_kind::prod, ctx.emit(op::where{}, {mask, updates, one})));
        return ctx.emit(combine, {data, prod}, out);
    } else if (reduction == "none") {
        // Duplicate indices are undefined in ONNX for reduction none; here they add up.
        const auto one = scalar_constant(ctx, type, 1.0, "one");
        // written: 1 where some index lands (mask dims reduced; broadcasts against data).
        const auto written = reduced(reduce_kind::max, ctx.emit(op::where{}, {mask, one, zero}));
        const auto hit = ctx.emit(op::compare(compare_kind::greater), {written, zero});
        const auto sum =
            fit(reduced(reduce_kind::sum, ctx.emit(op::where{}, {mask, updates, zero})));
        return ctx.emit(op::where{}, {hit, sum, data}, out);
    }
    ctx.unsupported("reduction '" + reduction + "'");
}

/// ScatterElements (and Scatter, opsets 9 and 10): updates written at data[.., index, ..] along
/// `axis`. The index dims must equal data's on the other axes.
void map_scatter_elements(context& ctx) {
    const auto data = ctx.tensor_input(0);
    const shape dd = ctx.desc_of(data).dims();
    if (dd.rank() + 1 > TSR_MAX_DIMS) ctx.unsupported("rank " + std::to_string(dd.rank()));
    const int axis = normalize_axis(ctx.attr_int("axis", 0), dd.rank(), "axis");
    const auto index = wrap_negative(ctx, integer_index(ctx, 1, "indices"), dd[axis]);
    const auto updates = ctx.tensor_input(2);
    const shape id = ctx.desc_of(index).dims();
    if (ctx.desc_of(updates).dims() != id) ctx.unsupported("updates and indices differ in dims");
    if (ctx.desc_of(updates).type() != ctx.desc_of(data).type())
        ctx.unsupported("updates and data differ in dtype");
    if (id.rank() != dd.rank()) ctx.unsupported("data and indices differ in rank");
    for (int k = 0; k < dd.rank(); ++k)
        if (k != axis && id[k] != dd[k])
            ctx.unsupported("indices dim " + std::to_string(k) +
                            " differs from data's (only whole dims off the axis are supported)");
    // mask [.., m, E, ..]: index m writes position E; reduce over m (dim axis).
    const auto mask =
        one_hot_mask(ctx, ctx.reshape(index, with_unit_dim(id, axis + 1)), axis, dd[axis]);
    emit_scatter(ctx, data, mask, ctx.reshape(updates, with_unit_dim(id, axis + 1)), axis,
                 ctx.output_name(0));
}

/// The index tuples of GatherND / ScatterND (last dim k) as row-major positions among data dims
/// first .. first + k - 1, negative entries wrapped: [rows] where rows = all but the last dim.
graph::tensor_id linear_positions(context& ctx, graph::tensor_id index, const shape& data,
                                  int first) {
    const shape id = ctx.desc_of(index).dims();
    const dtype t = ctx.desc_of(index).type();
    const std::int64_t k = id[id.rank() - 1];
    if (k < 1 || first + k > data.rank())
        ctx.unsupported("index tuples of length " + std::to_string(k) + " do not fit data");
    const std::int64_t rows = id.num_elements() / k;
    host_tensor extents = make_host(onnx_type(t), {1, k}),
                strides = make_host(onnx_type(t), {1, k});
    std::int64_t stride = 1;
    for (std::int64_t j = k; j-- > 0;) {
        const std::int64_t extent = data[first + static_cast<int>(j)];
        set_real(extents, j, static_cast<double>(extent));
        set_real(strides, j, static_cast<double>(stride));
        stride *= extent;
    }
    const auto tuples = ctx.reshape(index, shape{rows, k});
    op::binary add(binary_kind::add), mul(binary_kind::mul);
    add.set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    mul.set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    const auto zero = scalar_constant(ctx, t, 0.0, "zero");
    const auto negative = ctx.emit(op::compare(compare_kind::less), {tuples, zero});
    const auto extents_id = ctx.constant_tensor(extents, ctx.node_label + "/extents");
    const auto wrapped =
        ctx.emit(op::where{}, {negative, ctx.emit(add, {tuples, extents_id}), tuples});
    // An entry outside its dim must not alias another position: push it past every position.
    const auto outside =
        ctx.emit(op::logical(logical_kind::or_),
                 {ctx.emit(op::compare(compare_kind::less), {wrapped, zero}),
                  ctx.emit(op::compare(compare_kind::greater_equal), {wrapped, extents_id})});
    const auto scaled =
        ctx.emit(mul, {wrapped, ctx.constant_tensor(strides, ctx.node_label + "/strides")});
    op::reduce sum(reduce_kind::sum);
    sum.along(1).keep(false);
    const auto position = ctx.emit(sum, {scaled});
    op::reduce any(reduce_kind::max);
    any.along(1).keep(false);
    const auto one = scalar_constant(ctx, t, 1.0, "one");
    const auto bad = ctx.emit(any, {ctx.emit(op::where{}, {outside, one, zero})});
    const auto is_bad = ctx.emit(op::compare(compare_kind::greater), {bad, zero});
    return ctx.emit(op::where{}, {is_bad, scalar_constant(ctx, t, -1.0, "nowhere"), position});
}

/// GatherND: out[b.., q..] = data[b.., index[b.., q..]] with batch_dims b.
void map_gather_nd(context& ctx) {
    const auto data = ctx.tensor_input(0);
    const shape dd = ctx.desc_of(data).dims();
    const auto index = integer_index(ctx, 1, "indices");
    const shape id = ctx.desc_of(index).dims();
    const auto b = ctx.attr_int("batch_dims", 0);
    if (b < 0 || b >= id.rank() || b >= dd.rank())
        ctx.unsupported("batch_dims " + std::to_string(b));
    const int batch = static_cast<int>(b);
    std::int64_t batch_count = 1;
    for (int i = 0; i < batch; ++i) {
        if (id[i] != dd[i]) ctx.unsupported("batch dims of data and indices differ");
        batch_count *= dd[i];
    }
    const std::int64_t k = id[id.rank() - 1];
    const auto positions = linear_positions(ctx, index, dd, batch);
    std::int64_t count = 1, rest = 1;
    for (int i = batch; i < batch + k; ++i) count *= dd[i];
    std::vector<std::int64_t> rest_dims;
    for (int i = batch + static_cast<int>(k); i < dd.rank(); ++i) {
        rest *= dd[i];
        rest_dims.push_back(dd[i]);
    }
    const std::int64_t rows = ctx.desc_of(positions).dims()[0] / batch_count;
    // mask [B, Q, P, 1]: row q of batch b reads position p; data seen as [B, 1, P, R].
    const auto pos = ctx.reshape(positions, shape{batch_count, rows, 1, 1});
    host_tensor ramp = make_host(onnx_type(ctx.desc_of(pos).type()), {1, 1, count, 1});
    for (std::int64_t p = 0; p < count; ++p) set_real(ramp, p, static_cast<double>(p));
    const auto mask = ctx.emit(op::compare(compare_kind::equal),
                               {pos, ctx.constant_tensor(ramp, ctx.node_label + "/ramp")});
    const auto data4 = ctx.reshape(data, shape{batch_count, 1, count, rest});
    const dtype type = ctx.desc_of(data).type();
    const auto picked =
        ctx.emit(op::where{}, {mask, data4, scalar_constant(ctx, type, 0.0, "zero")});
    op::reduce sum(reduce_kind::sum);
    sum.along(2).keep(false);
    std::vector<std::int64_t> out_dims(id.begin(), id.end() - 1);
    out_dims.insert(out_dims.end(), rest_dims.begin(), rest_dims.end());
    if (static_cast<int>(out_dims.size()) > TSR_MAX_DIMS) ctx.unsupported("output rank too large");
    ctx.reshape(ctx.emit(sum, {picked}), shape(out_dims.begin(), out_dims.end()),
                ctx.output_name(0));
}

/// ScatterND: data with updates[q..] written at data[index[q..]] (reduction none, add, mul).
void map_scatter_nd(context& ctx) {
    const auto data = ctx.tensor_input(0);
    const shape dd = ctx.desc_of(data).dims();
    const auto index = integer_index(ctx, 1, "indices");
    const shape id = ctx.desc_of(index).dims();
    const auto updates = ctx.tensor_input(2);
    if (ctx.desc_of(updates).type() != ctx.desc_of(data).type())
        ctx.unsupported("updates and data differ in dtype");
    const std::int64_t k = id[id.rank() - 1];
    const auto positions = linear_positions(ctx, index, dd, 0);
    std::int64_t count = 1, rest = 1;
    for (int i = 0; i < k; ++i) count *= dd[i];
    for (int i = static_cast<int>(k); i < dd.rank(); ++i) rest *= dd[i];
    const std::int64_t rows = ctx.desc_of(positions).dims()[0];
    if (ctx.desc_of(updates).dims().num_elements() != rows * rest)
        ctx.unsupported("updates do not hold one data slice per index tuple");
    // mask [Q, P, 1]: tuple q writes position p; updates seen as [Q, 1, R], data as [P, R].
    const auto pos = ctx.reshape(positions, shape{rows, 1, 1});
    host_tensor ramp = make_host(onnx_type(ctx.desc_of(pos).type()), {1, count, 1});
    for (std::int64_t p = 0; p < count; ++p) set_real(ramp, p, static_cast<double>(p));
    const auto mask = ctx.emit(op::compare(compare_kind::equal),
                               {pos, ctx.constant_tensor(ramp, ctx.node_label + "/ramp")});
    const auto scattered = emit_scatter(ctx, ctx.reshape(data, shape{count, rest}), mask,
                                        ctx.reshape(updates, shape{rows, 1, rest}), 0, "");
    ctx.reshape(scattered, dd, ctx.output_name(0));
}

/// ReverseSequence: along time_axis, the first sequence_lens[b] elements of batch b reversed, the
/// rest kept; the lengths must be constants (the index map is built at load).
void map_reverse_sequence(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const shape d = ctx.desc_of(x).dims();
    if (d.rank() < 2) ctx.unsupported("input rank below 2");
    const int time = normalize_axis(ctx.attr_int("time_axis", 0), d.rank(), "time_axis");
    const int batch = normalize_axis(ctx.attr_int("batch_axis", 1), d.rank(), "batch_axis");
    if (time == batch || time > 1 || batch > 1)
        ctx.unsupported("time_axis and batch_axis must be 0 and 1 in some order");
    const auto lengths = integers(ctx.constant_input(1, "sequence_lens"));
    if (static_cast<std::int64_t>(lengths.size()) != d[batch])
        ctx.unsupported("sequence_lens does not hold one length per batch");
    std::vector<std::int64_t> dims(d.begin(), d.end());
    host_tensor index = make_host(element_type::int32, dims);
    const std::int64_t inner = d.num_elements() / (d[0] * d[1]);
    for (std::int64_t i = 0; i < d.num_elements(); ++i) {
        const std::int64_t outer = i / inner;
        const std::int64_t a0 = outer / d[1], a1 = outer % d[1];
        const std::int64_t t = time == 0 ? a0 : a1, b = time == 0 ? a1 : a0;
        const std::int64_t len = lengths[static_cast<std::size_t>(b)];
        if (len < 0 || len > d[time])
            ctx.unsupported("sequence length " + std::to_string(len) + " is out of range");
        set_integer(index, i, t < len ? len - 1 - t : t);
    }
    ctx.emit(op::gather_elements(time),
             {x, ctx.constant_tensor(index, ctx.node_label + "/indices")}, ctx.output_name(0));
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

void register_by_index(mapper_table& t) {
    t["GatherElements"] = map_gather_elements;
    t["ScatterElements"] = map_scatter_elements;
    t["Scatter"] = map_scatter_elements;
    t["GatherND"] = map_gather_nd;
    t["ScatterND"] = map_scatter_nd;
    t["ReverseSequence"] = map_reverse_sequence;
    t["NegativeLogLikelihoodLoss"] = map_nll_loss;
    t["SoftmaxCrossEntropyLoss"] = map_softmax_cross_entropy;
}

}  // namespace tessera::onnx::detail
