// DirectConvKernel and its channel plan.
#include "kernels/direct_conv_kernel.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "kernels/conv_tile_phases.hpp"
#include "runtime/cache_sizes.hpp"
#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

ConvChannelPlan make_conv_channel_plan(int64_t oc, int64_t ic, int64_t groups, int64_t kh,
                                       int64_t kw, int64_t mr, int64_t nr) {
    ConvChannelPlan plan;
    plan.nr = nr;
    plan.mr = mr;
    plan.kh = kh;
    plan.kw = kw;
    const int64_t ocg = oc / groups, icg = ic / groups;
    const int64_t oc_padded = (oc + kChannelBlock - 1) / kChannelBlock * kChannelBlock;
    std::map<std::pair<int64_t, int64_t>, std::size_t> tables;
    for (int64_t start = 0; start < oc_padded; start += nr) {
        ConvChannelPlan::Block b;
        b.oc_start = start;
        b.width = std::min(nr, oc_padded - start);
        const int64_t last = std::min(start + b.width, oc) - 1;
        b.ic_begin = (start / ocg) * icg;
        b.ic_end = (last / ocg + 1) * icg;
        const auto key = std::make_pair(b.ic_begin, b.ic_end);
        auto it = tables.find(key);
        if (it == tables.end()) {
            it = tables.emplace(key, plan.table_ranges.size()).first;
            plan.table_ranges.push_back(key);
        }
        b.table = it->second;
        b.weights_offset = plan.packed_floats;
        plan.packed_floats += plan.steps(b.ic_begin, b.ic_end) * b.width;
        plan.blocks.push_back(b);
    }
    return plan;
}

namespace {

/// The offset of each run of `run` steps when every step of a run reads the element after its
/// predecessor's and every chunk starts a run; empty otherwise.
std::vector<int64_t> step_runs(const std::vector<int64_t>& offsets,
                               const std::vector<int64_t>& bounds, int64_t run) {
    const auto run_aligned = [run](int64_t k) { return k % run == 0; };
    if (!std::all_of(bounds.begin(), bounds.end(), run_aligned)) return {};
    std::vector<int64_t> runs;
    for (std::size_t k = 0; k < offsets.size(); ++k) {
        if (static_cast<int64_t>(k) % run == 0)
            runs.push_back(offsets[k]);
        else if (offsets[k] != offsets[k - 1] + 1)
            return {};
    }
    return runs;
}

}  // namespace

/// Element strides and extents of one run, read from the tensors' current infos.
struct DirectConvKernel::Layout {
    const float* src = nullptr;
    float* dst = nullptr;
    int64_t src_n = 0, src_h = 0, src_w = 0;
    int64_t src_rows = 0, src_cols = 0;  ///< input extent, padding excluded
    int64_t dst_n = 0, dst_c = 0, dst_h = 0, dst_w = 0;
    int64_t out_h = 0, out_w = 0;
    const float* res = nullptr;  ///< the residual, or null
    int64_t res_n = 0, res_c = 0, res_h = 0, res_w = 0;
    bool res_in_dst = false;  ///< the residual is dst itself (same memory and strides)
};

