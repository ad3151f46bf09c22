// ops_pool_taps.cpp: pooling forms Tessera's pooling op lacks (3-D windows, dilations, MaxPool's
// Indices output), lowered at load as a gather of every window tap: the input is flattened over
// its spatial dims with one slot appended for taps in the padding (-inf for max, 0 for average), a
// constant table of the taps' source positions is gathered, and reduce max (Y), max_idx (Indices,
// mapped back to the flat input position through a one-hot over the taps) or sum divided by the
// constant tap counts (AveragePool, with or without count_include_pad) run along the taps.
#include <cmath>
#include <limits>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// The resolved window of an N-D MaxPool node along each spatial axis.
struct tap_window {
    std::vector<std::int64_t> in, out, kernel, stride, dilation, pad_begin, pad_end;
};

tap_window read_tap_window(const context& ctx, const shape& xd) {
    const auto spatial = static_cast<std::size_t>(xd.rank() - 2);
    tap_window w;
    const auto per_axis = [&](const char* name, std::int64_t fallback) {
        auto v = ctx.attr_ints(name);
        if (v.empty()) v.assign(spatial, fallback);
        if (v.size() != spatial) ctx.unsupported(std::string(name) + " has the wrong length");
        return v;
    };
    w.kernel = ctx.attr_ints("kernel_shape");
    if (w.kernel.size() != spatial) ctx.unsupported("kernel_shape has the wrong length");
    w.stride = per_axis("strides", 1);
    w.dilation = per_axis("dilations", 1);
    auto pads = ctx.attr_ints("pads");
    if (pads.empty()) pads.assign(2 * spatial, 0);
    if (pads.size() != 2 * spatial) ctx.unsupported("pads has the wrong length");
    const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
    const bool ceil_mode = ctx.attr_int("ceil_mode", 0) != 0;
    for (std::size_t i = 0; i < spatial; ++i) {
        const std::int64_t in = xd[static_cast<int>(i) + 2];
        const std::int64_t k = w.kernel[i], s = w.stride[i], d = w.dilation[i];
        if (k < 1 || s < 1 || d < 1 || pads[i] < 0 || pads[i + spatial] < 0)
            ctx.unsupported("kernel, strides, dilations must be >= 1 and pads >= 0");
        const std::int64_t span = (k - 1) * d + 1;
        std::int64_t begin = pads[i], end = pads[i + spatial], out = 0;
        if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
            out = (in + s - 1) / s;
            const std::int64_t total = std::max<std::int64_t>((out - 1) * s + span - in, 0);
            begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
        } else {
            if (auto_pad == "VALID")
                begin = end = 0;
            else if (auto_pad != "NOTSET")
                ctx.unsupported("auto_pad '" + auto_pad + "'");
            const std::int64_t room = in + begin + end - span;
            if (room < 0) ctx.unsupported("the window is larger than the padded input");
            out = (ceil_mode ? (room + s - 1) / s : room / s) + 1;
            // A last window starting in the end padding is dropped (ceil_mode).
            if (ceil_mode && (out - 1) * s >= in + begin) --out;
        }
        w.in.push_back(in);
        w.out.push_back(out);
        w.pad_begin.push_back(begin);
        w.pad_end.push_back(auto_pad == "NOTSET" || auto_pad == "VALID"
                                ? end
                                : std::max<std::int64_t>((out - 1) * s + span - in - begin, 0));
    }
    return w;
}

std::int64_t product_of(const std::vector<std::int64_t>& v) {
    std::int64_t p = 1;
    for (auto e : v) p *= e;
    return p;
}

/// Splits a flat row-major index into per-axis coordinates of `extents`.
std::vector<std::int64_t> coordinates_of(std::int64_t flat,
                                         const std::vector<std::int64_t>& extents) {
    std::vector<std::int64_t> c(extents.size());
    for (std::size_t i = extents.size(); i-- > 0;) {
        c[i] = flat % extents[i];
        flat /= extents[i];
    }
    return c;
}

}  // namespace

