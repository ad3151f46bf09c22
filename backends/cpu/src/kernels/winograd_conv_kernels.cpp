// Winograd F(2x2, 3x3) kernels: planning, the two transforms over tile rows and the sixteen
// products.
#include "kernels/winograd_conv_kernels.hpp"

#include <algorithm>

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

std::string winograd_unsupported_reason(const Conv2dGeometry& g, const TensorInfo& src,
                                        const TensorInfo& weights) {
    if (weights.rank() != 4 || weights.dim(2) != 3 || weights.dim(3) != 3)
        return "the kernel is not 3x3";
    if (g.stride_h != 1 || g.stride_w != 1) return "the stride is not 1";
    if (g.dilation_h != 1 || g.dilation_w != 1) return "the kernel is dilated";
    if (g.groups != 1) return "the convolution is grouped";
    if (src.data_type() != DataType::f32 || src.layout() != DataLayout::nchw16c)
        return "the input is not f32 nchw16c";
    if (src.c() % kChannelBlock != 0 || weights.dim(0) % kChannelBlock != 0)
        return "the channel counts are not multiples of 16";
    return {};
}

WinogradPlan make_winograd_plan(const Conv2dGeometry& g, const TensorInfo& src,
                                const TensorInfo& dst, int64_t mr, int64_t nr) {
    WinogradPlan p;
    p.n = src.n();
    p.in_h = src.h();
    p.in_w = src.w();
    p.out_h = dst.h();
    p.out_w = dst.w();
    p.pad_top = g.pad_top;
    p.pad_left = g.pad_left;
    p.tiles_h = (p.out_h + 1) / 2;
    p.tiles_w = (p.out_w + 1) / 2;
    p.channels = src.c();
    p.outputs = dst.c();
    p.mr = mr;
    p.nr = nr;
    return p;
}

namespace {

/// Tile rows (image, tile row: dimension 0) by 16-channel blocks of `channels` (dimension 1). The
/// kernels split the rows and, where there are fewer rows than the threads want parts (a CRNN's
/// 6-row layers have 3), the blocks too.
Window tile_rows_window(const WinogradPlan& p, int64_t channels) {
    Window win;
    win.set(0, Window::Dimension(0, p.n * p.tiles_h, 1));
    win.set(1, Window::Dimension(0, channels / kChannelBlock, 1));
    return win;
}

}  // namespace

void WinogradInputKernel::configure(const KernelTable& table, const ITensor& src,
                                    const WinogradPlan& plan) {
    table_ = &table;
    src_ = &src;
    plan_ = &plan;
    configure_window(tile_rows_window(plan, plan.channels), 0);
    set_parts_per_thread(4);
    set_secondary_split(1);
}

void WinogradInputKernel::run(const Window& w, const ThreadInfo&) {
    const WinogradPlan& p = *plan_;
    const TensorInfo& s = src_->info();
    WinogradInputArgs a;
    a.src_row = s.stride_h();
    a.src_px = s.stride_w();
    a.src_block = s.stride_c();
    a.in_h = p.in_h;
    a.in_w = p.in_w;
    a.iw0 = -p.pad_left;
    a.tiles = p.tiles_w;
    a.blocks = w[1].end() - w[1].start();
    const int64_t first_block = w[1].start();
    a.v_xi = p.v_plane();
    a.v_tile = p.channels;
    for (int64_t r = w[0].start(); r < w[0].end(); ++r) {
        const int64_t image = r / p.tiles_h, tile_row = r % p.tiles_h;
        a.src = src_->data<float>() + image * s.stride_n() + first_block * s.stride_c();
        a.ih0 = 2 * tile_row - p.pad_top;
        a.v = v_ + r * p.tiles_w * p.channels + first_block * kChannelBlock;
        table_->winograd_input_row(a);
    }
}

