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

namespace {

/// The input transform of tile row `row` (image, tile row), channel blocks [b0, b1): tile t's
/// values at v + xi * v_xi + t * channels, v being the row's first tile at block b0.
WinogradInputArgs input_row_args(const WinogradPlan& p, const ITensor& src, int64_t row, int64_t b0,
                                 int64_t b1, float* v, int64_t v_xi) {
    const TensorInfo& s = src.info();
    WinogradInputArgs a;
    a.src = src.data<float>() + (row / p.tiles_h) * s.stride_n() + b0 * s.stride_c();
    a.src_row = s.stride_h();
    a.src_px = s.stride_w();
    a.src_block = s.stride_c();
    a.in_h = p.in_h;
    a.in_w = p.in_w;
    a.ih0 = 2 * (row % p.tiles_h) - p.pad_top;
    a.iw0 = -p.pad_left;
    a.tiles = p.tiles_w;
    a.blocks = b1 - b0;
    a.v = v;
    a.v_xi = v_xi;
    a.v_tile = p.channels;
    return a;
}

/// The output transform of tile row `row`, output blocks [b0, b1), from m (the row's first tile
/// at block b0; value xi at m + xi * m_xi).
WinogradOutputArgs output_row_args(const WinogradPlan& p, const ITensor& dst,
                                   const ITensor* residual, const float* bias,
                                   const MicroArgs& epilogue, int64_t row, int64_t b0, int64_t b1,
                                   const float* m, int64_t m_xi) {
    const TensorInfo& d = dst.info();
    const int64_t image = row / p.tiles_h, oh = 2 * (row % p.tiles_h);
    WinogradOutputArgs a;
    a.m = m;
    a.m_xi = m_xi;
    a.m_tile = p.outputs;
    a.tiles = p.tiles_w;
    a.blocks = b1 - b0;
    a.rows = std::min<int64_t>(2, p.out_h - oh);
    a.out_w = p.out_w;
    a.dst = dst.data<float>() + image * d.stride_n() + oh * d.stride_h() + b0 * d.stride_c();
    a.dst_row = d.stride_h();
    a.dst_px = d.stride_w();
    a.dst_block = d.stride_c();
    if (residual) {
        const TensorInfo& r = residual->info();
        a.res =
            residual->data<float>() + image * r.stride_n() + oh * r.stride_h() + b0 * r.stride_c();
        a.res_row = r.stride_h();
        a.res_px = r.stride_w();
        a.res_block = r.stride_c();
    }
    a.bias = bias ? bias + b0 * kChannelBlock : nullptr;
    a.epilogue = &epilogue;
    return a;
}

/// M[xi] = V[xi] x U[xi] for values [xi0, xi1) and register tiles [r0, r1) of `tiles` tiles
/// (plane strides v_xi and m_xi).
void run_products(const KernelTable& t, const WinogradPlan& p, const float* u, const float* v,
                  int64_t v_xi, float* m, int64_t m_xi, int64_t tiles, int64_t xi0, int64_t xi1,
                  int64_t r0, int64_t r1) {
    MicroArgs a;
    a.kc = p.channels;
    a.a_ps = p.channels;
    a.a_ks = 1;
    a.c_ps = p.outputs;
    a.c_bs = kChannelBlock;
    a.alpha = 1.0f;
    a.beta = 0.0f;
    a.load_c = false;
    for (int64_t xi = xi0; xi < xi1; ++xi) {
        // One output block's U (channels x nr) stays in cache while the tile rows pass by.
        for (int64_t oc = 0; oc < p.outputs; oc += p.nr) {
            const int64_t nv = p.block_width(oc) / t.vec_width;
            a.b = u + p.u_offset(xi, oc);
            for (int64_t r = r0; r < r1; ++r) {
                const int64_t t0 = r * p.mr, rows = std::min(p.mr, tiles - t0);
                a.a = v + xi * v_xi + t0 * p.channels;
                a.c = m + xi * m_xi + t0 * p.outputs + oc;
                t.micro_for(a.a_ps, rows, nv)(a);
            }
        }
    }
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
    const int64_t b0 = w[1].start(), b1 = w[1].end();
    for (int64_t r = w[0].start(); r < w[0].end(); ++r)
        table_->winograd_input_row(
            input_row_args(p, *src_, r, b0, b1,
                           v_ + r * p.tiles_w * p.channels + b0 * kChannelBlock, p.v_plane()));
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
    run_products(*table_, p, u_, v_, p.v_plane(), m_, p.m_plane(), p.tiles(), w[0].start(),
                 w[0].end(), w[1].start(), w[1].end());
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
    const int64_t b0 = w[1].start(), b1 = w[1].end();
    for (int64_t r = w[0].start(); r < w[0].end(); ++r)
        table_->winograd_output_row(
            output_row_args(p, *dst_, residual_, bias_, epilogue_, r, b0, b1,
                            m_ + r * p.tiles_w * p.outputs + b0 * kChannelBlock, p.m_plane()));
}

void WinogradTileRowsKernel::configure(const KernelTable& table, const ITensor& src, ITensor& dst,
                                       const WinogradPlan& plan, const MicroArgs& epilogue) {
    const TensorInfo& d = dst.info();
    require(d.data_type() == DataType::f32 && d.layout() == DataLayout::nchw16c,
            "WinogradTileRowsKernel::configure", d.name(), "needs an f32 nchw16c output");
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    plan_ = &plan;
    epilogue_ = epilogue;
    // Tile rows, and in each its register tiles, split too where the rows are fewer than the
    // parts the threads want (a CRNN's 12x80 layers have 6 tile rows).
    Window win;
    win.set(0, Window::Dimension(0, plan.n * plan.tiles_h, 1));
    win.set(1, Window::Dimension(0, (plan.tiles_w + plan.mr - 1) / plan.mr, 1));
    configure_window(win, 0);
    set_secondary_split(1);
}

int64_t WinogradTileRowsKernel::v_plane() const {
    return WinogradPlan::plane_stride(plan_->tiles_w * plan_->channels);
}

int64_t WinogradTileRowsKernel::m_plane() const {
    return WinogradPlan::plane_stride(plan_->tiles_w * plan_->outputs);
}

int64_t WinogradTileRowsKernel::workspace_floats(int parts) const {
    return parts * WinogradPlan::kValues * (v_plane() + m_plane());
}

void WinogradTileRowsKernel::run(const Window& w, const ThreadInfo& info) {
    if (info.thread_id >= workspace_parts_)
        throw Error("WinogradTileRowsKernel::run", "", "workspace was sized for fewer parts");
    const WinogradPlan& p = *plan_;
    float* const v = workspace_ + info.thread_id * WinogradPlan::kValues * (v_plane() + m_plane());
    float* const m = v + WinogradPlan::kValues * v_plane();
    // Tiles [t0, t0 + tiles) of each row: register tiles w[1].
    const int64_t t0 = w[1].start() * p.mr;
    const int64_t tiles = std::min(w[1].end() * p.mr, p.tiles_w) - t0;
    const int64_t register_tiles = w[1].end() - w[1].start();
    for (int64_t r = w[0].start(); r < w[0].end(); ++r) {
        WinogradInputArgs in =
            input_row_args(p, *src_, r, 0, p.channels / kChannelBlock, v, v_plane());
        in.iw0 += 2 * t0;
        in.tiles = tiles;
        table_->winograd_input_row(in);
        run_products(*table_, p, u_, v, v_plane(), m, m_plane(), tiles, 0, WinogradPlan::kValues, 0,
                     register_tiles);
        WinogradOutputArgs out = output_row_args(p, *dst_, residual_, bias_, epilogue_, r, 0,
                                                 p.outputs / kChannelBlock, m, m_plane());
        out.tiles = tiles;
        out.out_w -= 2 * t0;
        out.dst += 2 * t0 * out.dst_px;
        if (out.res) out.res += 2 * t0 * out.res_px;
        table_->winograd_output_row(out);
    }
}

}  // namespace tessera::cpu
