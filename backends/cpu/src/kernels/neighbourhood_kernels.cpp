// DepthwiseConvKernel and PoolingKernel: per output row, call the SIMD row kernels.
#include "kernels/neighbourhood_kernels.hpp"

#include <algorithm>

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

BlockedRows::BlockedRows(const TensorInfo& dst, const OutputRect& rect)
    : batches_(dst.n()),
      blocks_(std::max<int64_t>(1, dst.channel_blocks())),
      rows_(std::max<int64_t>(1, rect.oh_end - rect.oh_begin)),
      oh_begin_(rect.oh_begin) {
    if (rect.oh_end <= rect.oh_begin || dst.channel_blocks() == 0) batches_ = 0;
}

Window BlockedRows::window() const {
    Window win;
    win.set(0, Window::Dimension(0, batches_ * blocks_ * rows_, 1));
    return win;
}

void DepthwiseConvKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                                    const Conv2dGeometry& g, int64_t kh, int64_t kw,
                                    const OutputRect& rect, const ActivationInfo& act,
                                    bool zero_border) {
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
    zero_border_ = zero_border;
    rect_ = rect;
    act_ = act;
    // Interior columns: first ox with ox*s - pad >= 0, last with ox*s - pad + (kw-1)*d < w.
    interior_begin_ = rect.ow_begin;
    interior_end_ = rect.ow_end;
    if (zero_border) {
        const int64_t last = src.info().w() - 1 + g.pad_left - (kw - 1) * g.dilation_w;
        interior_begin_ =
            std::clamp((g.pad_left + g.stride_w - 1) / g.stride_w, rect.ow_begin, rect.ow_end);
        interior_end_ = last < 0 ? interior_begin_
                                 : std::clamp(last / g.stride_w + 1, interior_begin_, rect.ow_end);
    }
    // Stride-1 rows the row kernel takes whole, their edge columns as zero columns (when no
    // output reads only outside columns); otherwise edge columns go one by one with their taps.
    const int64_t first_ix = rect.ow_begin - g.pad_left,
                  span = rect.ow_end - rect.ow_begin + kw - 1;
    zero_left_ = std::max<int64_t>(0, -first_ix);
    zero_right_ = std::max<int64_t>(0, first_ix + span - src.info().w());
    zero_columns_ = zero_border && g.stride_w == 1 &&
                    depthwise_zero_columns_supported(kh, kw, g.dilation_h, g.dilation_w,
                                                     src.info().stride_w()) &&
                    zero_left_ < kw && zero_right_ < kw && zero_left_ + zero_right_ < span;
    if (!zero_columns_) zero_left_ = zero_right_ = 0;
    rows_ = BlockedRows(dst.info(), rect);
    configure_window(rows_.window(), 0, 1);
}

DepthwiseConvKernel::TapRange DepthwiseConvKernel::valid_taps(int64_t origin, int64_t taps,
                                                              int64_t dilation,
                                                              int64_t extent) const {
    if (!zero_border_ || (origin >= 0 && origin + (taps - 1) * dilation < extent)) return {0, taps};
    // Tap t is inside when 0 <= origin + t*d <= extent - 1.
    const int64_t begin = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
    const int64_t last = extent - 1 - origin;
    const int64_t end = last < 0 ? 0 : std::min(taps, last / dilation + 1);
    return {std::min(begin, end), end};
}

