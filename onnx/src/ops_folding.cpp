// ops_folding.cpp: ONNX ops that only compute shapes or constants, evaluated at load so the graph
// reaching the backends is static: Constant, ConstantOfShape, Shape, Size, Range, and Gather and
// Slice on constants (on computed tensors they become Tessera's gather and slice ops).
#include <cmath>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

host_tensor int64_vector(const std::vector<std::int64_t>& values) {
    host_tensor t = make_host(element_type::int64, {static_cast<std::int64_t>(values.size())});
    for (std::size_t i = 0; i < values.size(); ++i)
        set_integer(t, static_cast<std::int64_t>(i), values[i]);
    return t;
}

void map_constant(context& ctx) {
    const std::string& out = ctx.output_name(0);
    if (const auto* a = ctx.attr("value")) {
        if (!a->has_t()) ctx.unsupported("attribute value holds no tensor");
        ctx.set_constant(out, from_proto(a->t()));
        return;
    }
    if (const auto* a = ctx.attr("value_float")) {
        host_tensor t = make_host(element_type::float32, {});
        set_real(t, 0, a->f());
        return ctx.set_constant(out, t);
    }
    if (const auto* a = ctx.attr("value_int")) {
        host_tensor t = make_host(element_type::int64, {});
        set_integer(t, 0, a->i());
        return ctx.set_constant(out, t);
    }
    if (ctx.attr("value_ints"))
        return ctx.set_constant(out, int64_vector(ctx.attr_ints("value_ints")));
    if (ctx.attr("value_floats")) {
        const auto v = ctx.attr_floats("value_floats");
        host_tensor t = make_host(element_type::float32, {static_cast<std::int64_t>(v.size())});
        for (std::size_t i = 0; i < v.size(); ++i) set_real(t, static_cast<std::int64_t>(i), v[i]);
        return ctx.set_constant(out, t);
    }
    ctx.unsupported("attribute value (sparse_value and strings are not supported)");
}

void map_constant_of_shape(context& ctx) {
    const auto dims = integers(ctx.constant_input(0, "shape"));
    host_tensor fill = make_host(element_type::float32, {1});
    if (const auto* a = ctx.attr("value")) fill = from_proto(a->t());
    if (fill.num_elements() != 1) ctx.unsupported("attribute value must hold one element");
    host_tensor out = make_host(fill.type, dims);
    const auto n = out.num_elements();
    const std::size_t size = element_size(fill.type);
    for (std::int64_t i = 0; i < n; ++i)
        std::copy(fill.bytes.begin(), fill.bytes.begin() + static_cast<long>(size),
                  out.bytes.begin() + static_cast<long>(static_cast<std::size_t>(i) * size));
    ctx.set_constant(ctx.output_name(0), out);
}

void map_shape(context& ctx) {
    const shape dims = ctx.input_dims(0);
    const int r = dims.rank();
    std::int64_t start = ctx.attr_int("start", 0), end = ctx.attr_int("end", r);
    if (start < 0) start += r;
    if (end < 0) end += r;
    start = std::clamp<std::int64_t>(start, 0, r);
    end = std::clamp<std::int64_t>(end, 0, r);
    std::vector<std::int64_t> v;
    for (std::int64_t i = start; i < end; ++i) v.push_back(dims[static_cast<int>(i)]);
    ctx.set_constant(ctx.output_name(0), int64_vector(v));
}

void map_size(context& ctx) {
    host_tensor t = make_host(element_type::int64, {});
    set_integer(t, 0, ctx.input_dims(0).num_elements());
    ctx.set_constant(ctx.output_name(0), t);
}

void map_range(context& ctx) {
    const auto& s = ctx.constant_input(0, "start");
    const auto& l = ctx.constant_input(1, "limit");
    const auto& d = ctx.constant_input(2, "delta");
    const double start = s.real(0), limit = l.real(0), delta = d.real(0);
    if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
        ctx.unsupported("Range needs finite start, limit and a non-zero delta");
    const double count = std::max(std::ceil((limit - start) / delta), 0.0);
    if (count > 1e8)
        ctx.unsupported("Range of " + std::to_string(count) + " elements is too large");
    host_tensor out = make_host(s.type, {static_cast<std::int64_t>(count)});
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
        if (is_integer_type(s.type))
            set_integer(out, i, s.integer(0) + i * d.integer(0));
        else
            set_real(out, i, start + static_cast<double>(i) * delta);
    }
    ctx.set_constant(ctx.output_name(0), out);
}