void WinogradProductsKernel::configure(const KernelTable& table, const WinogradPlan& plan) {
    table_ = &table;
    plan_ = &plan;
    Window win;
    win.set(0, Window::Dimension(0, WinogradPlan::kValues, 1));
    win.set(1, Window::Dimension(0, (plan.tiles() + plan.mr - 1) / plan.mr, 1));
    configure_window(win, 0);
    set_parts_per_thread(4);
    set_secondary_split(1);
}

void WinogradProductsKernel::run(const Window& w, const ThreadInfo&) {
    const WinogradPlan& p = *plan_;
    const int64_t tiles = p.tiles();
    MicroArgs a;
    a.kc = p.channels;
    a.a_ps = p.channels;
    a.a_ks = 1;
    a.c_ps = p.outputs;
    a.c_bs = kChannelBlock;
    a.alpha = 1.0f;
    a.beta = 0.0f;
    a.load_c = false;
    const int64_t vec = table_->vec_width;
    for (int64_t xi = w[0].start(); xi < w[0].end(); ++xi) {
        const float* v = v_ + xi * p.v_plane();
        float* m = m_ + xi * p.m_plane();
        // One output block's U (channels x nr) stays in cache while the tile rows pass by.
        for (int64_t oc = 0; oc < p.outputs; oc += p.nr) {
            const int64_t nv = p.block_width(oc) / vec;
            a.b = u_ + p.u_offset(xi, oc);
            for (int64_t r = w[1].start(); r < w[1].end(); ++r) {
                const int64_t t0 = r * p.mr, rows = std::min(p.mr, tiles - t0);
                a.a = v + t0 * p.channels;
                a.c = m + t0 * p.outputs + oc;
                table_->micro_for(a.a_ps, rows, nv)(a);
            }
        }
    }
}

void WinogradOutputKernel::configure(const KernelTable& table, ITensor& dst,
                                     const WinogradPlan& plan, const MicroArgs& epilogue) {
    const TensorInfo& d = dst.info();
    require(d.data_type() == DataType::f32 && d.layout() == DataLayout::nchw16c,
            "WinogradOutputKernel::configure", d.name(), "needs an f32 nchw16c output");
    table_ = &table;
    dst_ = &dst;
    plan_ = &plan;
    epilogue_ = epilogue;
    configure_window(tile_rows_window(plan, plan.outputs), 0);
    set_parts_per_thread(4);
    set_secondary_split(1);
}

void WinogradOutputKernel::run(const Window& w, const ThreadInfo&) {
    const WinogradPlan& p = *plan_;
    const TensorInfo& d = dst_->info();
    WinogradOutputArgs a;
    a.m_xi = p.m_plane();
    a.m_tile = p.outputs;
    a.tiles = p.tiles_w;
    a.blocks = w[1].end() - w[1].start();
    const int64_t first_block = w[1].start();
    a.out_w = p.out_w;
    a.dst_row = d.stride_h();
    a.dst_px = d.stride_w();
    a.dst_block = d.stride_c();
    a.bias = bias_ ? bias_ + first_block * kChannelBlock : nullptr;
    a.epilogue = &epilogue_;
    const TensorInfo* r = residual_ ? &residual_->info() : nullptr;
    if (r) {
        a.res_row = r->stride_h();
        a.res_px = r->stride_w();
        a.res_block = r->stride_c();
    }
    for (int64_t row = w[0].start(); row < w[0].end(); ++row) {
        const int64_t image = row / p.tiles_h, oh = 2 * (row % p.tiles_h);
        a.m = m_ + row * p.tiles_w * p.outputs + first_block * kChannelBlock;
        a.rows = std::min<int64_t>(2, p.out_h - oh);
        a.dst = dst_->data<float>() + image * d.stride_n() + oh * d.stride_h() +
                first_block * d.stride_c();
        a.res = r ? residual_->data<float>() + image * r->stride_n() + oh * r->stride_h() +
                        first_block * r->stride_c()
                  : nullptr;
        table_->winograd_output_row(a);
    }
}

}  // namespace tessera::cpu
