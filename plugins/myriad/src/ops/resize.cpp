// ops/resize.cpp: resize_bilinear as the IR layer "Resample" (type caffe.ResampleParameter.LINEAR,
// antialias 0): OpenVINO's linear resampling samples output o at (o + 0.5) * in / out - 0.5
// clamped to the image, which is resize_bilinear with half_pixel_centers (the shipped
// resample_linear.cl). The other coordinate rules (align_corners, the asymmetric o * in / out)
// have no Resample form unless the size does not change, where every rule is the identity.
// `factor` (Resample's one scale for both axes) is passed when out/in is the same on both axes.
// Floating tensors only: integer outputs round and saturate, which the half kernel does not.
#include "ops.hpp"
#include "tessera/ops/resize_bilinear.hpp"

#include <cmath>

namespace tessera::plugins::myriad {

namespace {

layer_request describe_resize_bilinear(const op::resize_bilinear& o,
                                       const std::vector<tensor_desc>& inputs,
                                       const std::vector<tensor_desc>& outputs) {
    if (inputs.size() != 1 || outputs.size() != 1)
        decline(TSR_REASON_INVALID, "resize_bilinear takes one input and one output");
    const tensor_desc& src = inputs[0];
    const tensor_desc& dst = outputs[0];
    if (src.type() != dtype::f32 && src.type() != dtype::f16)
        decline(TSR_REASON_DTYPE,
                "Resample here takes f32 or f16 tensors (integer outputs round "
                "and saturate)");
    const std::int64_t ih = src.dim(2), iw = src.dim(3), oh = dst.dim(2), ow = dst.dim(3);
    if (!o.half_pixel_centers() && (ih != oh || iw != ow))
        decline(TSR_REASON_ATTRIBUTE,
                std::string(o.align_corners() ? "align_corners" : "asymmetric (o * in / out)") +
                    " coordinates have no Resample form (Resample LINEAR samples at half-pixel "
                    "centres)");
    layer_request r;
    r.type = "Resample";
    r.params = {{"type", "caffe.ResampleParameter.LINEAR"}, {"antialias", "0"}};
    const double factor = static_cast<double>(oh) / static_cast<double>(ih);
    if (std::round(static_cast<double>(iw) * factor) == static_cast<double>(ow) &&
        std::round(static_cast<double>(ih) * factor) == static_cast<double>(oh)) {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", factor);
        r.params["factor"] = text;
    }
    r.ports = {0};
    return r;
}

}  // namespace

void state_resize(router& r) {
    state_layer<op::resize_bilinear>(r, &describe_resize_bilinear);
}

}  // namespace tessera::plugins::myriad
