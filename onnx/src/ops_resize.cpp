// ops_resize.cpp: ONNX Resize (opset 10+) and Upsample (opsets 1-9). Linear resizes of H and W to
// whole sizes map onto Tessera's resize_bilinear; every other form is lowered one resized axis at a
// time with tables computed at load from the static shapes: nearest as a gather of source indices,
// linear and cubic as a matmul with the axis's interpolation matrix (the taps and weights of ONNX's
// coordinate transformations, edge clamping and exclude_outside).
#include <cmath>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// How one axis is resized: its extents, the scale used by the coordinate transformation and the
/// node's attributes.
struct axis_resize {
    std::int64_t in = 0, out = 0;
    double scale = 1.0;
};

struct resize_attributes {
    std::string mode = "nearest";
    std::string transform = "half_pixel";
    std::string nearest_mode = "round_prefer_floor";  ///< "simple": Upsample and Resize-10
    double cubic_a = -0.75;
    bool exclude_outside = false;
};

/// The source coordinate of output index x (ONNX's coordinate_transformation_mode).
double source_coordinate(const context& ctx, const resize_attributes& r, const axis_resize& a,
                         std::int64_t x) {
    const double xr = static_cast<double>(x);
    const double out_length = a.scale * static_cast<double>(a.in);
    if (r.transform == "half_pixel") return (xr + 0.5) / a.scale - 0.5;
    if (r.transform == "pytorch_half_pixel")
        return out_length == 1.0 ? -0.5 : (xr + 0.5) / a.scale - 0.5;
    if (r.transform == "asymmetric") return xr / a.scale;
    if (r.transform == "tf_half_pixel_for_nn") return (xr + 0.5) / a.scale;
    if (r.transform == "align_corners")
        return out_length == 1.0 ? 0.0 : xr * static_cast<double>(a.in - 1) / (out_length - 1.0);
    ctx.unsupported("coordinate_transformation_mode '" + r.transform + "'");
}

std::int64_t clamp_index(std::int64_t i, std::int64_t n) {
    return std::min(std::max<std::int64_t>(i, 0), n - 1);
}

/// The source index nearest mode picks for output index x.
std::int64_t nearest_source(const context& ctx, const resize_attributes& r, const axis_resize& a,
                            std::int64_t x) {
    const double c = source_coordinate(ctx, r, a, x);
    double picked = 0;
    if (r.nearest_mode == "simple")  // upsampling floors, downsampling takes the ceiling
        picked = a.scale >= 1.0 ? std::floor(c) : std::ceil(c);
    else if (c == std::floor(c))
        picked = c;
    else if (r.nearest_mode == "round_prefer_floor")
        picked = c - std::floor(c) <= 0.5 ? std::floor(c) : std::ceil(c);
    else if (r.nearest_mode == "round_prefer_ceil")
        picked = c - std::floor(c) < 0.5 ? std::floor(c) : std::ceil(c);
    else if (r.nearest_mode == "floor")
        picked = std::floor(c);
    else if (r.nearest_mode == "ceil")
        picked = std::ceil(c);
    else
        ctx.unsupported("nearest_mode '" + r.nearest_mode + "'");
    return clamp_index(static_cast<std::int64_t>(picked), a.in);
}

/// Weights of the taps base - 1 .. base + 2 (cubic) or base .. base + 1 (linear) at `ratio`.
std::vector<double> tap_weights(const resize_attributes& r, double ratio) {
    if (r.mode == "linear") return {1.0 - ratio, ratio};
    const double a = r.cubic_a;
    const auto near = [a](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };
    const auto far = [a](double d) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; };
    return {far(ratio + 1), near(ratio), near(1 - ratio), far(2 - ratio)};
}

