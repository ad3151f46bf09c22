// ops_nn.cpp: ONNX compute ops onto Tessera's: Conv and ConvTranspose (1-D through a 2-D view,
// 2-D), MaxPool/AveragePool/GlobalMaxPool/GlobalAveragePool, BatchNormalization (inference),
// InstanceNormalization (layer_norm then a per-channel affine), LayerNormalization (its Mean and
// InvStdDev outputs from reduce_mean, square and rsqrt), LRN, Gemm,
// MatMul (2-D, stacked and broadcast forms), Softmax and LogSoftmax; registers MaxUnpool and
// RoiAlign (ops_unpool.cpp, ops_roi_align.cpp).
#include <cmath>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// Spatial attributes of a conv or pool node, resolved for a 2-D window.
struct window {
    int spatial = 2;  ///< 1 for 1-D nodes (mapped with H = 1)
    std::int64_t k[2] = {1, 1}, s[2] = {1, 1}, d[2] = {1, 1};
    std::int64_t pad_begin[2] = {0, 0}, pad_end[2] = {0, 0};
    std::string auto_pad = "NOTSET";
};

window read_window(const context& ctx, int spatial, const std::vector<std::int64_t>& kernel) {
    if (spatial != 1 && spatial != 2)
        ctx.unsupported("only 1-D and 2-D windows are supported (" + std::to_string(spatial) +
                        "-D given)");
    window w;
    w.spatial = spatial;
    const int off = 2 - spatial;  // 1-D: the window lives in W
    auto fill = [&](const std::vector<std::int64_t>& v, std::int64_t* dst, const char* what) {
        if (v.empty()) return;
        if (static_cast<int>(v.size()) != spatial)
            ctx.unsupported(std::string(what) + " has the wrong length");
        for (int i = 0; i < spatial; ++i) dst[i + off] = v[static_cast<std::size_t>(i)];
    };
    fill(kernel, w.k, "kernel_shape");
    fill(ctx.attr_ints("strides"), w.s, "strides");
    fill(ctx.attr_ints("dilations"), w.d, "dilations");
    const auto pads = ctx.attr_ints("pads");
    if (!pads.empty()) {
        if (static_cast<int>(pads.size()) != 2 * spatial)
            ctx.unsupported("pads has the wrong length");
        for (int i = 0; i < spatial; ++i) {
            w.pad_begin[i + off] = pads[static_cast<std::size_t>(i)];
            w.pad_end[i + off] = pads[static_cast<std::size_t>(i + spatial)];
        }
    }
    w.auto_pad = ctx.attr_string("auto_pad", "NOTSET");
    for (int i = 0; i < 2; ++i) {
        if (w.k[i] < 1 || w.s[i] < 1 || w.d[i] < 1 || w.pad_begin[i] < 0 || w.pad_end[i] < 0)
            ctx.unsupported("kernel, strides, dilations must be >= 1 and pads >= 0");
        if (w.k[i] > INT32_MAX || w.s[i] > INT32_MAX || w.d[i] > INT32_MAX ||
            w.pad_begin[i] > INT32_MAX || w.pad_end[i] > INT32_MAX)
            ctx.unsupported("window attributes exceed 32 bits");
    }
    return w;
}

/// Resolves auto_pad into explicit padding for input extents in[2] (direct windows).
void resolve_auto_pad(const context& ctx, window& w, const std::int64_t in[2]) {
    if (w.auto_pad == "NOTSET") return;
    if (w.auto_pad == "VALID") {
        for (int i = 0; i < 2; ++i) w.pad_begin[i] = w.pad_end[i] = 0;
        return;
    }
    if (w.auto_pad != "SAME_UPPER" && w.auto_pad != "SAME_LOWER")
        ctx.unsupported("auto_pad '" + w.auto_pad + "'");
    for (int i = 0; i < 2; ++i) {
        const std::int64_t out = (in[i] + w.s[i] - 1) / w.s[i];
        const std::int64_t k_eff = (w.k[i] - 1) * w.d[i] + 1;
        const std::int64_t total = std::max<std::int64_t>((out - 1) * w.s[i] + k_eff - in[i], 0);
        const std::int64_t small = total / 2, large = total - small;
        w.pad_begin[i] = w.auto_pad == "SAME_UPPER" ? small : large;
        w.pad_end[i] = total - w.pad_begin[i];
    }
}

