// ops_lowered.cpp: ONNX ops with no Tessera op of their own, lowered at load into existing ops
// with constants computed from the static shapes: Trilu (a triangular mask and where), Hardmax
// (argmax compared with an index ramp), Mod (truncated division; Python-style sign for integers),
// BitShift (a product or truncated quotient by a power of two, 0 for shifts of the width or more),
// CastLike (as Cast), Shrink (compares and where), MeanVarianceNormalization (reduce_mean chains),
// SpaceToDepth (reshape, permute, reshape), EyeLike, the Hann, Hamming and Blackman windows and
// MelWeightMatrix (folded constants), OneHot (indices compared with a ramp of depth), Compress (a
// gather of the kept positions of a constant condition), Det (the Leibniz sum unrolled for static
// n up to 4), and QuantizeLinear,
// DynamicQuantizeLinear and DequantizeLinear (reductions, div, round, add, clip, reorder).
#include <algorithm>
#include <cmath>
#include <map>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// A graph constant of `type` holding `v` everywhere, of dims `dims` (scalar by default).
graph::tensor_id filled_constant(context& ctx, dtype type, double v, const std::string& hint,
                                 const std::vector<std::int64_t>& dims = {}) {
    host_tensor t = make_host(onnx_type(type), dims);
    for (std::int64_t i = 0; i < t.num_elements(); ++i) set_real(t, i, v);
    return ctx.constant_tensor(t, ctx.node_label + "/" + hint);
}

/// Dims of rank `rank` that are 1 except `extent` at `axis`.
std::vector<std::int64_t> along_axis(int rank, int axis, std::int64_t extent) {
    std::vector<std::int64_t> dims(static_cast<std::size_t>(rank), 1);
    dims[static_cast<std::size_t>(axis)] = extent;
    return dims;
}

/// The ramp 0, 1, ..., extent - 1 of `type` along `axis` of a rank-`rank` tensor.
graph::tensor_id ramp_along(context& ctx, dtype type, int rank, int axis, std::int64_t extent) {
    host_tensor t = make_host(onnx_type(type), along_axis(rank, axis, extent));
    for (std::int64_t i = 0; i < extent; ++i) set_real(t, i, static_cast<double>(i));
    return ctx.constant_tensor(t, ctx.node_label + "/ramp");
}

graph::tensor_id emit_compare(context& ctx, compare_kind kind, graph::tensor_id a,
                              graph::tensor_id b) {
    return ctx.emit(op::compare(kind), {a, b});
}

void map_trilu(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const tensor_desc d = ctx.desc_of(x);
    if (d.rank() < 2) ctx.unsupported("input rank " + std::to_string(d.rank()) + " is below 2");
    std::int64_t k = 0;
    if (ctx.has_input(1)) {
        const auto& kt = ctx.constant_input(1, "k");
        if (kt.num_elements() != 1) ctx.unsupported("k must hold one value");
        k = kt.integer(0);
    }
    const bool upper = ctx.attr_int("upper", 1) != 0;
    const std::int64_t rows = d.dims()[d.rank() - 2], cols = d.dims()[d.rank() - 1];
    // Keep (i, j) where j - i >= k (upper) or j - i <= k (lower).
    host_tensor mask = make_host(element_type::boolean, {rows, cols});
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j)
            set_integer(mask, i * cols + j, upper ? j - i >= k : j - i <= k);
    const auto keep = ctx.constant_tensor(mask, ctx.node_label + "/mask");
    ctx.emit(op::where{}, {keep, x, filled_constant(ctx, d.type(), 0.0, "zero")},
             ctx.output_name(0));
}

