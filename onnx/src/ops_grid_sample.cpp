// ops_grid_sample.cpp: ONNX GridSample (4-D; nearest, bilinear and bicubic; zeros, border and
// reflection padding) lowered at load onto element-wise ops, compare, where and reduce: the grid's
// normalised
// coordinates become pixel coordinates, each tap's flat position y * W + x is compared with a
// ramp over the input's H * W positions, and the matching pixel is summed out, so a tap outside
// the image (zeros padding) selects nothing. The [taps, H * W] mask suits small images.
#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

graph::tensor_id f32_scalar(context& ctx, double v, const std::string& hint) {
    host_tensor t = make_host(element_type::float32, {});
    set_real(t, 0, v);
    return ctx.constant_tensor(t, ctx.node_label + "/" + hint);
}

graph::tensor_id scaled_shifted(context& ctx, graph::tensor_id t, double a, double b) {
    return ctx.emit(
        op::activation(activation_kind::linear, static_cast<float>(a), static_cast<float>(b)), {t});
}

graph::tensor_id binary_of(context& ctx, binary_kind kind, graph::tensor_id a, graph::tensor_id b) {
    return ctx.emit(op::binary(kind), {a, b});
}

/// Sampling state: the input as [N, C, 1, H * W] and the ramp of its positions.
struct grid_input {
    graph::tensor_id pixels = -1, ramp = -1;
    std::int64_t height = 0, width = 0;
    bool zeros = true;
};

/// The input's pixels at integer coordinates (xi, yi) ([N, 1, P, 1] each) as [N, C, P]; outside
/// the image: 0 (zeros) or the nearest border pixel (border).
graph::tensor_id tap(context& ctx, const grid_input& in, graph::tensor_id xi, graph::tensor_id yi) {
    const double w_max = static_cast<double>(in.width - 1),
                 h_max = static_cast<double>(in.height - 1);
    graph::tensor_id valid = -1;
    if (in.zeros) {
        const auto inside = [&](graph::tensor_id v, double hi) {
            const auto low = ctx.emit(op::compare(compare_kind::greater_equal),
                                      {v, f32_scalar(ctx, 0.0, "zero")});
            const auto high =
                ctx.emit(op::compare(compare_kind::less_equal), {v, f32_scalar(ctx, hi, "max")});
            return ctx.emit(op::logical(logical_kind::and_), {low, high});
        };
        valid = ctx.emit(op::logical(logical_kind::and_), {inside(xi, w_max), inside(yi, h_max)});
    } else {
        xi = ctx.emit(op::activation(activation_kind::clip, 0.0f, static_cast<float>(w_max)), {xi});
        yi = ctx.emit(op::activation(activation_kind::clip, 0.0f, static_cast<float>(h_max)), {yi});
    }
    auto flat = binary_of(ctx, binary_kind::add,
                          scaled_shifted(ctx, yi, static_cast<double>(in.width), 0.0), xi);
    if (in.zeros) flat = ctx.emit(op::where{}, {valid, flat, f32_scalar(ctx, -1.0, "nowhere")});
    const auto mask = ctx.emit(op::compare(compare_kind::equal), {flat, in.ramp});
    const auto picked = ctx.emit(op::where{}, {mask, in.pixels, f32_scalar(ctx, 0.0, "zero")});
    op::reduce sum(reduce_kind::sum);
    sum.along(3).keep(false);
    return ctx.emit(sum, {picked});
}