/// The [in, out] matrix M of a linear or cubic resize: y[.., j] = sum_i x[.., i] M[i, j].
host_tensor interpolation_matrix(const context& ctx, const resize_attributes& r,
                                 const axis_resize& a, element_type type) {
    std::vector<double> m(static_cast<std::size_t>(a.in * a.out), 0.0);
    const std::int64_t first_tap = r.mode == "linear" ? 0 : -1;
    for (std::int64_t j = 0; j < a.out; ++j) {
        const double c = source_coordinate(ctx, r, a, j);
        // The pixel left of c is the base; an integral c is the right end of its interval.
        const double base = std::ceil(c) - 1;
        auto weights = tap_weights(r, c - base);
        const auto base_index = static_cast<std::int64_t>(base);
        if (r.exclude_outside) {
            double sum = 0;
            for (std::size_t t = 0; t < weights.size(); ++t) {
                const std::int64_t i = base_index + first_tap + static_cast<std::int64_t>(t);
                if (i < 0 || i >= a.in) weights[t] = 0;
                sum += weights[t];
            }
            if (sum != 0)
                for (auto& w : weights) w /= sum;
        }
        for (std::size_t t = 0; t < weights.size(); ++t) {
            const std::int64_t i =
                clamp_index(base_index + first_tap + static_cast<std::int64_t>(t), a.in);
            m[static_cast<std::size_t>(i * a.out + j)] += weights[t];
        }
    }
    host_tensor t = make_host(type, {a.in, a.out});
    for (std::size_t i = 0; i < m.size(); ++i) set_real(t, static_cast<std::int64_t>(i), m[i]);
    return t;
}

/// Resizes dim `axis` of x: a gather of source indices (nearest) or, viewing x as
/// [outer, in, inner], the product M^T [out, in] x [outer, in, inner].
graph::tensor_id resize_axis(context& ctx, const resize_attributes& r, graph::tensor_id x, int axis,
                             const axis_resize& a, const std::string& out) {
    if (r.mode == "nearest") {
        host_tensor idx = make_host(element_type::int32, {a.out});
        for (std::int64_t j = 0; j < a.out; ++j) set_integer(idx, j, nearest_source(ctx, r, a, j));
        const auto indices = ctx.constant_tensor(idx, ctx.node_label + "/indices");
        return ctx.emit(op::gather(axis), {x, indices}, out);
    }
    const tensor_desc d = ctx.desc_of(x);
    if (!is_floating(d.type()))
        ctx.unsupported("linear and cubic resizes of dtype " + std::string(to_string(d.type())) +
                        " (floating types only)");
    const host_tensor m = interpolation_matrix(ctx, r, a, onnx_type(d.type()));
    host_tensor mt = make_host(m.type, {a.out, a.in});
    for (std::int64_t i = 0; i < a.in; ++i)
        for (std::int64_t j = 0; j < a.out; ++j) set_real(mt, j * a.in + i, m.real(i * a.out + j));
    std::int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k) outer *= d.dims()[k];
    for (int k = axis + 1; k < d.rank(); ++k) inner *= d.dims()[k];
    const auto x3 = ctx.reshape(x, shape{outer, a.in, inner});
    const auto y3 =
        ctx.emit(op::matmul(), {ctx.constant_tensor(mt, ctx.node_label + "/weights"), x3});
    shape out_dims = d.dims();
    out_dims[axis] = a.out;
    return ctx.reshape(y3, out_dims, out);
}

}  // namespace