/// Hardmax: 1 at the first maximum along the axis, 0 elsewhere. Before opset 13 the input is
/// seen as 2-D [outer, inner] split at the axis.
void map_hardmax(context& ctx) {
    auto x = ctx.tensor_input(0);
    const tensor_desc d = ctx.desc_of(x);
    const int rank = d.rank();
    int axis = 0;
    if (ctx.opset < 13) {
        const int split = normalize_axis(ctx.attr_int("axis", 1), rank, "axis");
        std::int64_t outer = 1, inner = 1;
        for (int i = 0; i < rank; ++i) (i < split ? outer : inner) *= d.dims()[i];
        x = ctx.reshape(x, shape{outer, inner});
        axis = 1;
    } else {
        axis = normalize_axis(ctx.attr_int("axis", -1), rank, "axis");
    }
    const tensor_desc xd = ctx.desc_of(x);
    op::reduce argmax(reduce_kind::max_idx);
    argmax.along(axis).keep(true);
    const auto index = ctx.emit(argmax, {x});
    const auto ramp = ramp_along(ctx, ctx.desc_of(index).type(), xd.rank(), axis, xd.dims()[axis]);
    const auto is_max = emit_compare(ctx, compare_kind::equal, index, ramp);
    const auto y = ctx.emit(op::where{}, {is_max, filled_constant(ctx, d.type(), 1.0, "one"),
                                          filled_constant(ctx, d.type(), 0.0, "zero")});
    ctx.reshape(y, d.dims(), ctx.output_name(0));
}

/// BitShift of unsigned integers of W bits: x << y = x * 2^min(y, W - 1) wrapped modulo 2^W, and
/// x >> y = trunc(x / 2^min(y, W - 1)), both replaced by 0 where y >= W. Exact for every value:
/// the power of two is representable in the dtype, the product is exact before it wraps (integer
/// arithmetic for u64, extended precision below), and a quotient of non-negative values
/// truncated is the floor.
void map_bitshift(context& ctx) {
    if (ctx.input_count() != 2) ctx.unsupported("expects 2 inputs");
    const std::string direction = ctx.attr_string("direction", "");
    if (direction != "LEFT" && direction != "RIGHT")
        ctx.unsupported("direction '" + direction + "' (expected LEFT or RIGHT)");
    const auto x = ctx.tensor_input(0), y = ctx.tensor_input(1);
    const dtype type = ctx.desc_of(x).type();
    if (!is_unsigned(type))
        ctx.unsupported("dtype " + std::string(to_string(type)) +
                        " (BitShift takes unsigned integers)");
    if (ctx.desc_of(y).type() != type) ctx.unsupported("X and Y differ in dtype");
    const double width = static_cast<double>(8 * size_of(type));
    op::binary min(binary_kind::min), pow(binary_kind::pow),
        apply(direction == "LEFT" ? binary_kind::mul : binary_kind::div);
    for (op::binary* o : {&min, &pow, &apply})
        o->set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    const auto shift = ctx.emit(min, {y, filled_constant(ctx, type, width - 1, "max_shift")});
    const auto power = ctx.emit(pow, {filled_constant(ctx, type, 2.0, "two"), shift});
    const auto shifted = ctx.emit(apply, {x, power});
    const auto too_far = emit_compare(ctx, compare_kind::greater_equal, y,
                                      filled_constant(ctx, type, width, "width"));
    ctx.emit(op::where(), {too_far, filled_constant(ctx, type, 0.0, "zero"), shifted},
             ctx.output_name(0));
}

