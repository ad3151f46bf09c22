// ops_shape.cpp: ONNX data-movement ops: Reshape, Flatten, Squeeze, Unsqueeze, Identity and
// Dropout (inference) as Tessera reshape, Transpose as permute, Concat, Pad, DepthToSpace, Cast as
// reorder (Resize and Upsample are in ops_resize.cpp). On constant inputs the reshape family only
// changes dims, so int64 shape tensors fold too.
#include <cmath>
#include <numeric>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// Binds the node's output to input 0 with new dims: a constant keeps its bytes, a graph
/// tensor gets a reshape.
void rebind_dims(context& ctx, const std::vector<std::int64_t>& dims) {
    const std::string& out = ctx.output_name(0);
    if (ctx.input_is_constant(0)) {
        host_tensor t = ctx.values.at(ctx.input_name(0)).constant;
        t.dims = dims;
        if (t.num_elements() * static_cast<std::int64_t>(element_size(t.type)) !=
            static_cast<std::int64_t>(t.bytes.size()))
            ctx.unsupported("the new shape changes the element count");
        return ctx.set_constant(out, std::move(t));
    }
    if (dims.size() > static_cast<std::size_t>(TSR_MAX_DIMS))
        ctx.unsupported("rank " + std::to_string(dims.size()) + " exceeds Tessera's maximum");
    ctx.reshape(ctx.tensor_input(0), shape(dims.begin(), dims.end()), out);
}

std::vector<std::int64_t> input_dim_list(const context& ctx, std::size_t i) {
    const auto& v = ctx.values.at(ctx.input_name(i));
    if (v.is_constant) return v.constant.dims;
    const shape s = ctx.input_dims(i);
    std::vector<std::int64_t> d;
    for (int k = 0; k < s.rank(); ++k) d.push_back(s[k]);
    return d;
}

std::int64_t product(const std::vector<std::int64_t>& d, std::size_t from, std::size_t to) {
    std::int64_t p = 1;
    for (std::size_t i = from; i < to; ++i) p *= d[i];
    return p;
}

void map_reshape(context& ctx) {
    const auto in = input_dim_list(ctx, 0);
    std::vector<std::int64_t> target =
        ctx.opset < 5 ? ctx.attr_ints("shape") : integers(ctx.constant_input(1, "shape"));
    const bool allow_zero = ctx.attr_int("allowzero", 0) != 0;
    int infer_at = -1;
    std::int64_t known = 1;
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (target[i] == 0 && !allow_zero) {
            if (i >= in.size()) ctx.unsupported("shape entry 0 copies a dim the input lacks");
            target[i] = in[i];
        }
        if (target[i] == -1) {
            if (infer_at >= 0) ctx.unsupported("shape has two -1 entries");
            infer_at = static_cast<int>(i);
            continue;
        }
        if (target[i] < 0) ctx.unsupported("shape entry " + std::to_string(target[i]));
        known *= target[i];
    }
    const std::int64_t total = product(in, 0, in.size());
    if (infer_at >= 0) {
        if (known == 0 || total % known != 0) ctx.unsupported("shape cannot be inferred");
        target[static_cast<std::size_t>(infer_at)] = total / known;
    } else if (known != total) {
        ctx.unsupported("shape holds " + std::to_string(known) + " elements, the input " +
                        std::to_string(total));
    }
    rebind_dims(ctx, target);
}

void map_flatten(context& ctx) {
    const auto in = input_dim_list(ctx, 0);
    const int r = static_cast<int>(in.size());
    std::int64_t axis = ctx.attr_int("axis", 1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis > r) ctx.unsupported("axis " + std::to_string(axis) + " is out of range");
    const auto a = static_cast<std::size_t>(axis);
    rebind_dims(ctx, {product(in, 0, a), product(in, a, in.size())});
}

std::vector<std::int64_t> axes_of(context& ctx, std::size_t input) {
    if (ctx.opset < 13) return ctx.attr_ints("axes");
    if (!ctx.has_input(input)) return {};
    return integers(ctx.constant_input(input, "axes"));
}