/// Copies elements between host tensors of one element type.
void copy_element(const host_tensor& from, std::int64_t i, host_tensor& to, std::int64_t j) {
    const std::size_t size = element_size(from.type);
    std::copy_n(from.bytes.begin() + static_cast<long>(static_cast<std::size_t>(i) * size), size,
                to.bytes.begin() + static_cast<long>(static_cast<std::size_t>(j) * size));
}

std::vector<std::int64_t> strides_of(const std::vector<std::int64_t>& dims) {
    std::vector<std::int64_t> s(dims.size(), 1);
    for (std::size_t k = dims.size(); k-- > 1;) s[k - 1] = s[k] * dims[k];
    return s;
}

void map_gather(context& ctx) {
    if (!ctx.input_is_constant(0)) return map_gather_on_graph(ctx);
    const auto& data = ctx.constant_input(0, "data");
    const auto& idx = ctx.constant_input(1, "indices");
    const int r = static_cast<int>(data.dims.size());
    const int axis = normalize_axis(ctx.attr_int("axis", 0), r, "axis");
    std::vector<std::int64_t> out_dims(data.dims.begin(), data.dims.begin() + axis);
    out_dims.insert(out_dims.end(), idx.dims.begin(), idx.dims.end());
    out_dims.insert(out_dims.end(), data.dims.begin() + axis + 1, data.dims.end());
    host_tensor out = make_host(data.type, out_dims);
    const auto indices = integers(idx);
    std::int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= data.dims[static_cast<std::size_t>(k)];
    for (int k = axis + 1; k < r; ++k) inner *= data.dims[static_cast<std::size_t>(k)];
    const std::int64_t extent = data.dims[static_cast<std::size_t>(axis)];
    std::int64_t j = 0;
    for (std::int64_t o = 0; o < outer; ++o)
        for (auto ix : indices) {
            if (ix < -extent || ix >= extent)
                ctx.unsupported("index " + std::to_string(ix) + " is out of range");
            if (ix < 0) ix += extent;
            for (std::int64_t i = 0; i < inner; ++i)
                copy_element(data, (o * extent + ix) * inner + i, out, j++);
        }
    ctx.set_constant(ctx.output_name(0), out);
}

void map_slice(context& ctx) {
    if (!ctx.input_is_constant(0)) return map_slice_on_graph(ctx);
    const auto& data = ctx.constant_input(0, "data");
    const int r = static_cast<int>(data.dims.size());
    const slice_arguments args = read_slice_arguments(ctx);
    const auto &starts = args.starts, &ends = args.ends, &axes = args.axes, &steps = args.steps;
    std::vector<std::int64_t> begin(static_cast<std::size_t>(r), 0),
        step(static_cast<std::size_t>(r), 1), count = data.dims;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const auto a = static_cast<std::size_t>(normalize_axis(axes[k], r, "axis"));
        const std::int64_t n = data.dims[a], st = steps[k];
        if (st == 0) ctx.unsupported("step 0");
        auto clampi = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
            if (v < 0) v = v < -n ? -1 : v + n;  // below -n: before the start
            return std::clamp(v, lo, hi);
        };
        std::int64_t b = starts[k], e = ends[k];
        if (st > 0) {
            b = clampi(b < -n ? 0 : b, 0, n);
            e = clampi(e < -n ? 0 : e, 0, n);
            count[a] = std::max<std::int64_t>(0, (e - b + st - 1) / st);
        } else {
            b = clampi(b, -1, n - 1);
            e = clampi(e, -1, n - 1);
            count[a] = std::max<std::int64_t>(0, (b - e + (-st) - 1) / (-st));
        }
        begin[a] = b;
        step[a] = st;
    }
    host_tensor out = make_host(data.type, count);
    const auto in_strides = strides_of(data.dims);
    const auto n = out.num_elements();
    for (std::int64_t j = 0; j < n; ++j) {
        std::int64_t rem = j, src = 0;
        for (int k = r; k-- > 0;) {
            const auto uk = static_cast<std::size_t>(k);
            const std::int64_t c = rem % count[uk];
            rem /= count[uk];
            src += (begin[uk] + c * step[uk]) * in_strides[uk];
        }
        copy_element(data, src, out, j);
    }
    ctx.set_constant(ctx.output_name(0), out);
}

}  // namespace

void register_folding(mapper_table& t) {
    t["Constant"] = map_constant;
    t["ConstantOfShape"] = map_constant_of_shape;
    t["Shape"] = map_shape;
    t["Size"] = map_size;
    t["Range"] = map_range;
    t["Gather"] = map_gather;
    t["Slice"] = map_slice;
}

}  // namespace tessera::onnx::detail