/// Mod. fmod = 1: a - trunc(a / b) * b (computed in f32 for 16-bit floats). fmod = 0 (integers
/// only): the same, then + b where the remainder is non-zero and its sign differs from b's.
void map_mod(context& ctx) {
    if (ctx.input_count() != 2) ctx.unsupported("expects 2 inputs");
    const bool fmod = ctx.attr_int("fmod", 0) != 0;
    auto a = ctx.tensor_input(0), b = ctx.tensor_input(1);
    const dtype type = ctx.desc_of(a).type();
    if (ctx.desc_of(b).type() != type) ctx.unsupported("A and B differ in dtype");
    const bool floating = is_floating(type);
    if (floating && !fmod)
        ctx.unsupported("fmod = 0 with floating inputs (ONNX requires fmod = 1)");
    if (type == dtype::boolean) ctx.unsupported("Mod of bool");
    const std::string& out = ctx.output_name(0);
    op::binary div(binary_kind::div), mul(binary_kind::mul), sub(binary_kind::sub),
        add(binary_kind::add);
    if (!floating) {
        for (op::binary* o : {&div, &mul, &sub, &add})
            o->set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    }
    const dtype compute = floating ? dtype::f32 : type;
    if (compute != type) {
        a = ctx.emit(op::reorder(tensor_desc(ctx.desc_of(a).dims(), compute)), {a});
        b = ctx.emit(op::reorder(tensor_desc(ctx.desc_of(b).dims(), compute)), {b});
    }
    auto quotient = ctx.emit(div, {a, b});
    if (floating) {  // trunc(q) = sign(q) * floor(|q|)
        const auto magnitude = ctx.emit(op::unary(unary_kind::floor),
                                        {ctx.emit(op::unary(unary_kind::abs), {quotient})});
        quotient = ctx.emit(mul, {ctx.emit(op::unary(unary_kind::sign), {quotient}), magnitude});
    }
    const bool last = fmod && compute == type;
    auto rem = ctx.emit(sub, {a, ctx.emit(mul, {quotient, b})}, last ? out : "");
    if (last) return;
    if (fmod) {
        ctx.emit(op::reorder(tensor_desc(ctx.desc_of(rem).dims(), type)), {rem}, out);
        return;
    }
    const auto zero = filled_constant(ctx, type, 0.0, "zero");
    const auto signs_differ =
        ctx.emit(op::logical(logical_kind::xor_), {emit_compare(ctx, compare_kind::less, rem, zero),
                                                   emit_compare(ctx, compare_kind::less, b, zero)});
    const auto nonzero = ctx.emit(op::logical(logical_kind::not_),
                                  {emit_compare(ctx, compare_kind::equal, rem, zero)});
    const auto adjust = ctx.emit(op::logical(logical_kind::and_), {signs_differ, nonzero});
    ctx.emit(op::where{}, {adjust, ctx.emit(add, {rem, b}), rem}, out);
}

void map_shrink(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const dtype type = ctx.desc_of(x).type();
    if (type == dtype::boolean) ctx.unsupported("Shrink of bool");
    const double lambd = ctx.attr_float("lambd", 0.5f), bias = ctx.attr_float("bias", 0.0f);
    const auto low =
        emit_compare(ctx, compare_kind::less, x, filled_constant(ctx, type, -lambd, "minus_lambd"));
    const auto high =
        emit_compare(ctx, compare_kind::greater, x, filled_constant(ctx, type, lambd, "lambd"));
    const auto bias_t = filled_constant(ctx, type, bias, "bias");
    const auto raised = ctx.emit(op::binary(binary_kind::add), {x, bias_t});
    const auto lowered = ctx.emit(op::binary(binary_kind::sub), {x, bias_t});
    const auto upper_or_zero =
        ctx.emit(op::where{}, {high, lowered, filled_constant(ctx, type, 0.0, "zero")});
    ctx.emit(op::where{}, {low, raised, upper_or_zero}, ctx.output_name(0));
}

/// y = (x - mean) / (sqrt(mean((x - mean)^2)) + 1e-9), means over `axes` (default 0, 2, 3).
void map_mvn(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const int rank = ctx.desc_of(x).rank();
    auto axes_attr = ctx.attr_ints("axes");
    if (!ctx.attr("axes")) axes_attr = {0, 2, 3};
    std::vector<int> axes;
    for (auto a : axes_attr) axes.push_back(normalize_axis(a, rank, "axes"));
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
        ctx.unsupported("axes repeated");
    const auto mean_over = [&](graph::tensor_id t) {
        for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
            op::reduce r(reduce_kind::mean);
            r.along(*it).keep(true);
            t = ctx.emit(r, {t});
        }
        return t;
    };
    const auto centred = ctx.emit(op::binary(binary_kind::sub), {x, mean_over(x)});
    const auto variance = mean_over(ctx.emit(op::activation(activation_kind::square), {centred}));
    const auto deviation = ctx.emit(op::unary(unary_kind::sqrt), {variance});
    const auto denominator =
        ctx.emit(op::activation(activation_kind::linear, 1.0f, 1e-9f), {deviation});
    ctx.emit(op::binary(binary_kind::div), {centred, denominator}, ctx.output_name(0));
}