template <typename Op>
void set_window(Op& op, const window& w) {
    op.padding(static_cast<int>(w.pad_begin[0]), static_cast<int>(w.pad_end[0]),
               static_cast<int>(w.pad_begin[1]), static_cast<int>(w.pad_end[1]))
        .stride(static_cast<int>(w.s[0]), static_cast<int>(w.s[1]));
}

/// A graph tensor of rank 3 ([N, C, L]) seen as [N, C, 1, L]; rank 4 passes through.
graph::tensor_id as_image(context& ctx, graph::tensor_id id) {
    const shape d = ctx.desc_of(id).dims();
    if (d.rank() == 3) return ctx.reshape(id, shape{d[0], d[1], 1, d[2]});
    return id;
}

/// Emits `op` on 2-D views into `out` and reshapes the result back for 1-D nodes.
graph::tensor_id emit_spatial(context& ctx, const op_desc& op, std::vector<graph::tensor_id> ids,
                              int spatial, const std::string& out) {
    if (spatial == 2) return ctx.emit(op, ids, out);
    const auto y = ctx.emit(op, ids);
    const shape d = ctx.desc_of(y).dims();
    return ctx.reshape(y, shape{d[0], d[1], d[3]}, out);
}

void emit_spatial(context& ctx, const op_desc& op, std::vector<graph::tensor_id> ids, int spatial) {
    emit_spatial(ctx, op, std::move(ids), spatial, ctx.output_name(0));
}

int spatial_rank(const context& ctx) {
    const int r = ctx.input_desc(0).rank();
    if (r < 3) ctx.unsupported("input rank " + std::to_string(r) + " is below 3");
    return r - 2;
}

}  // namespace

graph::tensor_id emit_conv(context& ctx, graph::tensor_id x_in, graph::tensor_id w_in,
                           graph::tensor_id bias, bool transposed, const std::string& out) {
    const int x_rank = ctx.desc_of(x_in).rank();
    if (x_rank < 3) ctx.unsupported("input rank " + std::to_string(x_rank) + " is below 3");
    const int spatial = x_rank - 2;
    const shape wdims = ctx.desc_of(w_in).dims();
    std::vector<std::int64_t> kernel = ctx.attr_ints("kernel_shape");
    if (kernel.empty())
        for (int i = 2; i < wdims.rank(); ++i) kernel.push_back(wdims[i]);
    window w = read_window(ctx, spatial, kernel);
    const auto x = as_image(ctx, x_in);
    const auto wt = as_image(ctx, w_in);
    const shape xd = ctx.desc_of(x).dims();
    const std::int64_t in[2] = {xd[2], xd[3]};
    op::conv2d c;
    c.groups(static_cast<int>(ctx.attr_int("group", 1)));
    c.dilation(static_cast<int>(w.d[0]), static_cast<int>(w.d[1]));
    if (!transposed) {
        resolve_auto_pad(ctx, w, in);
    } else {
        c.transposed();
        const int off = 2 - spatial;
        std::int64_t out_pad[2] = {0, 0}, out_shape[2] = {0, 0};
        const auto op_attr = ctx.attr_ints("output_padding");
        const auto os_attr = ctx.attr_ints("output_shape");
        for (std::size_t i = 0; i < op_attr.size() && i < 2; ++i) out_pad[i + off] = op_attr[i];
        for (std::size_t i = 0; i < os_attr.size() && i < 2; ++i) out_shape[i + off] = os_attr[i];
        if (!os_attr.empty() && static_cast<int>(os_attr.size()) != spatial)
            ctx.unsupported("output_shape must list the spatial dims only");
        const bool same = w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER";
        if (w.auto_pad != "NOTSET" && w.auto_pad != "VALID" && !same)
            ctx.unsupported("auto_pad '" + w.auto_pad + "'");
        for (int i = 0; i < 2; ++i) {
            if (i < off) continue;
            std::int64_t target = out_shape[i];
            if (target == 0 && same) target = in[i] * w.s[i];
            if (w.auto_pad == "VALID") w.pad_begin[i] = w.pad_end[i] = 0;
            if (target > 0) {
                const std::int64_t total =
                    w.s[i] * (in[i] - 1) + out_pad[i] + (w.k[i] - 1) * w.d[i] + 1 - target;
                if (total < 0) ctx.unsupported("output_shape needs negative padding");
                const std::int64_t half = total / 2;
                const bool lower = w.auto_pad == "SAME_LOWER";
                w.pad_begin[i] = lower ? total - half : half;
                w.pad_end[i] = total - w.pad_begin[i];
            }
        }
        c.output_padding(static_cast<int>(out_pad[0]), static_cast<int>(out_pad[1]));
    }
    set_window(c, w);
    std::vector<graph::tensor_id> ids{x, wt};
    if (bias >= 0) {
        c.bias(true);
        ids.push_back(bias);
    }
    return emit_spatial(ctx, c, ids, spatial, out);
}

