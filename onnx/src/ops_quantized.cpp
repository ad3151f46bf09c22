// ops_quantized.cpp: ONNX's integer convolution and matrix products, lowered at load onto f32
// Conv and MatMul: ConvInteger and MatMulInteger (inputs minus zero points, exact i32 results),
// QLinearConv and QLinearMatMul (the same, then scaled by x_scale * w_scale / y_scale, rounded half
// to even, shifted by y_zero_point and saturated to its dtype). f32 holds every integer up to 2^24
// exactly, so a node is lowered only where the bound on its sums, from the static shapes and the
// dtypes (or constant values) of inputs and zero points, stays within that; others are declined.
#include <algorithm>
#include <cmath>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// Largest integer below which every f32 sum of integers is exact.
constexpr double f32_exact_limit = 16777216.0;  // 2^24

/// The value range of a u8 or i8 tensor; other dtypes decline the node.
struct integer_range {
    double lo = 0, hi = 0;
};

integer_range quantized_range(const context& ctx, dtype type, const std::string& what) {
    if (type == dtype::u8) return {0.0, 255.0};
    if (type == dtype::i8) return {-128.0, 127.0};
    ctx.unsupported(what + " of dtype " + std::string(to_string(type)) + " (u8, i8 only)");
}

graph::tensor_id to_f32(context& ctx, graph::tensor_id id) {
    const tensor_desc d = ctx.desc_of(id);
    if (d.type() == dtype::f32) return id;
    return ctx.emit(op::reorder(tensor_desc(d.dims(), dtype::f32)), {id});
}

/// A per-tensor ([] or [1]) or per-slice ([extent]) parameter of input `input`, as f32 seen with
/// `trailing_ones` 1s after it so that it broadcasts along the intended axis; -1 when absent.
graph::tensor_id slice_parameter(context& ctx, std::size_t input, int trailing_ones,
                                 const std::string& what) {
    if (!ctx.has_input(input)) return -1;
    auto p = to_f32(ctx, ctx.tensor_input(input));
    const shape d = ctx.desc_of(p).dims();
    if (d.rank() > 1) ctx.unsupported(what + " must be a scalar or 1-D");
    if (d.rank() == 1 && d[0] != 1) {
        std::vector<std::int64_t> dims{d[0]};
        dims.resize(static_cast<std::size_t>(trailing_ones) + 1, 1);
        p = ctx.reshape(p, shape(dims.begin(), dims.end()));
    }
    return p;
}

/// A parameter that must hold one value (x_scale, y_scale, y_zero_point, ...); -1 when absent.
graph::tensor_id scalar_parameter(context& ctx, std::size_t input, const std::string& what) {
    if (ctx.has_input(input) && ctx.input_dims(input).num_elements() != 1)
        ctx.unsupported(what + " must hold one value");
    return slice_parameter(ctx, input, 0, what);
}

/// The largest |v - zero_point| over the range of input `value` (a u8 or i8 tensor) and the
/// zero point of input `zero_point` (its constant values where known, else its dtype's range).
double largest_difference(context& ctx, std::size_t value, std::size_t zero_point,
                          const std::string& what) {
    const integer_range r = quantized_range(ctx, ctx.input_desc(value).type(), what);
    std::vector<double> zeros{0.0};
    if (ctx.has_input(zero_point)) {
        const dtype zt = ctx.input_desc(zero_point).type();
        const integer_range zr = quantized_range(ctx, zt, what + " zero point");
        if (zt != ctx.input_desc(value).type())
            ctx.unsupported(what + " and its zero point differ in dtype");
        zeros = ctx.input_is_constant(zero_point)
                    ? reals(ctx.constant_input(zero_point, what + " zero point"))
                    : std::vector<double>{zr.lo, zr.hi};
    }
    double largest = 0;
    for (double z : zeros) largest = std::max({largest, std::fabs(r.lo - z), std::fabs(r.hi - z)});
    return largest;
}

/// Marks a zero point that must hold one value (no per-slice form).
constexpr int per_tensor = -1;

/// Input `value` as f32 minus the zero point of input `zero_point` (when present), per tensor or
/// per slice along the dim `trailing_ones` places from the end.
graph::tensor_id centred(context& ctx, std::size_t value, std::size_t zero_point, int trailing_ones,
                         const std::string& what) {
    auto v = to_f32(ctx, ctx.tensor_input(value));
    const auto z = trailing_ones == per_tensor
                       ? scalar_parameter(ctx, zero_point, what + " zero point")
                       : slice_parameter(ctx, zero_point, trailing_ones, what + " zero point");
    if (z >= 0) v = ctx.emit(op::binary(binary_kind::sub), {v, z});
    return v;
}

/// Declines the node unless `terms` products of magnitude up to `product` plus `offset` stay
/// within f32's exact integers.
void require_exact_sums(const context& ctx, std::int64_t terms, double product, double offset) {
    const double bound = static_cast<double>(terms) * product + offset;
    if (bound >= f32_exact_limit)
        ctx.unsupported("its integer sums may reach " + std::to_string(bound) +
                        ", beyond the 2^24 that f32 holds exactly");
}