/// SpaceToDepth: [N, C, H, W] -> [N, C, H/b, b, W/b, b] -> [N, b, b, C, H/b, W/b] -> merged.
void map_space_to_depth(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const shape d = ctx.desc_of(x).dims();
    if (d.rank() != 4) ctx.unsupported("input rank " + std::to_string(d.rank()) + " is not 4");
    const std::int64_t b = ctx.attr_int("blocksize", 0);
    if (b < 1) ctx.unsupported("blocksize " + std::to_string(b) + " is below 1");
    if (d[2] % b != 0 || d[3] % b != 0)
        ctx.unsupported("H and W are not multiples of blocksize " + std::to_string(b));
    const auto split = ctx.reshape(x, shape{d[0], d[1], d[2] / b, b, d[3] / b, b});
    op::permute p;
    p.set_order({0, 3, 5, 1, 2, 4});
    const auto moved = ctx.emit(p, {split});
    ctx.reshape(moved, shape{d[0], d[1] * b * b, d[2] / b, d[3] / b}, ctx.output_name(0));
}

/// EyeLike: a constant of the input's dims with ones on diagonal k.
void map_eye_like(context& ctx) {
    const auto& v = ctx.values.at(ctx.input_name(0));
    std::vector<std::int64_t> dims;
    element_type type{};
    if (v.is_constant) {
        dims = v.constant.dims;
        type = v.constant.type;
    } else {
        const tensor_desc d = ctx.input_desc(0);
        const shape s = d.dims();
        dims.assign(s.begin(), s.end());
        type = onnx_type(d.type());
    }
    if (dims.size() != 2)
        ctx.unsupported("input rank " + std::to_string(dims.size()) + " is not 2");
    if (ctx.attr("dtype")) type = static_cast<element_type>(ctx.attr_int("dtype", 0));
    if (element_size(type) == 0) ctx.unsupported("dtype " + element_type_name(type));
    const std::int64_t k = ctx.attr_int("k", 0);
    host_tensor eye = make_host(type, dims);
    for (std::int64_t i = 0; i < dims[0]; ++i) {
        const std::int64_t j = i + k;
        if (j >= 0 && j < dims[1]) set_real(eye, i * dims[1] + j, 1.0);
    }
    ctx.set_constant(ctx.output_name(0), eye);
}

/// OneHot: values[1] where the (truncated, wrapped if negative) index equals the position along
/// the new axis, values[0] elsewhere.
void map_one_hot(context& ctx) {
    const auto& depth_t = ctx.constant_input(1, "depth");
    const auto& values = ctx.constant_input(2, "values");
    if (depth_t.num_elements() != 1) ctx.unsupported("depth must hold one value");
    if (values.num_elements() != 2) ctx.unsupported("values must hold two values");
    const auto depth = static_cast<std::int64_t>(depth_t.real(0));
    if (depth < 1) ctx.unsupported("depth " + std::to_string(depth) + " is below 1");
    const auto out_type = tessera_dtype(values.type);
    if (!out_type) ctx.unsupported("values of dtype " + element_type_name(values.type));
    auto indices = ctx.tensor_input(0);
    const shape id = ctx.desc_of(indices).dims();
    if (id.rank() + 1 > TSR_MAX_DIMS) ctx.unsupported("the output rank exceeds Tessera's maximum");
    const int axis = normalize_axis(ctx.attr_int("axis", -1), id.rank() + 1, "axis");
    if (ctx.desc_of(indices).type() != dtype::i32) {
        op::reorder to_int(tensor_desc(id, dtype::i32));
        to_int.set_rounding(rounding_policy::to_zero);
        indices = ctx.emit(to_int, {indices});
    }
    // Negative indices count from depth.
    const auto zero = filled_constant(ctx, dtype::i32, 0.0, "zero");
    const auto negative = emit_compare(ctx, compare_kind::less, indices, zero);
    const auto wrapped =
        ctx.emit(op::binary(binary_kind::add),
                 {indices, filled_constant(ctx, dtype::i32, static_cast<double>(depth), "depth")});
    indices = ctx.emit(op::where{}, {negative, wrapped, indices});
    std::vector<std::int64_t> expanded(id.begin(), id.end());
    expanded.insert(expanded.begin() + axis, 1);
    indices = ctx.reshape(indices, shape(expanded.begin(), expanded.end()));
    const auto hit = emit_compare(ctx, compare_kind::equal, indices,
                                  ramp_along(ctx, dtype::i32, id.rank() + 1, axis, depth));
    ctx.emit(op::where{},
             {hit, filled_constant(ctx, *out_type, values.real(1), "on"),
              filled_constant(ctx, *out_type, values.real(0), "off")},
             ctx.output_name(0));
}