namespace {

void map_conv(context& ctx, bool transposed) {
    const auto x = ctx.tensor_input(0), w = ctx.tensor_input(1);
    const graph::tensor_id bias = ctx.has_input(2) ? ctx.tensor_input(2) : -1;
    emit_conv(ctx, x, w, bias, transposed, ctx.output_name(0));
}

/// Pooling with 3-D windows or dilations, or MaxPool's Indices output, which pooling lacks.
bool needs_tap_gather(const context& ctx) {
    if (ctx.has_output(1) || ctx.input_desc(0).rank() == 5) return true;
    for (auto d : ctx.attr_ints("dilations"))
        if (d != 1) return true;
    return false;
}

void map_pool(context& ctx, bool is_max) {
    if (needs_tap_gather(ctx)) {
        map_pool_by_taps(ctx, is_max);
        return;
    }
    const int spatial = spatial_rank(ctx);
    if (ctx.has_output(1)) ctx.unsupported("the Indices output is not supported");
    window w = read_window(ctx, spatial, ctx.attr_ints("kernel_shape"));
    if (w.d[0] != 1 || w.d[1] != 1)
        ctx.unsupported("op not in the Tessera op set yet: pooling with dilations");
    const auto x = as_image(ctx, ctx.tensor_input(0));
    const shape xd = ctx.desc_of(x).dims();
    const std::int64_t in[2] = {xd[2], xd[3]};
    resolve_auto_pad(ctx, w, in);
    op::pooling p(is_max ? pooling_kind::max
                         : (ctx.attr_int("count_include_pad", 0)
                                ? pooling_kind::average_include_padding
                                : pooling_kind::average_exclude_padding));
    p.kernel(static_cast<int>(w.k[0]), static_cast<int>(w.k[1]));
    set_window(p, w);
    p.rounding_mode(ctx.attr_int("ceil_mode", 0) ? output_rounding::ceil : output_rounding::floor);
    emit_spatial(ctx, p, {x}, spatial);
}

void map_global_pool(context& ctx, bool is_max) {
    const int spatial = spatial_rank(ctx);
    const auto x = as_image(ctx, ctx.tensor_input(0));
    if (spatial > 2) ctx.unsupported("only 1-D and 2-D inputs are supported");
    emit_spatial(ctx, op::pooling(is_max ? pooling_kind::global_max : pooling_kind::global_average),
                 {x}, spatial);
}

/// BatchNormalization with training_mode = 1 (opset 14+): normalises with the batch's mean and
/// (population) variance over every dim but C; outputs 1 and 2 are the running statistics
/// input * momentum + batch * (1 - momentum).
void map_batchnorm_training(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const shape xd = ctx.desc_of(x).dims();
    if (xd.rank() < 2) ctx.unsupported("input rank below 2");
    if (!is_floating(ctx.desc_of(x).type())) ctx.unsupported("input is not floating");
    const auto mean_keep = [&](graph::tensor_id t) {
        for (int a = xd.rank(); a-- > 0;) {
            if (a == 1) continue;
            op::reduce r(reduce_kind::mean);
            r.along(a).keep(true);
            t = ctx.emit(r, {t});
        }
        return ctx.reshape(t, shape{xd[1]});
    };
    const auto mean = mean_keep(x);
    std::vector<std::int64_t> per_channel(static_cast<std::size_t>(xd.rank()), 1);
    per_channel[1] = xd[1];
    const auto mean_wide = ctx.reshape(mean, shape(per_channel.begin(), per_channel.end()));
    const auto centred = ctx.emit(op::binary(binary_kind::sub), {x, mean_wide});
    const auto variance = mean_keep(ctx.emit(op::activation(activation_kind::square), {centred}));
    op::batchnorm b;
    b.eps(ctx.attr_float("epsilon", 1e-5f));
    ctx.emit(b, {x, mean, variance, ctx.tensor_input(1), ctx.tensor_input(2)}, ctx.output_name(0));
    const float momentum = ctx.attr_float("momentum", 0.9f);
    const auto running = [&](std::size_t input, graph::tensor_id batch, std::size_t output) {
        if (!ctx.has_output(output)) return;
        op::binary blend(binary_kind::add);
        blend.set_alpha(momentum).set_beta(1.0f - momentum);
        ctx.emit(blend, {ctx.tensor_input(input), batch}, ctx.output_name(output));
    };
    running(3, mean, 1);
    running(4, variance, 2);
}

void map_batchnorm(context& ctx) {
    if (ctx.opset >= 14 && ctx.attr_int("training_mode", 0) != 0)
        return map_batchnorm_training(ctx);
    if (ctx.output_count() > 1 && (ctx.has_output(1) || ctx.has_output(2)))
        ctx.unsupported("training outputs (running mean/variance) are not supported");
    if (ctx.attr_int("training_mode", 0) != 0) ctx.unsupported("training_mode = 1");
    if (ctx.opset < 9 && ctx.attr_int("spatial", 1) != 1) ctx.unsupported("spatial = 0");
    // Before opset 7, is_test = 0 (the default) normalises with the batch's statistics.
    if (ctx.opset < 7 && ctx.attr_int("is_test", 0) == 0)
        ctx.unsupported("is_test = 0 (training mode, batch statistics) is not supported");
    op::batchnorm b;
    b.eps(ctx.attr_float("epsilon", 1e-5f));
    // Tessera: src, mean, variance, scale, shift; ONNX: X, scale, B, mean, var.
    produce(ctx, b, {0, 3, 4, 1, 2}, ctx.output_name(0));
}

void map_instance_norm(context& ctx) {
    const auto x = ctx.tensor_input(0);
    if (ctx.desc_of(x).rank() < 3) ctx.unsupported("input rank below 3");
    op::layer_norm ln;
    ln.from_axis(2).eps(ctx.attr_float("epsilon", 1e-5f));
    const auto normed = ctx.emit(ln, {x});
    op::batchnorm affine;
    affine.affine();
    ctx.emit(affine, {normed, ctx.tensor_input(1), ctx.tensor_input(2)}, ctx.output_name(0));
}

/// LayerNormalization's optional Mean and InvStdDev outputs (f32, dims of X with 1 from `axis`
/// on): reduce_mean over the normalised axes, then 1 / sqrt(mean((x - mean)^2) + epsilon).
void emit_layer_norm_statistics(context& ctx, graph::tensor_id x, int axis, float eps) {
    if (ctx.attr_int("stash_type", 1) != 1)
        ctx.unsupported("stash_type " + std::to_string(ctx.attr_int("stash_type", 1)) +
                        " (statistics in float only)");
    if (ctx.desc_of(x).type() != dtype::f32)
        x = ctx.emit(op::reorder(tensor_desc(ctx.desc_of(x).dims(), dtype::f32)), {x});
    const int rank = ctx.desc_of(x).rank();
    const auto mean_over_tail = [&](graph::tensor_id t, const std::string& out) {
        for (int a = rank; a-- > axis;) {
            op::reduce r(reduce_kind::mean);
            r.along(a).keep(true);
            t = ctx.emit(r, {t}, a == axis ? out : "");
        }
        return t;
    };
    const std::string mean_name = ctx.has_output(1) ? ctx.output_name(1) : std::string();
    const auto mean = mean_over_tail(x, mean_name);
    if (!ctx.has_output(2)) return;
    const auto centred = ctx.emit(op::binary(binary_kind::sub), {x, mean});
    const auto squared = ctx.emit(op::activation(activation_kind::square), {centred});
    const auto variance = mean_over_tail(squared, "");
    const auto shifted = ctx.emit(op::activation(activation_kind::linear, 1.0f, eps), {variance});
    ctx.emit(op::unary(unary_kind::rsqrt), {shifted}, ctx.output_name(2));
}

void map_layer_norm(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const shape xd = ctx.desc_of(x).dims();
    const int axis = normalize_axis(ctx.attr_int("axis", -1), xd.rank(), "axis");
    std::vector<std::int64_t> tail;
    for (int i = axis; i < xd.rank(); ++i) tail.push_back(xd[i]);
    const shape tail_shape(tail.begin(), tail.end());
    op::layer_norm ln;
    ln.from_axis(axis).eps(ctx.attr_float("epsilon", 1e-5f));
    std::vector<graph::tensor_id> ids{x};
    auto fit = [&](std::size_t i) {
        auto id = ctx.tensor_input(i);
        if (ctx.desc_of(id).dims().num_elements() == tail_shape.num_elements())
            id = ctx.reshape(id, tail_shape);
        return id;
    };
    ln.tensors(true, ctx.has_input(2));
    ids.push_back(fit(1));
    if (ctx.has_input(2)) ids.push_back(fit(2));
    ctx.emit(ln, ids, ctx.output_name(0));
    if (ctx.has_output(1) || ctx.has_output(2))
        emit_layer_norm_statistics(ctx, x, axis, ctx.attr_float("epsilon", 1e-5f));
}

void map_lrn(context& ctx) {
    op::lrn l;
    l.window(static_cast<int>(ctx.attr_int("size", 0)))
        .coefficients(ctx.attr_float("alpha", 1e-4f), ctx.attr_float("beta", 0.75f),
                      ctx.attr_float("bias", 1.0f))
        .scaled(true);
    produce(ctx, l, {0}, ctx.output_name(0));
}

void map_gemm(context& ctx) {
    op::gemm g;
    const float alpha = ctx.attr_float("alpha", 1.0f), beta = ctx.attr_float("beta", 1.0f);
    g.transpose(ctx.attr_int("transA", 0) != 0, ctx.attr_int("transB", 0) != 0);
    // Before opset 7, C broadcasts to [M, N] only with broadcast = 1; later always.
    const bool c_broadcasts = ctx.opset >= 7 || ctx.attr_int("broadcast", 0) != 0;
    const auto a = ctx.tensor_input(0), b = ctx.tensor_input(1);
    const auto& ad = ctx.desc_of(a);
    const auto& bd = ctx.desc_of(b);
    if (ad.rank() != 2 || bd.rank() != 2) ctx.unsupported("A and B must be 2-D");
    const std::int64_t m = g.trans_a() ? ad.dims()[1] : ad.dims()[0];
    const std::int64_t n = g.trans_b() ? bd.dims()[0] : bd.dims()[1];
    if (!ctx.has_input(2) || beta == 0.0f) {
        g.scales(alpha, 0.0f);
        ctx.emit(g, {a, b}, ctx.output_name(0));
        return;
    }
    auto c = ctx.tensor_input(2);
    const shape cd = ctx.desc_of(c).dims();
    if (!c_broadcasts && cd != shape{m, n})
        ctx.unsupported("C is not [M, N] and broadcast is not set (opset " +
                        std::to_string(ctx.opset) + ")");
    if (cd.rank() == 2 && cd[0] == 1 && cd[1] == n) c = ctx.reshape(c, shape{n});
    const shape cd2 = ctx.desc_of(c).dims();
    if ((cd2.rank() == 2 && cd2[0] == m && cd2[1] == n) || (cd2.rank() == 1 && cd2[0] == n)) {
        g.scales(alpha, beta);
        ctx.emit(g, {a, b, c}, ctx.output_name(0));
        return;
    }
    // Other broadcasts of C: the product, then + beta * C with numpy broadcasting.
    g.scales(alpha, 0.0f);
    const auto prod = ctx.emit(g, {a, b});
    op::binary add(binary_kind::add);
    add.set_beta(beta);
    ctx.emit(add, {prod, c}, ctx.output_name(0));
}

}  // namespace