void DirectConvKernel::configure(const KernelTable& table, ITensor& src, ITensor& dst,
                                 const ConvChannelPlan& plan, const DirectConvParams& params) {
    const TensorInfo& s = src.info();
    const TensorInfo& d = dst.info();
    const char* fn = "DirectConvKernel::configure";
    const Conv2dGeometry& g = params.geometry;
    require(s.data_type() == DataType::f32 && s.is_4d_layout(), fn, s.name(),
            "needs a 4-D f32 input");
    require(d.data_type() == DataType::f32 && d.layout() == DataLayout::nchw16c, fn, d.name(),
            "needs an f32 nchw16c output");
    // Tap phases leave out every read of the border when columns are outermost in a blocked
    // input's reduction (conv_tile_phases.hpp): such an input needs no padding.
    const bool reads_border = !(plan.columns_outer && s.layout() == DataLayout::nchw16c);
    require(!reads_border ||
                s.padding().covers(PaddingSize{g.pad_top, g.pad_right, g.pad_bottom, g.pad_left}),
            fn, s.name(), "input padding is smaller than the convolution's");
    src.info().set_resizable(false);
    table_ = &table;
    src_ = &src;
    dst_ = &dst;
    plan_ = &plan;
    params_ = params;

    // Loop order: keep all weights hot in L2 and stream the input when they fit, else keep one
    // block's weights and stream the rows.
    blocks_inner_ = plan.packed_floats * 4 <= 256 * 1024;
    // Weights larger than this core's L2 come from L3 into each block's first row: the rows
    // before it fetch them ahead (next_weights). Smaller ones stay in L2 from block to block and
    // run to run, where the hardware prefetchers keep up (on a 1 MB-L2 Zen 5, prefetching
    // MobileNet's 0.6 MB layers made them 5% slower).
    prefetch_weights_ = plan.packed_floats * 4 > static_cast<int64_t>(host_cache_sizes().l2);
    // K chunks, sized per instruction set (KernelTable::conv_chunk_kib_*): a chunk's weights
    // stay in L1 while its rows run, at the cost of reloading C between chunks.
    const int64_t chunk_kib =
        blocks_inner_ ? table.conv_chunk_kib_resident : table.conv_chunk_kib_streaming;

    // Offsets of each reduction step relative to the window's top-left input element.
    offsets_.clear();
    chunks_.clear();
    runs_.clear();
    lines_.clear();
    // Runs of consecutive input elements: 16 channels of a pixel, or the taps of an nchw row.
    const int64_t a_ps = g.stride_w * s.stride_w();
    const int64_t run = plan.taps_inner ? plan.kw : kChannelBlock;
    for (const auto& [ic_begin, ic_end] : plan.table_ranges) {
        std::vector<int64_t> offsets;
        offsets.reserve(static_cast<std::size_t>(plan.steps(ic_begin, ic_end)));
        plan.for_each_step(ic_begin, ic_end, [&](int64_t c, int64_t y, int64_t x) {
            const int64_t spatial =
                y * g.dilation_h * s.stride_h() + x * g.dilation_w * s.stride_w();
            const int64_t channel = s.layout() == DataLayout::nchw16c
                                        ? (c / kChannelBlock) * s.stride_c() + c % kChannelBlock
                                        : c * s.stride_c();
            offsets.push_back(spatial + channel);
        });
        offsets_.push_back(std::move(offsets));
        // Chunk boundaries: whole 16-channel groups of a tap block, up to chunk_kib of weights
        // per chunk.
        const int64_t max_steps = chunk_kib > 0
                                      ? std::max<int64_t>(1, chunk_kib * 1024 / (4 * plan.nr))
                                      : std::numeric_limits<int64_t>::max();
        std::vector<int64_t> bounds{0};
        int64_t steps = 0, chunk = 0;
        plan.for_each_chunk_block(ic_begin, ic_end, [&](int64_t, int64_t, int64_t c0, int64_t c1) {
            const int64_t group = (c1 - c0) * plan.steps_per_channel();
            if (chunk > 0 && chunk + group > max_steps) {
                bounds.push_back(steps);
                chunk = 0;
            }
            steps += group;
            chunk += group;
        });
        bounds.push_back(steps);
        // A 1x1 convolution reads each input line for only 16 steps and nothing brought it into
        // cache before (no padded copy): the next tile's lines are prefetched (see run_row)
        // where the table says that pays (KernelTable::conv_prefetch_input).
        std::vector<std::vector<int64_t>> lines(bounds.size() - 1);
        if (plan.kh == 1 && plan.kw == 1 && s.layout() == DataLayout::nchw16c &&
            table.conv_prefetch_input) {
            const std::vector<int64_t>& o = offsets_.back();
            for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
                for (int64_t k = bounds[c]; k < bounds[c + 1]; ++k)
                    lines[c].push_back(o[static_cast<std::size_t>(k)] / kChannelBlock *
                                       kChannelBlock);
                std::sort(lines[c].begin(), lines[c].end());
                lines[c].erase(std::unique(lines[c].begin(), lines[c].end()), lines[c].end());
            }
        }
        lines_.push_back(std::move(lines));

        // Runs must also start at every tap block, where a tile's phases may begin or end.
        const bool taps_aligned = plan.steps_per_tap(ic_begin, ic_end) % run == 0;
        runs_.push_back(run > 1 && taps_aligned && micro_run_supported(a_ps, run)
                            ? step_runs(offsets_.back(), bounds, run)
                            : std::vector<int64_t>{});
        chunks_.push_back(std::move(bounds));
    }

    const bool flat = runs_on_plane(g, plan.kh, plan.kw, s, d);
    two_rows_ = plan.rows_per_tile == 2 && !flat;
    for (int mr = 1; mr <= plan.mr; ++mr)
        for (int nv = 1; nv <= plan.nr / table.vec_width; ++nv) {
            micro_[mr - 1][nv - 1] = table.micro_for(g.stride_w * s.stride_w(), mr, nv);
            micro_two_rows_[mr - 1][nv - 1] =
                two_rows_ ? table.micro_two_rows_for(g.stride_w * s.stride_w(), mr, nv) : nullptr;
        }

    // Spans of about one row, rounded up to whole register tiles.
    span_ = flat ? (d.w() + plan.mr - 1) / plan.mr * plan.mr : 0;
    rows_ = flat ? (d.h() * d.w() + span_ - 1) / span_ : two_rows_ ? (d.h() + 1) / 2 : d.h();
    const int64_t blocks = static_cast<int64_t>(plan.blocks.size());
    // Fewer (row, block) pairs than 16 threads could share (a CRNN's last 3x1 layer: one output
    // row, 4 blocks): the rows are also cut into segments of whole tiles.
    constexpr int64_t kParallelParts = 16;
    const int64_t row_tiles = (d.w() + plan.mr - 1) / plan.mr;
    segments_ = !flat && rows_ * blocks < kParallelParts
                    ? std::min(row_tiles, (kParallelParts + rows_ * blocks - 1) / (rows_ * blocks))
                    : 1;
    Window win;
    win.set(0, Window::Dimension(0, blocks, 1));
    win.set(1, Window::Dimension(0, rows_ * segments_, 1));
    win.set(2, Window::Dimension(0, d.n(), 1));
    // Weights beyond what stays in a core's L2 stream from L3 once per part that reads them:
    // such layers (ResNet's 14x14 256-channel ones: 2.4 MB) split their channel blocks first, so
    // that each thread streams only its own blocks' weights.
    const bool streams_weights = plan.packed_floats * 4 > (1 << 20);
    std::size_t split = 1;
    if ((rows_ < 8 || streams_weights) && blocks >= 2) split = 0;
    if (d.n() >= 2 && d.n() >= rows_) split = 2;
    configure_window(win, split, 1);
    // Parts share nothing but read-only weights and input: several per thread cost a few
    // dispatches and let a thread that finishes first take over rows of a delayed one (two when
    // each part streams its weights from L3). Too few channel blocks for the threads (a 6-row
    // CRNN layer of 256 channels has 4) split their rows too, and too few rows their blocks.
    set_parts_per_thread(streams_weights && split == 0 ? 2 : 4);
    if (split < 2) set_secondary_split(split == 0 ? 1 : 0);
}