void map_cast_like(context& ctx) {
    const auto& like = ctx.values.at(ctx.input_name(1));
    element_type to{};
    if (like.is_constant)
        to = like.constant.type;
    else
        to = onnx_type(ctx.input_desc(1).type());
    map_cast_to(ctx, to);
}

/// HannWindow, HammingWindow, BlackmanWindow: a folded constant of `size` elements,
/// a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) with N = size (periodic) or size - 1.
void map_window(context& ctx, double a0, double a1, double a2) {
    const auto& size_t_ = ctx.constant_input(0, "size");
    if (size_t_.num_elements() != 1) ctx.unsupported("size must hold one value");
    const std::int64_t size = size_t_.integer(0);
    if (size < 0 || size > (std::int64_t{1} << 26))
        ctx.unsupported("size " + std::to_string(size) + " is out of range");
    const auto type = static_cast<element_type>(ctx.attr_int("output_datatype", 1));
    if (element_size(type) == 0 || type == element_type::boolean)
        ctx.unsupported("output_datatype " + element_type_name(type));
    const bool periodic = ctx.attr_int("periodic", 1) != 0;
    const double n_total = static_cast<double>(periodic ? size : size - 1);
    host_tensor w = make_host(type, {size});
    const double pi = std::acos(-1.0);
    for (std::int64_t n = 0; n < size; ++n) {
        const double phase = n_total > 0 ? 2 * pi * static_cast<double>(n) / n_total : 0.0;
        set_real(w, n, a0 - a1 * std::cos(phase) + a2 * std::cos(2 * phase));
    }
    ctx.set_constant(ctx.output_name(0), w);
}

/// MelWeightMatrix: the [dft_length / 2 + 1, num_mel_bins] triangular filter bank of ONNX's
/// definition (mel = 2595 log10(1 + hz / 700), bin edges spaced evenly in mel), folded.
void map_mel_weight_matrix(context& ctx) {
    const auto scalar = [&](std::size_t i, const std::string& what) {
        const auto& t = ctx.constant_input(i, what);
        if (t.num_elements() != 1) ctx.unsupported(what + " must hold one value");
        return t.real(0);
    };
    const auto bins = static_cast<std::int64_t>(scalar(0, "num_mel_bins"));
    const auto dft_length = static_cast<std::int64_t>(scalar(1, "dft_length"));
    const auto sample_rate = static_cast<std::int64_t>(scalar(2, "sample_rate"));
    const double lower = scalar(3, "lower_edge_hertz"), upper = scalar(4, "upper_edge_hertz");
    if (bins < 1 || dft_length < 1 || sample_rate < 1 || bins > 4096 || dft_length > (1 << 20))
        ctx.unsupported("num_mel_bins, dft_length and sample_rate must be positive and moderate");
    const auto type = static_cast<element_type>(ctx.attr_int("output_datatype", 1));
    if (element_size(type) == 0 || type == element_type::boolean)
        ctx.unsupported("output_datatype " + element_type_name(type));
    const std::int64_t spectrum = dft_length / 2 + 1;
    const auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
    const double low_mel = mel(lower),
                 step = (mel(upper) - low_mel) / static_cast<double>(bins + 2);
    std::vector<std::int64_t> edge(static_cast<std::size_t>(bins + 2));
    for (std::int64_t i = 0; i < bins + 2; ++i) {
        const double hz =
            700.0 * (std::pow(10.0, (static_cast<double>(i) * step + low_mel) / 2595.0) - 1.0);
        edge[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(std::floor(
            static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate)));
    }
    host_tensor w = make_host(type, {spectrum, bins});
    const auto put = [&](std::int64_t j, std::int64_t i, double v) {
        if (j < 0 || j >= spectrum) ctx.unsupported("a filter edge falls outside the spectrum");
        set_real(w, j * bins + i, v);
    };
    for (std::int64_t i = 0; i < bins; ++i) {
        const auto left = edge[static_cast<std::size_t>(i)];
        const auto centre = edge[static_cast<std::size_t>(i + 1)];
        const auto right = edge[static_cast<std::size_t>(i + 2)];
        if (centre == left) {
            put(centre, i, 1.0);
        } else {
            for (std::int64_t j = left; j <= centre; ++j)
                put(j, i, static_cast<double>(j - left) / static_cast<double>(centre - left));
        }
        for (std::int64_t j = centre; j < right; ++j)
            put(j, i, static_cast<double>(right - j) / static_cast<double>(right - centre));
    }
    ctx.set_constant(ctx.output_name(0), w);
}