graph::tensor_id emit_matmul(context& ctx, graph::tensor_id a, graph::tensor_id b,
                             const std::string& out) {
    shape ad = ctx.desc_of(a).dims(), bd = ctx.desc_of(b).dims();
    if (ad.rank() == 0 || bd.rank() == 0) ctx.unsupported("MatMul of scalars");
    const bool a_vector = ad.rank() == 1, b_vector = bd.rank() == 1;
    if (a_vector) a = ctx.reshape(a, shape{1, ad[0]});
    if (b_vector) b = ctx.reshape(b, shape{bd[0], 1});
    ad = ctx.desc_of(a).dims();
    bd = ctx.desc_of(b).dims();
    const std::int64_t m = ad[ad.rank() - 2], k = ad[ad.rank() - 1], n = bd[bd.rank() - 1];
    std::vector<std::int64_t> batch_a, batch_b;
    for (int i = 0; i + 2 < ad.rank(); ++i) batch_a.push_back(ad[i]);
    for (int i = 0; i + 2 < bd.rank(); ++i) batch_b.push_back(bd[i]);
    std::vector<std::int64_t> out_dims;
    graph::tensor_id y;
    auto count = [](const std::vector<std::int64_t>& v) {
        std::int64_t p = 1;
        for (auto e : v) p *= e;
        return p;
    };
    if (batch_b.empty()) {
        // [..., m, k] x [k, n]: one 2-D product over the flattened rows.
        const auto a2 = ctx.reshape(a, shape{count(batch_a) * m, k});
        y = ctx.emit(op::matmul(), {a2, b});
        out_dims = batch_a;
    } else if (batch_a.empty()) {
        const auto b3 = ctx.reshape(b, shape{count(batch_b), k, n});
        y = ctx.emit(op::matmul(), {a, b3});
        out_dims = batch_b;
    } else if (batch_a == batch_b) {
        const auto a3 = ctx.reshape(a, shape{count(batch_a), m, k});
        const auto b3 = ctx.reshape(b, shape{count(batch_b), k, n});
        y = ctx.emit(op::matmul(), {a3, b3});
        out_dims = batch_a;
    } else {
        ctx.unsupported("batch dims that broadcast against each other are not supported");
    }
    if (!a_vector) out_dims.push_back(m);
    if (!b_vector) out_dims.push_back(n);
    return ctx.reshape(y, shape(out_dims.begin(), out_dims.end()), out);
}