void DepthwiseConvKernel::run(const Window& w, const ThreadInfo&) {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    if (rect_.ow_end <= rect_.ow_begin) return;
    const float* src = src_->data<float>();
    float* dst = dst_->data<float>();
    const int64_t src_n = s.stride_n(), src_c = s.stride_c(), src_h = s.stride_h(),
                  src_w = s.stride_w();
    const int64_t dst_n = d.stride_n(), dst_c = d.stride_c(), dst_h = d.stride_h(),
                  dst_w = d.stride_w();
    DepthwiseRowArgs a;
    a.src_pixel_step = g_.stride_w * src_w;
    a.src_row = src_h;
    a.w_row = kw_ * kChannelBlock;
    a.dil_h = g_.dilation_h;
    a.dil_w = g_.dilation_w;
    a.act = act_;
    a.zero_left = zero_left_;
    a.zero_right = zero_right_;
    rows_.for_each_plane(w[0], [&](const PlaneRows& p) {
        const float* plane = src + p.n * src_n + p.cb * src_c;
        const float* weights = weights_ + p.cb * kh_ * kw_ * kChannelBlock;
        a.bias = bias_ ? bias_ + p.cb * kChannelBlock : nullptr;
        for (int64_t oh = p.oh_begin; oh < p.oh_end; ++oh) {
            const int64_t iy = oh * g_.stride_h - g_.pad_top;
            const TapRange ky = valid_taps(iy, kh_, g_.dilation_h, s.h());
            float* out_row = dst + p.n * dst_n + p.cb * dst_c + oh * dst_h;
            a.kh = ky.end - ky.begin;
            // The first valid tap's input at column x; with no valid tap (an output of bias
            // only) the plane itself, never read.
            auto first_tap = [&](int64_t x, int64_t taps_w) {
                return a.kh == 0 || taps_w == 0
                           ? plane
                           : plane + (iy + ky.begin * g_.dilation_h) * src_h + x * src_w;
            };
            if (zero_columns_) {  // the whole row in one call, edge columns read as zeros
                const int64_t ix = rect_.ow_begin - g_.pad_left + zero_left_;
                a.kw = kw_;
                a.src = first_tap(ix, kw_);
                a.weights = weights + ky.begin * kw_ * kChannelBlock;
                a.dst = out_row + rect_.ow_begin * dst_w;
                a.count = rect_.ow_end - rect_.ow_begin;
                table_->depthwise_row(a);
                continue;
            }
            // Output columns [ox0, ox1) whose taps kx cover the same valid range.
            auto run_columns = [&](int64_t ox0, int64_t ox1) {
                if (ox1 <= ox0) return;
                const int64_t ix = ox0 * g_.stride_w - g_.pad_left;
                const TapRange kx = valid_taps(ix, kw_, g_.dilation_w, s.w());
                a.kw = kx.end - kx.begin;
                a.src = first_tap(ix + kx.begin * g_.dilation_w, a.kw);
                a.weights = weights + (ky.begin * kw_ + kx.begin) * kChannelBlock;
                a.dst = out_row + ox0 * dst_w;
                a.count = ox1 - ox0;
                table_->depthwise_row(a);
            };
            for (int64_t ox = rect_.ow_begin; ox < interior_begin_; ++ox) run_columns(ox, ox + 1);
            run_columns(interior_begin_, interior_end_);
            for (int64_t ox = interior_end_; ox < rect_.ow_end; ++ox) run_columns(ox, ox + 1);
        }
    });
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
    rows_ = BlockedRows(dst.info(), OutputRect{0, dst.info().h(), 0, dst.info().w()});
    configure_window(rows_.window(), 0, 1);
}

void PoolingKernel::run(const Window& w, const ThreadInfo&) {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    const int64_t in_h = s.h(), in_w = s.w(), out_w = d.w();
    // Output columns whose windows lie inside the input's columns: [ow_in, ow_end_in).
    const int64_t ow_in = std::min(out_w, (pl_ + sw_ - 1) / sw_);
    const int64_t last_inside = in_w - kw_ + pl_;  // largest ox * sw with the window inside
    const int64_t ow_end_in =
        last_inside < 0 ? ow_in : std::clamp(last_inside / sw_ + 1, ow_in, out_w);
    PoolRowArgs a;
    a.src_pixel_step = sw_ * s.stride_w();
    a.src_row = s.stride_h();
    a.max = max_;
    a.area = kh_ * kw_;
    rows_.for_each_plane(w[0], [&](const PlaneRows& p) {
        const float* plane = src_->data<float>() + p.n * s.stride_n() + p.cb * s.stride_c();
        float* out_plane = dst_->data<float>() + p.n * d.stride_n() + p.cb * d.stride_c();
        for (int64_t oh = p.oh_begin; oh < p.oh_end; ++oh) {
            const int64_t y0 = oh * sh_ - pt_;
            const int64_t y_begin = std::max<int64_t>(0, y0), y_end = std::min(in_h, y0 + kh_);
            a.kh = y_end - y_begin;
            const float* in_row = plane + y_begin * s.stride_h();
            float* out_row = out_plane + oh * d.stride_h();
            const float* divisors = divisors_ ? divisors_ + oh * out_w : nullptr;
            // Pixels [o0, o1) whose windows all span the input columns [x0, x0 + kw).
            const auto pool = [&](int64_t o0, int64_t o1, int64_t x0, int64_t kw) {
                if (o1 <= o0) return;
                a.count = o1 - o0;
                a.kw = kw;
                a.src = in_row + x0 * s.stride_w();
                a.dst = out_row + o0 * d.stride_w();
                a.divisor = divisors ? divisors + o0 : nullptr;
                table_->pool_row(a);
            };
            const auto clipped = [&](int64_t ox) {
                const int64_t x0 = ox * sw_ - pl_;
                const int64_t x_begin = std::max<int64_t>(0, x0);
                pool(ox, ox + 1, x_begin, std::min(in_w, x0 + kw_) - x_begin);
            };
            for (int64_t ox = 0; ox < ow_in; ++ox) clipped(ox);
            pool(ow_in, ow_end_in, ow_in * sw_ - pl_, kw_);
            for (int64_t ox = std::max(ow_in, ow_end_in); ox < out_w; ++ox) clipped(ox);
        }
    });
}

}  // namespace tessera::cpu