/// Compress: the slices along `axis` (of the flattened input without one) whose condition
/// entry is true, the condition a constant.
void map_compress(context& ctx) {
    const auto& condition = ctx.constant_input(1, "condition");
    auto x = ctx.tensor_input(0);
    const shape d = ctx.desc_of(x).dims();
    int axis = 0;
    if (ctx.attr("axis")) {
        axis = normalize_axis(ctx.attr_int("axis", 0), d.rank(), "axis");
    } else {
        x = ctx.reshape(x, shape{d.num_elements()});
    }
    const std::int64_t extent = ctx.desc_of(x).dims()[axis];
    if (condition.num_elements() > extent)
        ctx.unsupported("condition is longer than dim " + std::to_string(axis));
    std::vector<std::int64_t> kept;
    for (std::int64_t i = 0; i < condition.num_elements(); ++i)
        if (condition.real(i) != 0) kept.push_back(i);
    if (kept.empty()) ctx.unsupported("the condition keeps nothing (empty output)");
    host_tensor idx = make_host(element_type::int32, {static_cast<std::int64_t>(kept.size())});
    for (std::size_t i = 0; i < kept.size(); ++i)
        set_integer(idx, static_cast<std::int64_t>(i), kept[i]);
    ctx.emit(op::gather(axis), {x, ctx.constant_tensor(idx, ctx.node_label + "/indices")},
             ctx.output_name(0));
}

/// A per-tensor ([] or [1]) or per-axis ([C]) parameter seen as f32 broadcasting against a
/// rank-`rank` tensor along `axis`.
graph::tensor_id quantisation_parameter(context& ctx, std::size_t input, int rank) {
    auto p = ctx.tensor_input(input);
    const tensor_desc d = ctx.desc_of(p);
    if (d.type() != dtype::f32) p = ctx.emit(op::reorder(tensor_desc(d.dims(), dtype::f32)), {p});
    if (d.rank() > 1) ctx.unsupported("scale and zero point must be scalars or 1-D");
    if (d.rank() == 1 && d.dims()[0] != 1) {
        const int axis = normalize_axis(ctx.attr_int("axis", 1), rank, "axis");
        std::vector<std::int64_t> dims(static_cast<std::size_t>(rank), 1);
        dims[static_cast<std::size_t>(axis)] = d.dims()[0];
        p = ctx.reshape(p, shape(dims.begin(), dims.end()));
    }
    return p;
}