namespace {

void map_matmul(context& ctx) {
    emit_matmul(ctx, ctx.tensor_input(0), ctx.tensor_input(1), ctx.output_name(0));
}

void map_softmax(context& ctx, bool log) {
    const int r = ctx.input_desc(0).rank();
    op::softmax s;
    if (ctx.opset < 13) {
        const int axis = normalize_axis(ctx.attr_int("axis", 1), r, "axis");
        s.along(axis, r - axis);
    } else {
        s.along(normalize_axis(ctx.attr_int("axis", -1), r, "axis"), 1);
    }
    s.logarithmic(log);
    produce(ctx, s, {0}, ctx.output_name(0));
}

}  // namespace

void register_nn(mapper_table& t) {
    t["Conv"] = [](context& c) { map_conv(c, false); };
    t["ConvTranspose"] = [](context& c) { map_conv(c, true); };
    t["MaxPool"] = [](context& c) { map_pool(c, true); };
    t["AveragePool"] = [](context& c) { map_pool(c, false); };
    t["GlobalMaxPool"] = [](context& c) { map_global_pool(c, true); };
    t["GlobalAveragePool"] = [](context& c) { map_global_pool(c, false); };
    t["BatchNormalization"] = map_batchnorm;
    t["InstanceNormalization"] = map_instance_norm;
    t["LayerNormalization"] = map_layer_norm;
    t["LRN"] = map_lrn;
    t["Gemm"] = map_gemm;
    t["MatMul"] = map_matmul;
    t["MaxUnpool"] = map_max_unpool;
    t["RoiAlign"] = map_roi_align;
    t["Softmax"] = [](context& c) { map_softmax(c, false); };
    t["LogSoftmax"] = [](context& c) { map_softmax(c, true); };
}

}  // namespace tessera::onnx::detail