void DirectConvKernel::run_row(const Layout& l, int64_t n, int64_t row, int64_t block_index,
                               std::size_t chunk, int64_t share, int64_t shares,
                               WeightPrefetch next_weights) const {
    const KernelTable& t = *table_;
    const Conv2dGeometry& g = params_.geometry;
    const ConvChannelPlan::Block& block = plan_->blocks[static_cast<std::size_t>(block_index)];
    const std::vector<int64_t>& offsets = offsets_[block.table];
    const std::vector<int64_t>& bounds = chunks_[block.table];
    const int64_t k0 = bounds[chunk], k1 = bounds[chunk + 1];

    MicroArgs a = params_.epilogue;
    a.koff_run = run_length(block.table);
    a.a_ps = g.stride_w * l.src_w;
    a.c_ps = l.dst_w;
    a.c_bs = l.dst_c;
    a.beta = 1.0f;
    a.alpha = 1.0f;
    const int64_t nv = block.width / t.vec_width;
    const float* const bias = bias_ ? bias_ + block.oc_start : nullptr;
    const FusedAct act = a.act;
    // A residual held in dst itself is there before the first chunk: every call accumulates onto
    // C. Any other residual is read by the epilogue (MicroArgs::res) of each pixel's last call.
    const bool preloaded = l.res != nullptr && l.res_in_dst;
    const float* const residual =
        l.res != nullptr && !l.res_in_dst
            ? l.res + n * l.res_n + (block.oc_start / kChannelBlock) * l.res_c
            : nullptr;
    a.res_ps = l.res_w;
    a.res_bs = l.res_c;
    a.res_rs = l.res_h;
    // Tile `tile` of `tiles` in the row takes an equal part of next_weights' lines; a call
    // running steps [s0, s1) of the chunk takes the same fraction of its tile's part.
    const auto set_weight_prefetch = [&](MicroArgs& m, int64_t tile, int64_t tiles, int64_t s0,
                                         int64_t s1) {
        const int64_t lines = next_weights.count, span = k1 - k0;
        if (lines == 0 || s1 <= s0 || span <= 0) {
            m.pf_weight_lines = 0;
            return;
        }
        const int64_t t0 = lines * tile / tiles, t1 = lines * (tile + 1) / tiles;
        const int64_t l0 = t0 + (t1 - t0) * (s0 - k0) / span;
        const int64_t l1 = t0 + (t1 - t0) * (s1 - k0) / span;
        m.pf_weights = next_weights.first + l0 * kChannelBlock;
        m.pf_weight_lines = l1 - l0;
    };
    // Steps [s0, s1) of the chunk into `m`, with the epilogue when `epilogue` (the residual's
    // pointer is set by the caller) and C loaded when `load_c`.
    const auto set_steps = [&](MicroArgs& m, int64_t s0, int64_t s1, bool load_c, bool epilogue) {
        m.kc = s1 - s0;
        m.koff = m.koff_run > 1 ? runs_[block.table].data() + s0 / m.koff_run : offsets.data() + s0;
        m.b = weights_ + block.weights_offset + s0 * block.width;
        m.load_c = load_c;
        m.bias = epilogue ? bias : nullptr;
        m.act = epilogue ? act : FusedAct::none;
        m.res = nullptr;
    };
    // The residual of output row oh, pixel ow, for a call with the epilogue.
    const auto residual_at = [&](bool epilogue, int64_t oh, int64_t ow) -> const float* {
        return epilogue && residual ? residual + oh * l.res_h + ow * l.res_w : nullptr;
    };

    // Streaming input (1x1): each tile prefetches the same pixels of the next row, for this
    // call's share of the channel-block lines, so the prefetches are spread over the row; the
    // microkernel spreads a tile's over its reduction steps (MicroArgs::pf).
    const std::vector<int64_t>& all_lines = lines_[block.table][chunk];
    const std::size_t line_count = row + 1 < rows_ ? all_lines.size() : 0;
    const int64_t* lines = all_lines.data() + line_count * static_cast<std::size_t>(share) /
                                                  static_cast<std::size_t>(shares);
    const int64_t* lines_end = all_lines.data() + line_count * static_cast<std::size_t>(share + 1) /
                                                      static_cast<std::size_t>(shares);
    a.pf_lines = lines;
    a.pf_count = lines_end - lines;
    const int64_t next_row_step =
        span_ > 0 ? span_ * l.src_w : (two_rows_ ? 2 : 1) * g.stride_h * l.src_h;

    const float* in = l.src + n * l.src_n;
    float* out = l.dst + n * l.dst_n + (block.oc_start / kChannelBlock) * l.dst_c;
    if (span_ > 0) {
        // The flattened plane of an unpadded 1x1 convolution: every step of every tile.
        const bool epilogue = chunk + 2 == bounds.size();
        set_steps(a, k0, k1, chunk > 0 || preloaded, epilogue);
        // `count` pixels from `in` / `out` (output pixel `first` of the plane), in as few tiles
        // as MR allows, of nearly equal widths (even_tile_rows; 7 pixels ran faster as 4 + 3
        // than as 6 + 1).
        const auto run_pixels = [&](const float* in_px, float* out_px, int64_t first,
                                    int64_t count) {
            const float* res_px = residual_at(epilogue, first / l.out_w, first % l.out_w);
            const int64_t tiles = (count + plan_->mr - 1) / plan_->mr;
            if (count % plan_->mr == 0 && a.pf_count == 0 && next_weights.count == 0) {
                // Whole tiles and nothing to prefetch: one call (MicroArgs::tiles).
                a.pf_weight_lines = 0;
                a.pf = nullptr;
                a.a = in_px;
                a.c = out_px;
                a.res = res_px;
                a.tiles = tiles;
                micro_[plan_->mr - 1][nv - 1](a);
                a.tiles = 1;
                return;
            }
            for (int64_t i = 0, ow = 0; i < tiles; ++i) {
                const int64_t pixels = even_tile_rows(count - ow, tiles - i);
                set_weight_prefetch(a, i, tiles, k0, k1);
                a.pf = in_px + next_row_step + ow * a.a_ps;
                a.a = in_px + ow * a.a_ps;
                a.c = out_px + ow * l.dst_w;
                a.res = res_px ? res_px + ow * l.res_w : nullptr;
                micro_[pixels - 1][nv - 1](a);
                ow += pixels;
            }
        };
        const int64_t p0 = row * span_, p1 = std::min(p0 + span_, l.out_h * l.out_w);
        const bool dense_residual = !residual || l.res_h == l.out_w * l.res_w;
        if (l.dst_h == l.out_w * l.dst_w && dense_residual) {  // dense planes: one piece
            run_pixels(in + p0 * l.src_w, out + p0 * l.dst_w, p0, p1 - p0);
            return;
        }
        for (int64_t p = p0; p < p1;) {  // a padded plane: one piece per output row
            const int64_t oh = p / l.out_w, ow = p % l.out_w;
            const int64_t end = std::min(p1, (oh + 1) * l.out_w);
            run_pixels(in + p * l.src_w, out + oh * l.dst_h + ow * l.dst_w, p, end - p);
            p = end;
        }
        return;
    }

    // Output rows: one, or two (2 * row and 2 * row + 1, the last alone when odd) with two-row
    // tiles, A and C of the second at a_rs / c_rs from the first's; segment `segment` of them.
    const int64_t segment = row % segments_;
    row /= segments_;
    ConvTile tile;
    tile.oh = two_rows_ ? 2 * row : row;
    tile.rows = two_rows_ && tile.oh + 1 < l.out_h ? 2 : 1;
    a.a_rs = g.stride_h * l.src_h;
    a.c_rs = l.dst_h;
    const float* in_row = in + (tile.oh * g.stride_h - g.pad_top) * l.src_h - g.pad_left * l.src_w;
    float* out_row = out + tile.oh * l.dst_h;
    const ConvTaps taps{g,
                        plan_->kh,
                        plan_->kw,
                        !plan_->columns_outer,
                        plan_->steps_per_tap(block.ic_begin, block.ic_end),
                        l.src_rows,
                        l.src_cols};
    const int64_t tiles = (l.out_w + plan_->mr - 1) / plan_->mr;
    const int64_t first_tile = tiles * segment / segments_,
                  end_tile = tiles * (segment + 1) / segments_;
    int64_t tile_index = 0;
    // Runs the rows of `mask` and pixels [p0, p1) over steps [s0, s1).
    const auto call = [&](int mask, int64_t p0, int64_t p1, int64_t s0, int64_t s1, bool load_c,
                          bool epilogue) {
        MicroArgs m = a;
        set_steps(m, s0, s1, load_c, epilogue);
        set_weight_prefetch(m, tile_index, tiles, s0, s1);
        const int64_t first_row = mask == 2 ? 1 : 0;
        m.a = in_row + first_row * m.a_rs + p0 * m.a_ps;
        m.c = out_row + first_row * m.c_rs + p0 * l.dst_w;
        m.res = residual_at(epilogue, tile.oh + first_row, p0);
        m.pf = m.a + next_row_step;
        const auto& kernels = mask == 3 ? micro_two_rows_ : micro_;
        kernels[p1 - p0 - 1][nv - 1](m);
    };

    // Tiles that read no padding (all but the edges) run every step of the chunk, with the
    // arguments set once per row: the tiles of a 7x7 s2 3->64 layer are ~1000 cycles long.
    const bool last_chunk = chunk + 2 == bounds.size();
    set_steps(a, k0, k1, chunk > 0 || preloaded, last_chunk);
    const auto& row_kernels = tile.rows == 2 ? micro_two_rows_ : micro_;
    const bool rows_inside = rows_read_no_padding(taps, tile);
    const int all_rows = (1 << tile.rows) - 1;
    for (int64_t i = 0; i < tiles; ++i) {
        tile_index = i;
        tile.pixels = even_tile_rows(l.out_w - tile.ow, tiles - i);
        const int64_t tile_end = tile.ow + tile.pixels;
        if (i < first_tile || i >= end_tile) {  // another segment's
            tile.ow = tile_end;
            continue;
        }
        if (rows_inside && pixels_read_no_padding(taps, tile)) {
            set_weight_prefetch(a, i, tiles, k0, k1);
            a.a = in_row + tile.ow * a.a_ps;
            a.c = out_row + tile.ow * l.dst_w;
            a.res = residual_at(last_chunk, tile.oh, tile.ow);
            a.pf = a.a + next_row_step;
            row_kernels[tile.pixels - 1][nv - 1](a);
            tile.ow = tile_end;
            continue;
        }
        // Phases run one behind the walk, so that the tile's last phase (which carries the
        // epilogue) is known when it runs. C holds earlier chunks' sums when the first phase
        // began before this chunk.
        bool has_c = chunk > 0 || preloaded, finished = false;
        const auto phase = [&](const TilePhase& p, bool last_phase) {
            const int64_t s0 = std::max(k0, p.step_begin), s1 = std::min(k1, p.step_end);
            if (s0 >= s1) return;
            const bool covers = p.covers(tile);
            if (!has_c && !covers)  // zero the tile, then add the phase
                call(all_rows, tile.ow, tile_end, s0, s0, false, false);
            const bool epilogue = last_phase && covers && s1 == p.step_end;
            call(p.row_mask, p.pixel_begin, p.pixel_end, s0, s1, has_c || !covers, epilogue);
            has_c = true;
            finished = epilogue;
        };
        TilePhase pending;
        bool any = false;
        for_each_tile_phase(taps, tile, [&](const TilePhase& p) {
            if (any)
                phase(pending, false);
            else
                has_c = preloaded || k0 > p.step_begin;
            pending = p;
            any = true;
        });
        if (any) {
            phase(pending, true);
            const int64_t last = pending.step_end;
            if (!finished && last <= k1 && last > k0)  // bias and activation over the whole tile
                call(all_rows, tile.ow, tile_end, k1, k1, true, true);
        } else if (chunk + 2 == bounds.size()) {
            // The tile reads only padding: its sums are zero (or the residual), so the last
            // chunk applies bias and activation to them without reading the input.
            call(all_rows, tile.ow, tile_end, k1, k1, preloaded, true);
        }
        tile.ow = tile_end;
    }
}

