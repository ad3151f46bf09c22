// ops_roi_align.cpp: ONNX RoiAlign (mode avg) for constant rois and batch_indices (bound graph
// inputs), lowered at load: the bilinear sampling grid of every region is a constant weight
// matrix over the input's H * W positions, so the output is a gather of each region's image and
// one batched matmul with those matrices.
#include <cmath>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

/// Adds the bilinear weights of sample (y, x) of an H x W image, scaled by `share`, into row
/// `column` of the [H * W, bins] matrix `m` (ONNX's RoiAlign sampling, edges clamped).
void add_bilinear_sample(host_tensor& m, std::int64_t bins, std::int64_t column, double y, double x,
                         std::int64_t height, std::int64_t width, double share) {
    if (y < -1.0 || y > static_cast<double>(height) || x < -1.0 || x > static_cast<double>(width))
        return;
    y = std::max(y, 0.0);
    x = std::max(x, 0.0);
    auto y_low = static_cast<std::int64_t>(y), x_low = static_cast<std::int64_t>(x);
    std::int64_t y_high = y_low + 1, x_high = x_low + 1;
    if (y_low >= height - 1) {
        y_low = y_high = height - 1;
        y = static_cast<double>(y_low);
    }
    if (x_low >= width - 1) {
        x_low = x_high = width - 1;
        x = static_cast<double>(x_low);
    }
    const double ly = y - static_cast<double>(y_low), lx = x - static_cast<double>(x_low);
    const double hy = 1.0 - ly, hx = 1.0 - lx;
    const auto add = [&](std::int64_t row, std::int64_t col, double weight) {
        const std::int64_t at = (row * width + col) * bins + column;
        set_real(m, at, m.real(at) + weight * share);
    };
    add(y_low, x_low, hy * hx);
    add(y_low, x_high, hy * lx);
    add(y_high, x_low, ly * hx);
    add(y_high, x_high, ly * lx);
}

}  // namespace

void map_roi_align(context& ctx) {
    if (ctx.attr_string("mode", "avg") != "avg") ctx.unsupported("mode 'max'");
    const auto x = ctx.tensor_input(0);
    const tensor_desc xdesc = ctx.desc_of(x);
    const shape xd = xdesc.dims();
    if (xd.rank() != 4) ctx.unsupported("input rank " + std::to_string(xd.rank()) + " is not 4");
    if (!is_floating(xdesc.type())) ctx.unsupported("X is not floating");
    const auto rois = reals(ctx.constant_input(1, "rois"));
    const auto batch_indices = integers(ctx.constant_input(2, "batch_indices"));
    const auto regions = static_cast<std::int64_t>(batch_indices.size());
    if (regions < 1 || rois.size() != batch_indices.size() * 4)
        ctx.unsupported("rois must be [num_rois, 4] with one batch index per region");
    const std::int64_t pooled_h = ctx.attr_int("output_height", 1),
                       pooled_w = ctx.attr_int("output_width", 1);
    const std::int64_t sampling_ratio = ctx.attr_int("sampling_ratio", 0);
    const double scale = ctx.attr_float("spatial_scale", 1.0f);
    if (pooled_h < 1 || pooled_w < 1 || sampling_ratio < 0)
        ctx.unsupported("output sizes must be >= 1 and sampling_ratio >= 0");
    const std::string transform =
        ctx.opset >= 16 ? ctx.attr_string("coordinate_transformation_mode", "half_pixel")
                        : "output_half_pixel";
    if (transform != "half_pixel" && transform != "output_half_pixel")
        ctx.unsupported("coordinate_transformation_mode '" + transform + "'");
    const bool half_pixel = transform == "half_pixel";
    const double offset = half_pixel ? 0.5 : 0.0;
    const std::int64_t height = xd[2], width = xd[3], bins = pooled_h * pooled_w;
    host_tensor weights = make_host(onnx_type(xdesc.type()), {regions, height * width, bins});
    host_tensor images = make_host(element_type::int32, {regions});
    for (std::int64_t r = 0; r < regions; ++r) {
        const std::int64_t b = batch_indices[static_cast<std::size_t>(r)];
        if (b < 0 || b >= xd[0])
            ctx.unsupported("batch index " + std::to_string(b) + " is outside the batch");
        set_integer(images, r, b);
        const double* box = &rois[static_cast<std::size_t>(r * 4)];
        const double start_w = box[0] * scale - offset, start_h = box[1] * scale - offset;
        double roi_w = box[2] * scale - offset - start_w, roi_h = box[3] * scale - offset - start_h;
        if (!half_pixel) {
            roi_w = std::max(roi_w, 1.0);
            roi_h = std::max(roi_h, 1.0);
        }
        const double bin_h = roi_h / static_cast<double>(pooled_h),
                     bin_w = roi_w / static_cast<double>(pooled_w);
        const auto grid_h =
            sampling_ratio > 0 ? sampling_ratio : static_cast<std::int64_t>(std::ceil(bin_h));
        const auto grid_w =
            sampling_ratio > 0 ? sampling_ratio : static_cast<std::int64_t>(std::ceil(bin_w));
        const double share = 1.0 / static_cast<double>(std::max<std::int64_t>(grid_h * grid_w, 1));
        host_tensor m = make_host(element_type::float64, {height * width, bins});
        for (std::int64_t ph = 0; ph < pooled_h; ++ph)
            for (std::int64_t pw = 0; pw < pooled_w; ++pw)
                for (std::int64_t iy = 0; iy < grid_h; ++iy)
                    for (std::int64_t ix = 0; ix < grid_w; ++ix) {
                        const double y =
                            start_h + static_cast<double>(ph) * bin_h +
                            (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
                        const double xs =
                            start_w + static_cast<double>(pw) * bin_w +
                            (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
                        add_bilinear_sample(m, bins, ph * pooled_w + pw, y, xs, height, width,
                                            share);
                    }
        for (std::int64_t i = 0; i < height * width * bins; ++i)
            set_real(weights, r * height * width * bins + i, m.real(i));
    }
    const auto picked =
        ctx.emit(op::gather(0), {x, ctx.constant_tensor(images, ctx.node_label + "/images")});
    const auto flat = ctx.reshape(picked, shape{regions, xd[1], height * width});
    const auto pooled =
        emit_matmul(ctx, flat, ctx.constant_tensor(weights, ctx.node_label + "/weights"), {});
    ctx.reshape(pooled, shape{regions, xd[1], pooled_h, pooled_w}, ctx.output_name(0));
}

}  // namespace tessera::onnx::detail
