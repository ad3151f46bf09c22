// tessera/ops/resize_bilinear.hpp: resize_bilinear, bilinear interpolation of H and W with
// TensorFlow's align_corners and half_pixel_centers coordinate rules (CLML ResizeBilinear).
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_data.h"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// ResizeBilinear. Input order: src N,C,H,W. Output N,C,out_h,out_w where the output size is
/// out_h/out_w when set (> 0), else floor(H*scale_h) / floor(W*scale_w). Floating or integer
/// (real values, rounded to nearest even, saturated) dtypes; not bool.
struct resize_bilinear
    : pod_op<resize_bilinear, tsr_resize_bilinear_params, TSR_OP_RESIZE_BILINEAR> {
    static constexpr std::string_view name = "resize_bilinear";

    resize_bilinear() = default;  // no size yet: set_size or set_scale
    resize_bilinear(std::int64_t h, std::int64_t w) { set_size(h, w); }

    resize_bilinear& set_size(std::int64_t h, std::int64_t w) {
        raw().out_h = h;
        raw().out_w = w;
        return *this;
    }
    resize_bilinear& set_scale(float sh, float sw) {
        raw().scale_h = sh;
        raw().scale_w = sw;
        return *this;
    }
    resize_bilinear& set_align_corners(bool on) {
        raw().align_corners = on ? 1 : 0;
        return *this;
    }
    resize_bilinear& set_half_pixel_centers(bool on) {
        raw().half_pixel_centers = on ? 1 : 0;
        return *this;
    }

    /// Corner pixels of input and output aligned: src = dst * (in - 1) / (out - 1).
    bool align_corners() const { return raw().align_corners != 0; }
    /// Pixel centres at +0.5: src = (dst + 0.5) * in / out - 0.5.
    bool half_pixel_centers() const { return raw().half_pixel_centers != 0; }
    /// Output height when > 0 (else from scale_h).
    std::int64_t out_h() const { return raw().out_h; }
    /// Output width when > 0 (else from scale_w).
    std::int64_t out_w() const { return raw().out_w; }
    /// Height scale, used when out_h is 0.
    float scale_h() const { return raw().scale_h; }
    /// Width scale, used when out_w is 0.
    float scale_w() const { return raw().scale_w; }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check_flag(check, "align_corners", raw().align_corners);
        check_flag(check, "half_pixel_centers", raw().half_pixel_centers);
        if (align_corners() && half_pixel_centers()) {
            check.fail("", "align_corners and half_pixel_centers cannot both be set");
        }
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check_valid_type(check, "src", src);
        if (src.type() == dtype::boolean) check.fail("src", "dtype bool cannot be interpolated");
        check.rank("src", src, 4);
        check.positive_dims("src", src);
        shape out = src.dims();
        out[2] = output_extent(check, "out_h", "scale_h", out_h(), scale_h(), src.dim(2));
        out[3] = output_extent(check, "out_w", "scale_w", out_w(), scale_w(), src.dim(3));
        check.fits("dst", out, src.type());
        return {output_like(out, src)};
    }

  private:
    static std::int64_t output_extent(const checker& check, const char* size_name,
                                      const char* scale_name, std::int64_t size, float scale,
                                      std::int64_t in) {
        if (size < 0)
            check.fail("",
                       std::string(size_name) + " is " + std::to_string(size) + ", must be >= 0");
        if (size > 0) return size;
        if (!std::isfinite(scale) || scale <= 0) {
            check.fail("", std::string("neither ") + size_name + " nor a positive " + scale_name +
                               " is set (" + scale_name + " = " + std::to_string(scale) + ")");
        }
        const auto scaled = detail::try_floor_to_int64(static_cast<double>(in) * scale);
        if (!scaled) {
            check.fail("", std::string(scale_name) + " " + std::to_string(scale) + " times " +
                               std::to_string(in) + " does not fit int64");
        }
        const std::int64_t r = *scaled;
        if (r < 1) {
            check.fail("", std::string(scale_name) + " " + std::to_string(scale) +
                               " gives an empty output from " + std::to_string(in));
        }
        return r;
    }
};

}  // namespace tessera::op