/// QuantizeLinear: saturate(round_half_even(x / scale) + zero_point) as the zero point's dtype
/// (u8 without one).
void map_quantize(context& ctx) {
    auto x = ctx.tensor_input(0);
    const int rank = ctx.desc_of(x).rank();
    const dtype out = ctx.has_input(2) ? ctx.input_desc(2).type() : dtype::u8;
    if (out != dtype::u8 && out != dtype::i8)
        ctx.unsupported("zero point of dtype " + std::string(to_string(out)) + " (u8, i8 only)");
    if (ctx.desc_of(x).type() != dtype::f32)
        x = ctx.emit(op::reorder(tensor_desc(ctx.desc_of(x).dims(), dtype::f32)), {x});
    auto q = ctx.emit(op::binary(binary_kind::div), {x, quantisation_parameter(ctx, 1, rank)});
    q = ctx.emit(op::unary(unary_kind::round), {q});
    if (ctx.has_input(2))
        q = ctx.emit(op::binary(binary_kind::add), {q, quantisation_parameter(ctx, 2, rank)});
    const float lo = out == dtype::u8 ? 0.0f : -128.0f, hi = out == dtype::u8 ? 255.0f : 127.0f;
    q = ctx.emit(op::activation(activation_kind::clip, lo, hi), {q});
    op::reorder to_int(tensor_desc(ctx.desc_of(q).dims(), out));
    to_int.set_rounding(rounding_policy::to_zero);  // the values are whole already
    ctx.emit(to_int, {q}, ctx.output_name(0));
}

/// DynamicQuantizeLinear: scale = (max(0, max x) - min(0, min x)) / 255, zero point
/// round(clip(-min(0, min x) / scale, 0, 255)), y = clip(round(x / scale) + zero point) as u8.
void map_dynamic_quantize(context& ctx) {
    const auto x = ctx.tensor_input(0);
    if (ctx.desc_of(x).type() != dtype::f32) ctx.unsupported("x is not f32");
    const int rank = ctx.desc_of(x).rank();
    const auto zero = filled_constant(ctx, dtype::f32, 0.0, "zero");
    const auto over_all = [&](reduce_kind kind) {
        auto t = x;
        for (int a = rank; a-- > 0;) {
            op::reduce r(kind);
            r.along(a).keep(false);
            t = ctx.emit(r, {t});
        }
        return t;
    };
    const auto hi = ctx.emit(op::binary(binary_kind::max), {over_all(reduce_kind::max), zero});
    const auto lo = ctx.emit(op::binary(binary_kind::min), {over_all(reduce_kind::min), zero});
    const auto range = ctx.emit(op::binary(binary_kind::sub), {hi, lo});
    const auto scale = ctx.emit(op::binary(binary_kind::div),
                                {range, filled_constant(ctx, dtype::f32, 255.0, "qmax")},
                                ctx.has_output(1) ? ctx.output_name(1) : std::string());
    const auto clip = op::activation(activation_kind::clip, 0.0f, 255.0f);
    const auto shift =
        ctx.emit(op::binary(binary_kind::div), {ctx.emit(op::unary(unary_kind::neg), {lo}), scale});
    const auto zero_point = ctx.emit(op::unary(unary_kind::round), {ctx.emit(clip, {shift})});
    const auto to_u8 = [&](graph::tensor_id t, const std::string& out) {
        op::reorder r(tensor_desc(ctx.desc_of(t).dims(), dtype::u8));
        r.set_rounding(rounding_policy::to_zero);  // the values are whole already
        return ctx.emit(r, {t}, out);
    };
    if (ctx.has_output(2)) to_u8(zero_point, ctx.output_name(2));
    auto q = ctx.emit(op::unary(unary_kind::round),
                      {ctx.emit(op::binary(binary_kind::div), {x, scale})});
    q = ctx.emit(clip, {ctx.emit(op::binary(binary_kind::add), {q, zero_point})});
    to_u8(q, ctx.output_name(0));
}

/// DequantizeLinear: (x - zero_point) * scale in f32.
void map_dequantize(context& ctx) {
    auto x = ctx.tensor_input(0);
    const int rank = ctx.desc_of(x).rank();
    x = ctx.emit(op::reorder(tensor_desc(ctx.desc_of(x).dims(), dtype::f32)), {x});
    if (ctx.has_input(2))
        x = ctx.emit(op::binary(binary_kind::sub), {x, quantisation_parameter(ctx, 2, rank)});
    ctx.emit(op::binary(binary_kind::mul), {x, quantisation_parameter(ctx, 1, rank)},
             ctx.output_name(0));
}