/// Reflection padding: the coordinate reflected into [low, high] (edges at -0.5 and size - 0.5,
/// or 0 and size - 1 with align_corners), then clamped into the image.
graph::tensor_id reflect(context& ctx, graph::tensor_id v, std::int64_t size, bool align) {
    const double low = align ? 0.0 : -0.5;
    const double span = align ? static_cast<double>(size - 1) : static_cast<double>(size);
    if (span <= 0) return scaled_shifted(ctx, v, 0.0, 0.0);
    const auto distance = ctx.emit(op::unary(unary_kind::abs), {scaled_shifted(ctx, v, 1.0, -low)});
    const auto flips =
        ctx.emit(op::unary(unary_kind::floor),
                 {binary_of(ctx, binary_kind::div, distance, f32_scalar(ctx, span, "span"))});
    const auto extra =
        binary_of(ctx, binary_kind::sub, distance, scaled_shifted(ctx, flips, span, 0.0));
    const auto half_flips =
        ctx.emit(op::unary(unary_kind::floor), {scaled_shifted(ctx, flips, 0.5, 0.0)});
    const auto parity =
        binary_of(ctx, binary_kind::sub, flips, scaled_shifted(ctx, half_flips, 2.0, 0.0));
    const auto even =
        ctx.emit(op::compare(compare_kind::equal), {parity, f32_scalar(ctx, 0.0, "zero")});
    const auto reflected = ctx.emit(op::where{}, {even, scaled_shifted(ctx, extra, 1.0, low),
                                                  scaled_shifted(ctx, extra, -1.0, span + low)});
    return ctx.emit(op::activation(activation_kind::clip, 0.0f, static_cast<float>(size - 1)),
                    {reflected});
}

/// Bicubic: 4 x 4 taps around (ix, iy) weighted by the cubic convolution kernel (A = -0.75).
graph::tensor_id bicubic(context& ctx, const grid_input& in, graph::tensor_id ix,
                         graph::tensor_id iy, std::int64_t n, std::int64_t points) {
    constexpr double a = -0.75;
    const auto mul = [&](graph::tensor_id p, graph::tensor_id q) {
        return binary_of(ctx, binary_kind::mul, p, q);
    };
    // |d| <= 1: ((a + 2) d - (a + 3)) d^2 + 1;  1 < |d| < 2: ((a d - 5 a) d + 8 a) d - 4 a.
    const auto near = [&](graph::tensor_id d) {
        return scaled_shifted(ctx, mul(mul(scaled_shifted(ctx, d, a + 2, -(a + 3)), d), d), 1.0,
                              1.0);
    };
    const auto far = [&](graph::tensor_id d) {
        const auto inner =
            scaled_shifted(ctx, mul(scaled_shifted(ctx, d, a, -5 * a), d), 1.0, 8 * a);
        return scaled_shifted(ctx, mul(inner, d), 1.0, -4 * a);
    };
    const auto taps = [&](graph::tensor_id v, std::vector<graph::tensor_id>& at,
                          std::vector<graph::tensor_id>& weight) {
        const auto base = ctx.emit(op::unary(unary_kind::floor), {v});
        const auto t = binary_of(ctx, binary_kind::sub, v, base);
        weight = {far(scaled_shifted(ctx, t, 1.0, 1.0)), near(t),
                  near(scaled_shifted(ctx, t, -1.0, 1.0)), far(scaled_shifted(ctx, t, -1.0, 2.0))};
        for (int k = -1; k <= 2; ++k) at.push_back(scaled_shifted(ctx, base, 1.0, k));
    };
    std::vector<graph::tensor_id> xs, ys, wx, wy;
    taps(ix, xs, wx);
    taps(iy, ys, wy);
    graph::tensor_id sum = -1;
    for (std::size_t j = 0; j < 4; ++j)
        for (std::size_t i = 0; i < 4; ++i) {
            const auto weight = ctx.reshape(mul(wx[i], wy[j]), shape{n, 1, points});
            const auto term = mul(tap(ctx, in, xs[i], ys[j]), weight);
            sum = sum < 0 ? term : binary_of(ctx, binary_kind::add, sum, term);
        }
    return sum;
}

}  // namespace