DirectConvKernel::WeightPrefetch DirectConvKernel::next_weights(int64_t block_index,
                                                                std::size_t chunk,
                                                                int64_t blocks_end) const {
    const ConvChannelPlan::Block& block = plan_->blocks[static_cast<std::size_t>(block_index)];
    const std::vector<int64_t>& bounds = chunks_[block.table];
    if (!prefetch_weights_) return {};
    if (chunk + 2 < bounds.size())
        return {weights_ + block.weights_offset + bounds[chunk + 1] * block.width,
                (bounds[chunk + 2] - bounds[chunk + 1]) * block.width / kChannelBlock};
    if (block_index + 1 >= blocks_end) return {};
    const ConvChannelPlan::Block& next = plan_->blocks[static_cast<std::size_t>(block_index + 1)];
    const std::vector<int64_t>& next_bounds = chunks_[next.table];
    return {weights_ + next.weights_offset,
            (next_bounds[1] - next_bounds[0]) * next.width / kChannelBlock};
}

void DirectConvKernel::run(const Window& w, const ThreadInfo&) {
    const TensorInfo& s = src_->info();
    const TensorInfo& d = dst_->info();
    Layout l{src_->data<float>(),
             dst_->data<float>(),
             s.stride_n(),
             s.stride_h(),
             s.stride_w(),
             s.h(),
             s.w(),
             d.stride_n(),
             d.stride_c(),
             d.stride_h(),
             d.stride_w(),
             d.h(),
             d.w()};
    if (residual_) {
        const TensorInfo& r = residual_->info();
        l.res = residual_->data<float>();
        l.res_n = r.stride_n();
        l.res_c = r.stride_c();
        l.res_h = r.stride_h();
        l.res_w = r.stride_w();
        l.res_in_dst = l.res == l.dst && l.res_n == l.dst_n && l.res_c == l.dst_c &&
                       l.res_h == l.dst_h && l.res_w == l.dst_w;
    }
    auto chunks_of = [this](int64_t b) {
        return chunks_[plan_->blocks[static_cast<std::size_t>(b)].table].size() - 1;
    };
    for (int64_t n = w[2].start(); n < w[2].end(); ++n) {
        if (blocks_inner_) {
            for (int64_t oh = w[1].start(); oh < w[1].end(); ++oh)
                for (int64_t b = w[0].start(); b < w[0].end(); ++b)
                    for (std::size_t c = 0; c < chunks_of(b); ++c)
                        run_row(l, n, oh, b, c, b - w[0].start(), w[0].end() - w[0].start(),
                                WeightPrefetch{});
        } else {
            // Blocks outermost, so that one block's weights stay in L2 while its rows run. Where
            // the weights exceed L2 (prefetch_weights_), the rows' tiles fetch the weights read
            // next (the next chunk's, or after a block's last chunk the next block's first), a
            // share per row, so that those arrive from L3 ahead of use rather than at the rate
            // the first row consumes them.
            const int64_t rows = w[1].end() - w[1].start();
            for (int64_t b = w[0].start(); b < w[0].end(); ++b) {
                for (std::size_t c = 0; c < chunks_of(b); ++c) {
                    const WeightPrefetch next = next_weights(b, c, w[0].end());
                    const int64_t per_row = (next.count + rows - 1) / std::max<int64_t>(rows, 1);
                    for (int64_t oh = w[1].start(); oh < w[1].end(); ++oh) {
                        const int64_t from = std::min(next.count, (oh - w[1].start()) * per_row);
                        const int64_t to = std::min(next.count, from + per_row);
                        run_row(l, n, oh, b, c, 0, 1,
                                {next.first + from * kChannelBlock, to - from});
                    }
                }
            }
        }
    }
}

}  // namespace tessera::cpu