/// Det of [..., n, n] for static n up to 4: the Leibniz sum over the n! permutations of signed
/// products of elements gathered from the flattened matrices.
void map_det(context& ctx) {
    const auto x = ctx.tensor_input(0);
    const tensor_desc d = ctx.desc_of(x);
    if (!is_floating(d.type())) ctx.unsupported("Det of a non-floating tensor");
    if (d.rank() < 2) ctx.unsupported("input rank " + std::to_string(d.rank()) + " is below 2");
    const std::int64_t n = d.dims()[d.rank() - 1];
    if (d.dims()[d.rank() - 2] != n) ctx.unsupported("the matrices are not square");
    constexpr std::int64_t largest_unrolled = 4;  // 24 products of 4 elements
    if (n < 1 || n > largest_unrolled)
        ctx.unsupported("n = " + std::to_string(n) + " (unrolled for n from 1 to 4 only)");
    std::vector<std::int64_t> batch;
    std::int64_t count = 1;
    for (int i = 0; i + 2 < d.rank(); ++i) {
        batch.push_back(d.dims()[i]);
        count *= d.dims()[i];
    }
    const auto flat = ctx.reshape(x, shape{count, n * n});
    std::map<std::int64_t, graph::tensor_id> elements;  // by row * n + column, as [count, 1]
    const auto element = [&](std::int64_t row, std::int64_t column) {
        const std::int64_t k = row * n + column;
        auto found = elements.find(k);
        if (found != elements.end()) return found->second;
        host_tensor idx = make_host(element_type::int32, {1});
        set_integer(idx, 0, k);
        const auto e =
            ctx.emit(op::gather(1), {flat, ctx.constant_tensor(idx, ctx.node_label + "/element")});
        elements.emplace(k, e);
        return e;
    };
    std::vector<std::int64_t> permutation(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) permutation[static_cast<std::size_t>(i)] = i;
    graph::tensor_id sum = -1;
    do {
        int inversions = 0;
        for (std::size_t i = 0; i < permutation.size(); ++i)
            for (std::size_t j = i + 1; j < permutation.size(); ++j)
                inversions += permutation[i] > permutation[j];
        auto product = element(0, permutation[0]);
        for (std::int64_t i = 1; i < n; ++i)
            product = ctx.emit(op::binary(binary_kind::mul),
                               {product, element(i, permutation[static_cast<std::size_t>(i)])});
        const bool negative = inversions % 2 != 0;
        if (sum < 0)
            sum = negative ? ctx.emit(op::unary(unary_kind::neg), {product}) : product;
        else
            sum = ctx.emit(op::binary(negative ? binary_kind::sub : binary_kind::add),
                           {sum, product});
    } while (std::next_permutation(permutation.begin(), permutation.end()));
    ctx.reshape(sum, shape(batch.begin(), batch.end()), ctx.output_name(0));
}

}  // namespace

void register_lowered(mapper_table& t) {
    t["Det"] = map_det;
    t["Trilu"] = map_trilu;
    t["Hardmax"] = map_hardmax;
    t["Mod"] = map_mod;
    t["BitShift"] = map_bitshift;
    t["Shrink"] = map_shrink;
    t["MeanVarianceNormalization"] = map_mvn;
    t["SpaceToDepth"] = map_space_to_depth;
    t["EyeLike"] = map_eye_like;
    t["OneHot"] = map_one_hot;
    t["CastLike"] = map_cast_like;
    t["HannWindow"] = [](context& c) { map_window(c, 0.5, 0.5, 0.0); };
    t["HammingWindow"] = [](context& c) { map_window(c, 25.0 / 46.0, 21.0 / 46.0, 0.0); };
    t["BlackmanWindow"] = [](context& c) { map_window(c, 0.42, 0.5, 0.08); };
    t["Compress"] = map_compress;
    t["MelWeightMatrix"] = map_mel_weight_matrix;
    t["QuantizeLinear"] = map_quantize;
    t["DequantizeLinear"] = map_dequantize;
    t["DynamicQuantizeLinear"] = map_dynamic_quantize;
    t["DFT"] = map_dft;
    t["STFT"] = map_stft;
    t["GridSample"] = map_grid_sample;
}

}  // namespace tessera::onnx::detail
