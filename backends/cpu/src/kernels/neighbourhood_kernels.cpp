// DepthwiseConvKernel and PoolingKernel: per output row, call the SIMD row kernels.
#include "kernels/neighbourhood_kernels.hpp"

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

Window blocked_rows_window(const TensorInfo& dst, const OutputRect& rect) {
    Window win;
    win.set(0, Window::Dimension(0, dst.channel_blocks(), 1));
    win.set(1, Window::Dimension(rect.oh_begin, std::max(rect.oh_begin, rect.oh_end), 1));
    win.set(2, Window::Dimension(0, dst.n(), 1));
    return win;
}

namespace {
std::size_t split_dimension_for(const Window& win) {
    if (win.num_iterations(2) >= 2 && win.num_iterations(2) >= win.num_iterations(1)) return 2;
    return win.num_iterations(1) >= 8 || win.num_iterations(0) < 2 ? 1 : 0;
}
}  // namespace

void DepthwiseConvKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                                    const Conv2dGeometry& g, int64_t kh, int64_t kw,
                                    const OutputRect& rect, const ActivationInfo& act) {
    const char* fn = "DepthwiseConvKernel::configure";
    require(src.info().layout() == DataLayout::nchw16c && src.info().data_type() == DataType::f32,
            fn, src.info().name(), "needs f32 nchw16c");
    require(dst.info().layout() == DataLayout::nchw16c && dst.info().data_type() == DataType::f32,
            fn, dst.info().name(), "needs f32 nchw16c");
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    g_ = g;
    kh_ = kh;
    kw_ = kw;
    rect_ = rect;
    act_ = act;
    const Window win = blocked_rows_window(dst.info(), rect);
    configure_window(win, split_dimension_for(win), 1);
}

void DepthwiseConvKernel::run(const Window& w, const ThreadInfo&) {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    DepthwiseRowArgs a;
    a.count = rect_.ow_end - rect_.ow_begin;
    if (a.count <= 0) return;
    a.src_pixel_step = g_.stride_w * s.stride_w();
    a.src_row = s.stride_h();
    a.kh = kh_;
    a.kw = kw_;
    a.dil_h = g_.dilation_h;
    a.dil_w = g_.dilation_w;
    a.act = act_;
    for (int64_t n = w[2].start(); n < w[2].end(); ++n)
        for (int64_t cb = w[0].start(); cb < w[0].end(); ++cb)
            for (int64_t oh = w[1].start(); oh < w[1].end(); ++oh) {
                a.src = src_->data<float>() + n * s.stride_n() + cb * s.stride_c() +
                        (oh * g_.stride_h - g_.pad_top) * s.stride_h() +
                        (rect_.ow_begin * g_.stride_w - g_.pad_left) * s.stride_w();
                a.dst = dst_->data<float>() + n * d.stride_n() + cb * d.stride_c() +
                        oh * d.stride_h() + rect_.ow_begin * d.stride_w();
                a.weights = weights_ + cb * kh_ * kw_ * kChannelBlock;
                a.bias = bias_ ? bias_ + cb * kChannelBlock : nullptr;
                table_->depthwise_row(a);
            }
}

void PoolingKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst, bool max,
                              int64_t kh, int64_t kw, int64_t stride_h, int64_t stride_w,
                              int64_t pad_top, int64_t pad_left, const float* divisors) {
    const char* fn = "PoolingKernel::configure";
    require(src.info().layout() == DataLayout::nchw16c && src.info().data_type() == DataType::f32,
            fn, src.info().name(), "needs f32 nchw16c");
    require(dst.info().layout() == DataLayout::nchw16c && dst.info().data_type() == DataType::f32,
            fn, dst.info().name(), "needs f32 nchw16c");
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    max_ = max;
    kh_ = kh;
    kw_ = kw;
    sh_ = stride_h;
    sw_ = stride_w;
    pt_ = pad_top;
    pl_ = pad_left;
    divisors_ = divisors;
    const Window win =
        blocked_rows_window(dst.info(), OutputRect{0, dst.info().h(), 0, dst.info().w()});
    configure_window(win, split_dimension_for(win), 1);
}

void PoolingKernel::run(const Window& w, const ThreadInfo&) {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    PoolRowArgs a;
    a.count = d.w();
    a.src_pixel_step = sw_ * s.stride_w();
    a.src_row = s.stride_h();
    a.kh = kh_;
    a.kw = kw_;
    a.max = max_;
    for (int64_t n = w[2].start(); n < w[2].end(); ++n)
        for (int64_t cb = w[0].start(); cb < w[0].end(); ++cb)
            for (int64_t oh = w[1].start(); oh < w[1].end(); ++oh) {
                a.src = src_->data<float>() + n * s.stride_n() + cb * s.stride_c() +
                        (oh * sh_ - pt_) * s.stride_h() - pl_ * s.stride_w();
                a.dst =
                    dst_->data<float>() + n * d.stride_n() + cb * d.stride_c() + oh * d.stride_h();
                a.divisor = divisors_ ? divisors_ + oh * d.w() : nullptr;
                table_->pool_row(a);
            }
}

}  // namespace tessera::cpu