void map_resize(context& ctx, bool upsample) {
    const tensor_desc xd = ctx.input_desc(0);
    const int rank = xd.rank();
    resize_attributes r;
    r.mode = ctx.attr_string("mode", "nearest");
    if (r.mode == "bilinear") r.mode = "linear";  // Upsample's name for it
    if (r.mode != "nearest" && r.mode != "linear" && r.mode != "cubic")
        ctx.unsupported("mode '" + r.mode + "'");
    std::vector<double> scales;
    std::vector<std::int64_t> sizes;
    if (upsample) {
        r.transform = "asymmetric";
        r.nearest_mode = "simple";
        if (ctx.opset < 7) {  // Upsample-1: height_scale and width_scale of a 4-D input
            scales = {1.0, 1.0, ctx.attr_float("height_scale", 0.0f),
                      ctx.attr_float("width_scale", 0.0f)};
        } else if (ctx.opset < 9) {
            for (float s : ctx.attr_floats("scales")) scales.push_back(s);
        } else {
            scales = reals(ctx.constant_input(1, "scales"));
        }
    } else {
        r.transform = ctx.attr_string("coordinate_transformation_mode",
                                      ctx.opset < 11 ? "asymmetric" : "half_pixel");
        if (ctx.opset < 11)
            r.nearest_mode = "simple";
        else
            r.nearest_mode = ctx.attr_string("nearest_mode", "round_prefer_floor");
        r.cubic_a = ctx.attr_float("cubic_coeff_a", -0.75f);
        r.exclude_outside = ctx.attr_int("exclude_outside", 0) != 0;
        const std::size_t scales_at = ctx.opset < 11 ? 1 : 2;
        if (ctx.has_input(scales_at)) {
            const auto& s = ctx.constant_input(scales_at, "scales");
            if (s.num_elements() > 0) scales = reals(s);
        }
        if (ctx.opset >= 11 && ctx.has_input(3)) sizes = integers(ctx.constant_input(3, "sizes"));
        if (ctx.attr_int("antialias", 0) != 0) ctx.unsupported("antialias = 1");
        if (ctx.attr("axes")) ctx.unsupported("attribute axes");
        const auto ratio = ctx.attr_string("keep_aspect_ratio_policy", "stretch");
        if (ratio != "stretch") ctx.unsupported("keep_aspect_ratio_policy '" + ratio + "'");
    }
    if (r.transform == "tf_crop_and_resize")
        ctx.unsupported("coordinate_transformation_mode 'tf_crop_and_resize' (roi)");
    std::vector<axis_resize> axes(static_cast<std::size_t>(rank));
    if (!sizes.empty()) {
        if (static_cast<int>(sizes.size()) != rank)
            ctx.unsupported("sizes must hold one value per dim");
        for (int i = 0; i < rank; ++i) {
            auto& a = axes[static_cast<std::size_t>(i)];
            a.in = xd.dims()[i];
            a.out = sizes[static_cast<std::size_t>(i)];
            if (a.out < 1 || a.in < 1) ctx.unsupported("empty dims cannot be resized");
            a.scale = static_cast<double>(a.out) / static_cast<double>(a.in);
        }
    } else {
        if (static_cast<int>(scales.size()) != rank)
            ctx.unsupported("scales must hold one value per dim");
        for (int i = 0; i < rank; ++i) {
            auto& a = axes[static_cast<std::size_t>(i)];
            a.in = xd.dims()[i];
            a.scale = scales[static_cast<std::size_t>(i)];
            if (!(a.scale > 0) || !std::isfinite(a.scale))
                ctx.unsupported("scale " + std::to_string(a.scale) + " is not positive");
            a.out = static_cast<std::int64_t>(std::floor(static_cast<double>(a.in) * a.scale));
            if (a.out < 1 || a.in < 1) ctx.unsupported("a scale gives an empty dim");
        }
    }
    std::vector<int> resized;
    for (int i = 0; i < rank; ++i) {
        const auto& a = axes[static_cast<std::size_t>(i)];
        if (a.out != a.in || a.scale != 1.0) resized.push_back(i);
    }
    const std::string& out = ctx.output_name(0);
    auto x = ctx.tensor_input(0);
    // Tessera's resize_bilinear: linear on H and W of a 4-D tensor to whole scaled sizes.
    const bool whole = [&] {
        if (!sizes.empty()) return true;
        for (const auto& a : axes)
            if (static_cast<double>(a.out) != static_cast<double>(a.in) * a.scale) return false;
        return true;
    }();
    const bool hw_only = rank == 4 && axes[0].out == axes[0].in && axes[1].out == axes[1].in;
    const bool single_row_or_column = rank == 4 && (axes[2].out == 1 || axes[3].out == 1);
    if (r.mode == "linear" && hw_only && whole &&
        !(r.transform == "pytorch_half_pixel" && single_row_or_column) &&
        (r.transform == "align_corners" || r.transform == "half_pixel" ||
         r.transform == "pytorch_half_pixel" || r.transform == "asymmetric")) {
        op::resize_bilinear rb(axes[2].out, axes[3].out);
        if (r.transform == "align_corners")
            rb.set_align_corners(true);
        else if (r.transform != "asymmetric")
            rb.set_half_pixel_centers(true);
        ctx.emit(rb, {x}, out);
        return;
    }
    if (resized.empty()) {
        ctx.reshape(x, xd.dims(), out);
        return;
    }
    for (std::size_t k = 0; k < resized.size(); ++k) {
        const int axis = resized[k];
        x = resize_axis(ctx, r, x, axis, axes[static_cast<std::size_t>(axis)],
                        k + 1 == resized.size() ? out : std::string());
    }
}

}  // namespace tessera::onnx::detail