void map_squeeze(context& ctx) {
    const auto in = input_dim_list(ctx, 0);
    const int r = static_cast<int>(in.size());
    std::vector<bool> drop(in.size(), false);
    const auto axes = axes_of(ctx, 1);
    if (axes.empty())
        for (std::size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;
    for (auto a : axes) {
        const auto k = static_cast<std::size_t>(normalize_axis(a, r, "axis"));
        if (in[k] != 1) ctx.unsupported("dim " + std::to_string(k) + " is not 1");
        drop[k] = true;
    }
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (!drop[i]) out.push_back(in[i]);
    rebind_dims(ctx, out);
}

void map_unsqueeze(context& ctx) {
    const auto in = input_dim_list(ctx, 0);
    const auto axes = axes_of(ctx, 1);
    const int r = static_cast<int>(in.size() + axes.size());
    std::vector<bool> inserted(static_cast<std::size_t>(r), false);
    for (auto a : axes) {
        const auto k = static_cast<std::size_t>(normalize_axis(a, r, "axis"));
        if (inserted[k]) ctx.unsupported("axis " + std::to_string(a) + " is repeated");
        inserted[k] = true;
    }
    std::vector<std::int64_t> out;
    std::size_t next = 0;
    for (int i = 0; i < r; ++i)
        out.push_back(inserted[static_cast<std::size_t>(i)] ? 1 : in[next++]);
    rebind_dims(ctx, out);
}

void map_identity(context& ctx) {
    rebind_dims(ctx, input_dim_list(ctx, 0));
}

void map_dropout(context& ctx) {
    // Before opset 7 the model chose the mode: is_test = 0 (the default) is training.
    if (ctx.opset < 7 && ctx.attr_int("is_test", 0) == 0)
        ctx.unsupported("is_test = 0 (training-mode dropout) is not supported");
    const bool training = ctx.has_input(2) && ctx.constant_input(2, "training_mode").real(0) != 0;
    if (training) {
        // Training mode is random unless nothing is dropped.
        const double ratio = ctx.opset < 12     ? ctx.attr_float("ratio", 0.5f)
                             : ctx.has_input(1) ? ctx.constant_input(1, "ratio").real(0)
                                                : 0.5;
        if (ratio != 0.0)
            ctx.unsupported("training_mode = true with ratio " + std::to_string(ratio) +
                            " (random dropout) is not supported");
    }
    map_identity(ctx);
    if (ctx.has_output(1)) {  // nothing dropped: the mask is all true
        host_tensor mask = make_host(element_type::boolean, input_dim_list(ctx, 0));
        for (std::int64_t i = 0; i < mask.num_elements(); ++i) set_integer(mask, i, 1);
        ctx.set_constant(ctx.output_name(1), mask);
    }
}

/// Cast's target type: an enum value, or before opset 6 its name ("FLOAT").
element_type cast_target(const context& ctx) {
    if (ctx.opset >= 6) return static_cast<element_type>(ctx.attr_int("to", 0));
    const std::string name = ctx.attr_string("to", "");
    ::onnx::TensorProto_DataType value{};
    if (!::onnx::TensorProto_DataType_Parse(name, &value))
        ctx.unsupported("attribute to names no data type: '" + name + "'");
    return static_cast<element_type>(value);
}

void map_cast(context& ctx) {
    map_cast_to(ctx, cast_target(ctx));
}

}  // namespace

void map_cast_to(context& ctx, element_type to) {
    const std::string& out = ctx.output_name(0);
    if (ctx.input_is_constant(0)) {
        const auto& in = ctx.values.at(ctx.input_name(0)).constant;
        if (element_size(to) == 0 || to == element_type::complex64 ||
            to == element_type::complex128)
            ctx.unsupported("cast to " + element_type_name(to) + " is not supported");
        host_tensor t = make_host(to, in.dims);
        const auto n = in.num_elements();
        for (std::int64_t i = 0; i < n; ++i) {
            if (is_integer_type(in.type) && is_integer_type(to))
                set_integer(t, i, in.integer(i));
            else
                set_real(t, i, in.real(i));
        }
        return ctx.set_constant(out, t);
    }
    const auto dt = tessera_dtype(to);
    if (!dt)
        ctx.unsupported("cast to " + element_type_name(to) + ": dtype not in Tessera's dtype set");
    const tensor_desc from = ctx.input_desc(0);
    op::reorder r(tensor_desc(from.dims(), *dt));
    // ONNX casts from floating to integer types truncate toward zero.
    r.set_rounding(rounding_policy::to_zero);
    ctx.emit(r, {ctx.tensor_input(0)}, out);
}

