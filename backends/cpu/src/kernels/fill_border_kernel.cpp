// FillBorderKernel: one plane (batch x channel or channel block) per window step.
#include "kernels/fill_border_kernel.hpp"

#include <algorithm>
#include <cstring>

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

void FillBorderKernel::configure(ITensor& tensor, const PaddingSize& border, BorderMode mode,
                                 float value) {
    const TensorInfo& info = tensor.info();
    const char* fn = "FillBorderKernel::configure";
    require(info.is_4d_layout() && info.data_type() == DataType::f32, fn, info.name(),
            "needs a 4-D f32 tensor");
    require(info.padding().covers(border), fn, info.name(), "border exceeds the tensor's padding");
    require(mode != BorderMode::undefined, fn, info.name(), "undefined borders are not filled");
    tensor_ = &tensor;
    border_ = border;
    mode_ = mode;
    value_ = value;
    const int64_t planes = info.n() * (info.layout() == DataLayout::nchw16c ? info.channel_blocks()
                                       : info.layout() == DataLayout::nchw  ? info.c()
                                                                            : 1);
    Window win;
    win.set(0, Window::Dimension(0, planes, 1));
    configure_window(win, 0, 1, !border.empty());
}

void FillBorderKernel::run(const Window& window, const ThreadInfo&) {
    if (border_.empty()) return;
    const TensorInfo& info = tensor_->info();
    const int64_t unit = info.layout() == DataLayout::nchw16c ? kChannelBlock
                         : info.layout() == DataLayout::nhwc  ? info.c()
                                                              : 1;
    const int64_t planes_per_n = info.layout() == DataLayout::nchw16c ? info.channel_blocks()
                                 : info.layout() == DataLayout::nchw  ? info.c()
                                                                      : 1;
    const int64_t sh = info.stride_h(), sw = info.stride_w();
    const int64_t h = info.h(), w = info.w();
    for (int64_t plane = window[0].start(); plane < window[0].end(); ++plane) {
        const int64_t n = plane / planes_per_n, p = plane % planes_per_n;
        const int64_t plane_offset =
            n * info.stride_n() + p * (info.layout() == DataLayout::nhwc ? 0 : info.stride_c());
        float* origin = tensor_->data<float>() + plane_offset;  // element (0, 0) of the plane
        auto px = [&](int64_t y, int64_t x) { return origin + y * sh + x * sw; };
        auto put = [&](int64_t y, int64_t x, int64_t sy, int64_t sx) {
            float* d = px(y, x);
            if (mode_ == BorderMode::constant) {
                std::fill(d, d + unit, value_);
            } else {
                std::memcpy(d, px(sy, sx), static_cast<std::size_t>(unit) * sizeof(float));
            }
        };
        // Left and right columns of the image rows.
        for (int64_t y = 0; y < h; ++y) {
            for (int64_t x = -border_.left; x < 0; ++x) put(y, x, y, 0);
            for (int64_t x = w; x < w + border_.right; ++x) put(y, x, y, w - 1);
        }
        // Top and bottom rows, full padded width.
        for (int64_t y = -border_.top; y < 0; ++y)
            for (int64_t x = -border_.left; x < w + border_.right; ++x)
                put(y, x, 0, std::clamp<int64_t>(x, 0, w - 1));
        for (int64_t y = h; y < h + border_.bottom; ++y)
            for (int64_t x = -border_.left; x < w + border_.right; ++x)
                put(y, x, h - 1, std::clamp<int64_t>(x, 0, w - 1));
    }
}

}  // namespace tessera::cpu