void map_grid_sample(context& ctx) {
    const auto x = ctx.tensor_input(0), grid = ctx.tensor_input(1);
    const shape xd = ctx.desc_of(x).dims(), gd = ctx.desc_of(grid).dims();
    if (xd.rank() != 4) ctx.unsupported("only 4-D inputs are supported");
    if (ctx.desc_of(x).type() != dtype::f32 || ctx.desc_of(grid).type() != dtype::f32)
        ctx.unsupported("X and grid must be f32");
    if (gd.rank() != 4 || gd[0] != xd[0] || gd[3] != 2) ctx.unsupported("grid is not [N, H, W, 2]");
    const std::string mode = ctx.attr_string("mode", "bilinear");
    const std::string padding = ctx.attr_string("padding_mode", "zeros");
    if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
        ctx.unsupported("mode '" + mode + "'");
    if (mode == "bicubic" && padding == "reflection")
        ctx.unsupported("bicubic with reflection padding");
    if (padding != "zeros" && padding != "border" && padding != "reflection")
        ctx.unsupported("padding_mode '" + padding + "'");
    const bool align = ctx.attr_int("align_corners", 0) != 0;
    const std::int64_t n = xd[0], c = xd[1], h = xd[2], w = xd[3], points = gd[1] * gd[2];
    grid_input in;
    in.height = h;
    in.width = w;
    in.zeros = padding != "border";  // reflected coordinates stay inside; outer taps weigh 0
    in.pixels = ctx.reshape(x, shape{n, c, 1, h * w});
    host_tensor ramp = make_host(element_type::float32, {1, 1, 1, h * w});
    for (std::int64_t i = 0; i < h * w; ++i) set_real(ramp, i, static_cast<double>(i));
    in.ramp = ctx.constant_tensor(ramp, ctx.node_label + "/ramp");
    // Pixel coordinate along an extent from the normalised [-1, 1] grid component k.
    const auto coordinate = [&](std::int64_t k, std::int64_t extent) {
        op::slice s;
        s.set_dim(3, k, k + 1);
        const auto g = ctx.reshape(ctx.emit(s, {grid}), shape{n, 1, points, 1});
        const double e = static_cast<double>(extent);
        return align ? scaled_shifted(ctx, g, (e - 1) / 2, (e - 1) / 2)
                     : scaled_shifted(ctx, g, e / 2, (e - 1) / 2);
    };
    auto ix = coordinate(0, w), iy = coordinate(1, h);
    if (padding == "reflection") {
        ix = reflect(ctx, ix, w, align);
        iy = reflect(ctx, iy, h, align);
    }
    graph::tensor_id y;
    if (mode == "nearest") {
        y = tap(ctx, in, ctx.emit(op::unary(unary_kind::round), {ix}),
                ctx.emit(op::unary(unary_kind::round), {iy}));
    } else if (mode == "bicubic") {
        y = bicubic(ctx, in, ix, iy, n, points);
    } else {
        const auto x0 = ctx.emit(op::unary(unary_kind::floor), {ix});
        const auto y0 = ctx.emit(op::unary(unary_kind::floor), {iy});
        const auto x1 = scaled_shifted(ctx, x0, 1.0, 1.0), y1 = scaled_shifted(ctx, y0, 1.0, 1.0);
        const auto wx1 = binary_of(ctx, binary_kind::sub, ix, x0);
        const auto wy1 = binary_of(ctx, binary_kind::sub, iy, y0);
        const auto wx0 = scaled_shifted(ctx, wx1, -1.0, 1.0),
                   wy0 = scaled_shifted(ctx, wy1, -1.0, 1.0);
        const auto weighted = [&](graph::tensor_id xi, graph::tensor_id yi, graph::tensor_id wx,
                                  graph::tensor_id wy) {
            const auto weight =
                ctx.reshape(binary_of(ctx, binary_kind::mul, wx, wy), shape{n, 1, points});
            return binary_of(ctx, binary_kind::mul, tap(ctx, in, xi, yi), weight);
        };
        y = binary_of(ctx, binary_kind::add, weighted(x0, y0, wx0, wy0),
                      weighted(x1, y0, wx1, wy0));
        y = binary_of(ctx, binary_kind::add, y, weighted(x0, y1, wx0, wy1));
        y = binary_of(ctx, binary_kind::add, y, weighted(x1, y1, wx1, wy1));
    }
    ctx.reshape(y, shape{n, c, gd[1], gd[2]}, ctx.output_name(0));
}

}  // namespace tessera::onnx::detail