namespace {

void map_transpose(context& ctx) {
    const int r = static_cast<int>(input_dim_list(ctx, 0).size());
    auto perm = ctx.attr_ints("perm");
    if (perm.empty())
        for (int i = r - 1; i >= 0; --i) perm.push_back(i);
    if (static_cast<int>(perm.size()) != r) ctx.unsupported("perm does not match the rank");
    op::permute p;
    p.set_order(perm);
    produce(ctx, p, {0}, ctx.output_name(0));
}

void map_concat(context& ctx) {
    const std::size_t n = ctx.input_count();
    if (n == 0) ctx.unsupported("needs at least one input");
    bool all_constant = true;
    for (std::size_t i = 0; i < n; ++i) all_constant &= ctx.input_is_constant(i);
    const auto first = input_dim_list(ctx, 0);
    const int r = static_cast<int>(first.size());
    const int axis = normalize_axis(ctx.attr_int("axis", ctx.opset < 4 ? 1 : 0), r, "axis");
    if (all_constant) {
        // Host concatenation: works for every element type (int64 shapes included).
        std::vector<const host_tensor*> parts;
        std::vector<std::int64_t> dims = first;
        dims[static_cast<std::size_t>(axis)] = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& t = ctx.values.at(ctx.input_name(i)).constant;
            if (t.dims.size() != first.size() ||
                t.type != ctx.values.at(ctx.input_name(0)).constant.type)
                ctx.unsupported("inputs differ in rank or element type");
            for (int k = 0; k < r; ++k)
                if (k != axis &&
                    t.dims[static_cast<std::size_t>(k)] != first[static_cast<std::size_t>(k)])
                    ctx.unsupported("inputs differ in dims other than the axis");
            dims[static_cast<std::size_t>(axis)] += t.dims[static_cast<std::size_t>(axis)];
            parts.push_back(&t);
        }
        host_tensor out = make_host(parts[0]->type, dims);
        const std::size_t size = element_size(out.type);
        const std::int64_t outer = product(first, 0, static_cast<std::size_t>(axis));
        std::size_t pos = 0;
        for (std::int64_t o = 0; o < outer; ++o)
            for (const auto* t : parts) {
                const std::int64_t chunk =
                    product(t->dims, static_cast<std::size_t>(axis), t->dims.size());
                const std::size_t bytes = static_cast<std::size_t>(chunk) * size;
                std::copy_n(
                    t->bytes.begin() + static_cast<long>(static_cast<std::size_t>(o) * bytes),
                    bytes, out.bytes.begin() + static_cast<long>(pos));
                pos += bytes;
            }
        return ctx.set_constant(ctx.output_name(0), out);
    }
    std::vector<graph::tensor_id> ids;
    for (std::size_t i = 0; i < n; ++i) ids.push_back(ctx.tensor_input(i));
    if (n == 1) {
        ctx.reshape(ids[0], ctx.desc_of(ids[0]).dims(), ctx.output_name(0));
        return;
    }
    ctx.emit(op::concat(axis), ids, ctx.output_name(0));
}

void map_pad(context& ctx) {
    const int r = static_cast<int>(input_dim_list(ctx, 0).size());
    std::vector<std::int64_t> pads;
    double value = 0.0;
    if (ctx.opset < 11) {
        pads = ctx.attr_ints(ctx.opset < 2 ? "paddings" : "pads");
        value = ctx.attr_float("value", 0.0f);
    } else {
        pads = integers(ctx.constant_input(1, "pads"));
        if (ctx.has_input(2)) value = ctx.constant_input(2, "constant_value").real(0);
        if (ctx.has_input(3)) ctx.unsupported("the axes input is not supported");
    }
    if (static_cast<int>(pads.size()) != 2 * r) ctx.unsupported("pads must hold 2 * rank values");
    const std::string mode = ctx.attr_string("mode", "constant");
    op::pad p;
    if (mode == "constant")
        p.set_mode(pad_kind::constant);
    else if (mode == "reflect")
        p.set_mode(pad_kind::reflect);
    else if (mode == "edge")
        p.set_mode(pad_kind::edge);
    else
        ctx.unsupported("mode '" + mode + "'");
    for (int i = 0; i < r; ++i) {
        const auto b = pads[static_cast<std::size_t>(i)], a = pads[static_cast<std::size_t>(i + r)];
        if (b < 0 || a < 0) ctx.unsupported("negative pads (cropping) are not supported");
        p.set_dim(i, b, a);
    }
    p.set_value(value);
    produce(ctx, p, {0}, ctx.output_name(0));
}

void map_depth_to_space(context& ctx) {
    const std::string mode = ctx.attr_string("mode", "DCR");
    if (mode != "DCR" && mode != "CRD") ctx.unsupported("mode '" + mode + "'");
    const auto block = ctx.attr_int("blocksize", 0);
    produce(ctx,
            op::depth_to_space(static_cast<int>(block),
                               mode == "DCR" ? depth_to_space_kind::dcr : depth_to_space_kind::crd),
            {0}, ctx.output_name(0));
}

}  // namespace

void register_shape_ops(mapper_table& t) {
    t["Reshape"] = map_reshape;
    t["Flatten"] = map_flatten;
    t["Squeeze"] = map_squeeze;
    t["Unsqueeze"] = map_unsqueeze;
    t["Identity"] = map_identity;
    t["Dropout"] = map_dropout;
    t["Cast"] = map_cast;
    t["Transpose"] = map_transpose;
    t["Concat"] = map_concat;
    t["Pad"] = map_pad;
    t["DepthToSpace"] = map_depth_to_space;
    t["Resize"] = [](context& c) { map_resize(c, false); };
    t["Upsample"] = [](context& c) { map_resize(c, true); };
}

}  // namespace tessera::onnx::detail