void map_pool_by_taps(context& ctx, bool is_max) {
    auto x = ctx.tensor_input(0);
    const tensor_desc xdesc = ctx.desc_of(x);
    const shape xd = xdesc.dims();
    if (xd.rank() < 3 || xd.rank() > 5)
        ctx.unsupported("input rank " + std::to_string(xd.rank()) + " (3 to 5 supported)");
    if (!is_floating(xdesc.type())) ctx.unsupported("pooling of a non-floating tensor");
    const bool include_padding = ctx.attr_int("count_include_pad", 0) != 0;
    const tap_window w = read_tap_window(ctx, xd);
    const std::int64_t batch = xd[0], channels = xd[1];
    const std::int64_t positions = product_of(w.in), outputs = product_of(w.out),
                       taps = product_of(w.kernel);
    const bool column_major = ctx.attr_int("storage_order", 0) != 0;
    // Source position of each (output, tap), `positions` for taps in the padding; and for
    // Indices the position in ONNX's storage order.
    host_tensor table = make_host(element_type::int32, {outputs * taps});
    host_tensor stored = make_host(element_type::int32, {outputs, taps});
    // AveragePool's divisor per output: taps inside the input, or inside the padded input.
    host_tensor divisor = make_host(onnx_type(xdesc.type()), {outputs});
    for (std::int64_t o = 0; o < outputs; ++o) {
        const auto oc = coordinates_of(o, w.out);
        std::int64_t counted = 0;
        for (std::int64_t t = 0; t < taps; ++t) {
            const auto tc = coordinates_of(t, w.kernel);
            std::int64_t flat = 0, column_flat = 0, column_stride = 1;
            bool inside = true, inside_padding = true;
            for (std::size_t a = 0; a < w.in.size(); ++a) {
                const std::int64_t p = oc[a] * w.stride[a] - w.pad_begin[a] + tc[a] * w.dilation[a];
                inside = inside && p >= 0 && p < w.in[a];
                inside_padding =
                    inside_padding && p >= -w.pad_begin[a] && p < w.in[a] + w.pad_end[a];
                flat = flat * w.in[a] + p;
                column_flat += p * column_stride;
                column_stride *= w.in[a];
            }
            set_integer(table, o * taps + t, inside ? flat : positions);
            set_integer(stored, o * taps + t, inside ? (column_major ? column_flat : flat) : 0);
            counted += (include_padding ? inside_padding : inside) ? 1 : 0;
        }
        set_real(divisor, o, static_cast<double>(counted));
    }
    const auto flat_x = ctx.reshape(x, shape{batch, channels, positions});
    host_tensor lowest = make_host(onnx_type(xdesc.type()), {batch, channels, 1});
    for (std::int64_t i = 0; i < lowest.num_elements(); ++i)
        set_real(lowest, i, is_max ? -std::numeric_limits<double>::infinity() : 0.0);
    op::concat join(2);
    const auto padded =
        ctx.emit(join, {flat_x, ctx.constant_tensor(lowest, ctx.node_label + "/padding")});
    const auto gathered =
        ctx.emit(op::gather(2), {padded, ctx.constant_tensor(table, ctx.node_label + "/taps")});
    const auto windows = ctx.reshape(gathered, shape{batch, channels, outputs, taps});
    std::vector<std::int64_t> out_dims{batch, channels};
    out_dims.insert(out_dims.end(), w.out.begin(), w.out.end());
    const shape out_shape(out_dims.begin(), out_dims.end());
    op::reduce max(is_max ? reduce_kind::max : reduce_kind::sum);
    max.along(3).keep(false);
    auto pooled = ctx.emit(max, {windows});
    if (!is_max) {
        if (ctx.has_output(1)) ctx.unsupported("AveragePool has one output");
        pooled = ctx.emit(op::binary(binary_kind::div),
                          {pooled, ctx.constant_tensor(divisor, ctx.node_label + "/divisor")});
    }
    ctx.reshape(pooled, out_shape, ctx.output_name(0));
    if (!ctx.has_output(1)) return;
    op::reduce argmax(reduce_kind::max_idx);
    argmax.along(3).keep(true);
    auto tap = ctx.emit(argmax, {windows});
    if (ctx.desc_of(tap).type() != dtype::i32) {
        op::reorder to_int(tensor_desc(ctx.desc_of(tap).dims(), dtype::i32));
        to_int.set_rounding(rounding_policy::to_zero);
        tap = ctx.emit(to_int, {tap});
    }
    host_tensor ramp = make_host(element_type::int32, {taps});
    for (std::int64_t t = 0; t < taps; ++t) set_integer(ramp, t, t);
    const auto is_tap = ctx.emit(op::compare(compare_kind::equal),
                                 {tap, ctx.constant_tensor(ramp, ctx.node_label + "/tap_ramp")});
    host_tensor zero = make_host(element_type::int32, {});
    const auto picked =
        ctx.emit(op::where{}, {is_tap, ctx.constant_tensor(stored, ctx.node_label + "/stored"),
                               ctx.constant_tensor(zero, ctx.node_label + "/zero")});
    op::reduce sum(reduce_kind::sum);
    sum.along(3).keep(false);
    const auto position = ctx.emit(sum, {picked});
    // The flat index counts whole images of the earlier batch entries and channels.
    host_tensor offsets = make_host(element_type::int32, {batch, channels, 1});
    for (std::int64_t i = 0; i < batch * channels; ++i) {
        if (i * positions > std::numeric_limits<std::int32_t>::max())
            ctx.unsupported("indices beyond 32 bits");
        set_integer(offsets, i, i * positions);
    }
    const auto index =
        ctx.emit(op::binary(binary_kind::add),
                 {position, ctx.constant_tensor(offsets, ctx.node_label + "/offsets")});
    ctx.reshape(index, out_shape, ctx.output_name(1));
}

}  // namespace tessera::onnx::detail
