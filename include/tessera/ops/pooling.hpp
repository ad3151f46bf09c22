// tessera/ops/pooling.hpp: pooling (CLML, OpenVX, ACL, zDNN avgpool2d/maxpool2d): max, average
// including or excluding padding, global max and global average over N, C, H, W images.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/ops/compute_common.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/setters.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// 2-D pooling. Inputs: 0 src [N, C, H, W]. Output [N, C, OH, OW] (1x1 for the global modes).
/// Padding: explicit (top, bottom, left, right), SAME or VALID as for conv2d; explicit padding
/// must be smaller than the kernel. Max pooling ignores padding; AVERAGE_INCLUDE_PADDING divides by
/// the window positions inside the padded input (the ceil overhang does not count),
/// AVERAGE_EXCLUDE_PADDING by the positions inside the input. Integer types: i8/u8 pool the
/// quantised values (same scale, assumed positive), averages rounded with `rounding`; i16 likewise.
/// Spec mapping: zDNN avgpool2d/maxpool2d with strides 0 (the kernel covers the whole input) are
/// GLOBAL_AVERAGE/GLOBAL_MAX; TensorFlow-style SAME average pooling is AVERAGE_EXCLUDE_PADDING.
struct pooling : pod_op<pooling, tsr_pooling_params, TSR_OP_POOLING>, window_setters<pooling> {
    static constexpr std::string_view name = "pooling";
    friend struct window_setters<pooling>;

    pooling() {
        mode = TSR_POOL_MAX;
        padding_mode = TSR_PADDING_EXPLICIT;
        kernel_h = kernel_w = 1;
        stride_h = stride_w = 1;
        output_rounding = TSR_OUTPUT_FLOOR;
        raw().rounding = TSR_ROUND_TO_NEAREST_EVEN;
    }
    explicit pooling(tsr_pooling_mode m) : pooling() { mode = m; }

    pooling& kind(tsr_pooling_mode m) {
        mode = m;
        return *this;
    }
    explicit pooling(pooling_kind k) : pooling(to_c(k)) {}
    pooling& kind(pooling_kind k) { return kind(to_c(k)); }
    /// The mode as a typed value (throws for a raw value outside the enum).
    pooling_kind kind() const { return tessera::from_c<pooling_kind>(mode); }
    pooling& kernel(int h, int w) {
        kernel_h = h;
        kernel_w = w;
        return *this;
    }

    /// Integer averages: how they round (default to nearest even).
    pooling& set_rounding(rounding_policy r) {
        raw().rounding = to_c(r);
        return *this;
    }
    /// The window size, height then width (the global modes cover the whole input instead).
    hw kernel() const { return {kernel_h, kernel_w}; }
    /// Integer averages: how they round (throws for a raw value outside the enum).
    rounding_policy rounding() const { return tessera::from_c<rounding_policy>(raw().rounding); }

    bool global() const { return mode == TSR_POOL_GLOBAL_MAX || mode == TSR_POOL_GLOBAL_AVERAGE; }
    bool is_max() const { return mode == TSR_POOL_MAX || mode == TSR_POOL_GLOBAL_MAX; }

    /// Resolved window: kernel, stride and per-dimension padding and output extents.
    struct geometry_t {
        std::int64_t n = 0, c = 0, h = 0, w = 0, kh = 1, kw = 1, sh = 1, sw = 1;
        spatial_extent y, x;
    };
    geometry_t geometry(const tensor_desc& src) const {
        const checker check{name};
        check.enum_in_range("mode", mode, TSR_POOL_MAX, TSR_POOL_GLOBAL_AVERAGE);
        check.enum_in_range("padding_mode", padding_mode, TSR_PADDING_EXPLICIT, TSR_PADDING_VALID);
        check.enum_in_range("output_rounding", output_rounding, TSR_OUTPUT_FLOOR, TSR_OUTPUT_CEIL);
        check.enum_in_range("rounding", raw().rounding, TSR_ROUND_TO_ZERO,
                            TSR_ROUND_TO_NEAREST_EVEN);
        check.rank("src", src, 4);
        check.positive_dims("src", src);
        geometry_t g;
        g.n = src.dim(0);
        g.c = src.dim(1);
        g.h = src.dim(2);
        g.w = src.dim(3);
        if (global()) {
            g.kh = g.h;
            g.kw = g.w;
            g.y.out = g.x.out = 1;
            return g;
        }
        check.positive("kernel_h", kernel_h);
        check.positive("kernel_w", kernel_w);
        check.positive("stride_h", stride_h);
        check.positive("stride_w", stride_w);
        if (padding_mode == TSR_PADDING_EXPLICIT) {
            const int pads[] = {pad_top, pad_bottom, pad_left, pad_right};
            const char* names[] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
            const int kernels[] = {kernel_h, kernel_h, kernel_w, kernel_w};
            for (int i = 0; i < 4; ++i) {
                if (pads[i] < 0 || pads[i] >= kernels[i]) {
                    check.fail("", std::string(names[i]) + " is " + std::to_string(pads[i]) +
                                       ", must be >= 0 and smaller than the kernel " +
                                       std::to_string(kernels[i]));
                }
            }
        }
        g.kh = kernel_h;
        g.kw = kernel_w;
        g.sh = stride_h;
        g.sw = stride_w;
        g.y = window_extent(check, "2 (H)", g.h, g.kh, g.sh, padding_mode, pad_top, pad_bottom,
                            output_rounding);
        g.x = window_extent(check, "3 (W)", g.w, g.kw, g.sw, padding_mode, pad_left, pad_right,
                            output_rounding);
        return g;
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const checker check{name};
        check.count(inputs, 1, 1);
        const tensor_desc& src = inputs[0];
        check.type_in("src", src,
                      {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16, dtype::i16, dtype::i8,
                       dtype::u8});
        const geometry_t g = geometry(src);
        return {output_like(image_shape(g.n, g.c, g.y.out, g.x.out), src)};
    }
};

}  // namespace tessera::op