/// The integer sums of a convolution (inputs x, w and their zero points at the given input
/// indices, bias at `bias_input` when present), exact in f32.
graph::tensor_id integer_conv(context& ctx, std::size_t x_in, std::size_t x_zero, std::size_t w_in,
                              std::size_t w_zero, std::size_t bias_input) {
    const shape wd = ctx.input_dims(w_in);
    if (wd.rank() < 3) ctx.unsupported("w rank " + std::to_string(wd.rank()) + " is below 3");
    std::int64_t terms = 1;
    for (int i = 1; i < wd.rank(); ++i) terms *= wd[i];
    double bias_bound = 0;
    graph::tensor_id bias = -1;
    if (ctx.has_input(bias_input)) {
        if (ctx.input_desc(bias_input).type() != dtype::i32) ctx.unsupported("B is not i32");
        if (!ctx.input_is_constant(bias_input))
            ctx.unsupported("B is not a constant, so its sums have no bound exact in f32");
        for (double b : reals(ctx.constant_input(bias_input, "B")))
            bias_bound = std::max(bias_bound, std::fabs(b));
        bias = to_f32(ctx, ctx.tensor_input(bias_input));
    }
    require_exact_sums(
        ctx, terms,
        largest_difference(ctx, x_in, x_zero, "x") * largest_difference(ctx, w_in, w_zero, "w"),
        bias_bound);
    const auto x = centred(ctx, x_in, x_zero, per_tensor, "x");
    const auto w = centred(ctx, w_in, w_zero, wd.rank() - 1, "w");
    return emit_conv(ctx, x, w, bias, false, {});
}

/// The integer products of a matrix product (a with per-row zero points, b with per-column
/// ones), exact in f32.
graph::tensor_id integer_matmul(context& ctx, std::size_t a_in, std::size_t a_zero,
                                std::size_t b_in, std::size_t b_zero) {
    const shape ad = ctx.input_dims(a_in);
    if (ad.rank() == 0) ctx.unsupported("a is a scalar");
    require_exact_sums(
        ctx, ad[ad.rank() - 1],
        largest_difference(ctx, a_in, a_zero, "a") * largest_difference(ctx, b_in, b_zero, "b"),
        0.0);
    // a's zero point per row, b's per column (matrices only).
    const auto a = centred(ctx, a_in, a_zero, ad.rank() >= 2 ? 1 : per_tensor, "a");
    const auto b =
        centred(ctx, b_in, b_zero, ctx.input_dims(b_in).rank() >= 2 ? 0 : per_tensor, "b");
    return emit_matmul(ctx, a, b, {});
}

/// Whole f32 values to `type` into the node's output.
void whole_to(context& ctx, graph::tensor_id id, dtype type) {
    op::reorder r(tensor_desc(ctx.desc_of(id).dims(), type));
    r.set_rounding(rounding_policy::to_zero);  // the values are whole already
    ctx.emit(r, {id}, ctx.output_name(0));
}

/// saturate(round_half_even(sums * (in_scale / y_scale)) + y_zero_point) as the zero point's
/// dtype, in_scale the product of the two inputs' scales.
void requantize(context& ctx, graph::tensor_id sums, graph::tensor_id in_scale, std::size_t y_scale,
                std::size_t y_zero) {
    if (!ctx.has_input(y_zero)) ctx.unsupported("y_zero_point is missing");
    const dtype out = ctx.input_desc(y_zero).type();
    const integer_range r = quantized_range(ctx, out, "y_zero_point");
    const auto scale = ctx.emit(op::binary(binary_kind::div),
                                {in_scale, scalar_parameter(ctx, y_scale, "y_scale")});
    auto q = ctx.emit(op::unary(unary_kind::round),
                      {ctx.emit(op::binary(binary_kind::mul), {sums, scale})});
    q = ctx.emit(op::binary(binary_kind::add), {q, scalar_parameter(ctx, y_zero, "y_zero_point")});
    q = ctx.emit(
        op::activation(activation_kind::clip, static_cast<float>(r.lo), static_cast<float>(r.hi)),
        {q});
    whole_to(ctx, q, out);
}

/// An input index past every node's inputs: "no such input".
constexpr std::size_t no_input = ~std::size_t{0} >> 1;

void map_conv_integer(context& ctx) {
    whole_to(ctx, integer_conv(ctx, 0, 2, 1, 3, no_input), dtype::i32);
}

void map_matmul_integer(context& ctx) {
    whole_to(ctx, integer_matmul(ctx, 0, 2, 1, 3), dtype::i32);
}

/// QLinearConv: x_scale per tensor, w_scale per tensor or per output channel.
void map_qlinear_conv(context& ctx) {
    const auto sums = integer_conv(ctx, 0, 2, 3, 5, 8);
    const int spatial = ctx.desc_of(sums).rank() - 2;
    const auto in_scale = ctx.emit(
        op::binary(binary_kind::mul),
        {scalar_parameter(ctx, 1, "x_scale"), slice_parameter(ctx, 4, spatial, "w_scale")});
    requantize(ctx, sums, in_scale, 6, 7);
}

/// QLinearMatMul: a_scale per tensor or per row of a, b_scale per tensor or per column of b.
void map_qlinear_matmul(context& ctx) {
    const auto sums = integer_matmul(ctx, 0, 2, 3, 5);
    const auto a_scale = ctx.input_dims(0).rank() >= 2 ? slice_parameter(ctx, 1, 1, "a_scale")
                                                       : scalar_parameter(ctx, 1, "a_scale");
    const auto b_scale = ctx.input_dims(3).rank() >= 2 ? slice_parameter(ctx, 4, 0, "b_scale")
                                                       : scalar_parameter(ctx, 4, "b_scale");
    const auto in_scale = ctx.emit(op::binary(binary_kind::mul), {a_scale, b_scale});
    requantize(ctx, sums, in_scale, 6, 7);
}

}  // namespace

void register_quantized(mapper_table& t) {
    t["ConvInteger"] = map_conv_integer;
    t["MatMulInteger"] = map_matmul_integer;
    t["QLinearConv"] = map_qlinear_conv;
    t["QLinearMatMul"] = map_qlinear_matmul;
}

}  // namespace tessera::onnx::detail
