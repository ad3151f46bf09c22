// DirectConvKernel: fp32 direct convolution writing the blocked layout (nchw16c). Each output row
// is tiled into MR pixels x NR channels and computed by the indexed microkernel, which reads the
// (padded) input through a table of element offsets, one per reduction step (channel, kh, kw).
// The same kernel thus serves nchw16c, nchw and nhwc inputs, strides, dilation and groups.
// The reduction may be cut into chunks of whole channel blocks (a few dozen KiB of weights, per
// instruction set); a tile keeps its partial sums in the output between chunks (same chunks
// whatever the thread split). Steps are ordered kernel row first, so tiles at the image edges
// run only the taps that read input (conv_tile_phases.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "simd/kernel_table.hpp"
#include "tessera/cpu/kernel.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

/// How output channels are grouped into NR-wide blocks and which input channels each block reads.
struct ConvChannelPlan {
    struct Block {
        int64_t oc_start = 0;              ///< first output channel (multiple of 16)
        int64_t width = 0;                 ///< channels in the block (16 or NR)
        int64_t ic_begin = 0, ic_end = 0;  ///< input channels read
        int64_t weights_offset = 0;        ///< floats into the packed weights
        std::size_t table = 0;  ///< index of the offset table (shared between equal ranges)
    };
    int64_t nr = 16;            ///< channels of a full register tile (a multiple of 16)
    int64_t mr = 1;             ///< output pixels of a full register tile (per output row)
    int64_t rows_per_tile = 1;  ///< 2: tiles cover two output rows (KernelTable::conv_two_rows)
    int64_t kh = 1, kw = 1;
    std::vector<Block> blocks;
    std::vector<std::pair<int64_t, int64_t>> table_ranges;  ///< input channel range per table
    int64_t packed_floats = 0;

    /// Taps innermost (nchw inputs, whose consecutive taps of a row are neighbours in memory);
    /// else channels innermost (nchw16c and nhwc inputs, whose channels of a pixel are).
    bool taps_inner = false;
    /// Channels innermost only: kernel columns outside the 16-channel chunks, so that every tap
    /// is a contiguous block of steps (KernelTable::conv_columns_outer).
    bool columns_outer = false;

    /// Reduction steps of a channel range, in table order. Kernel rows are outermost, so that the
    /// steps of a run of kernel rows (with columns_outer: of taps) are contiguous and a tile at the
    /// image edge can skip the taps that read only padding (conv_tile_phases.hpp). Within a kernel
    /// row: columns_outer: column, 16-channel chunk, channel; taps_inner: chunk, channel, column;
    /// otherwise chunk, column, channel.
    template <class F>
    void for_each_step(int64_t ic_begin, int64_t ic_end, F&& f) const {
        for_each_chunk_block(ic_begin, ic_end, [&](int64_t y, int64_t x, int64_t c0, int64_t c1) {
            if (columns_outer) {
                for (int64_t c = c0; c < c1; ++c) f(c, y, x);
            } else if (taps_inner) {
                for (int64_t c = c0; c < c1; ++c)
                    for (int64_t col = 0; col < kw; ++col) f(c, y, col);
            } else {
                for (int64_t col = 0; col < kw; ++col)
                    for (int64_t c = c0; c < c1; ++c) f(c, y, col);
            }
        });
    }
    /// The blocks of consecutive steps that K chunks are cut from, in table order: one per
    /// 16-channel chunk [c0, c1) of each kernel row y (with columns_outer: of each tap (y, x);
    /// otherwise x is 0 and the block covers every column), f(y, x, c0, c1). A block has
    /// (c1 - c0) * steps_per_channel() steps.
    template <class F>
    void for_each_chunk_block(int64_t ic_begin, int64_t ic_end, F&& f) const {
        for (int64_t y = 0; y < kh; ++y)
            for (int64_t x = 0; x < (columns_outer ? kw : 1); ++x)
                for (int64_t c0 = ic_begin; c0 < ic_end;
                     c0 = (c0 / kChannelBlock + 1) * kChannelBlock)
                    f(y, x, c0, std::min(ic_end, (c0 / kChannelBlock + 1) * kChannelBlock));
    }
    /// Steps per input channel in one chunk block: 1 with columns_outer, else the kernel width.
    int64_t steps_per_channel() const { return columns_outer ? 1 : kw; }
    int64_t steps(int64_t ic_begin, int64_t ic_end) const { return (ic_end - ic_begin) * kh * kw; }
    /// Steps of one tap block: a tap (y, x) with columns_outer, else a whole kernel row.
    int64_t steps_per_tap(int64_t ic_begin, int64_t ic_end) const {
        return (ic_end - ic_begin) * steps_per_channel();
    }
};

/// Builds the block plan for `oc` outputs, `ic` inputs, `groups`, kernel kh x kw and register
/// tiles of mr pixels x nr channels.
ConvChannelPlan make_conv_channel_plan(int64_t oc, int64_t ic, int64_t groups, int64_t kh,
                                       int64_t kw, int64_t mr, int64_t nr);

struct DirectConvParams {
    Conv2dGeometry geometry;
    MicroArgs epilogue;  ///< act / act_lo / act_hi / act_slope used
};

class DirectConvKernel final : public ICpuKernel {
  public:
    const char* name() const override { return "DirectConvKernel"; }
    /// `src` is f32 (nchw16c, nchw or nhwc) padded by at least the geometry's padding; dst is f32
    /// nchw16c. Weights/bias pointers are bound later (set_weights) since they come from prepare().
    /// The reduction offsets bake src's strides in, so its layout is frozen (not resizable) from
    /// here on; dst's strides are read at run time (a later function may still pad it).
    void configure(const KernelTable& table, ITensor& src, ITensor& dst,
                   const ConvChannelPlan& plan, const DirectConvParams& params);
    void set_weights(const float* packed, const float* bias) {
        weights_ = packed;
        bias_ = bias;
    }
    /// A tensor of dst's shape (f32 nchw16c, any padding) added to the sums before the bias and
    /// activation, read by the epilogue of each pixel's last call (dst itself: the sums start
    /// from its values). Null: none.
    void set_residual(const ITensor* residual) { residual_ = residual; }
    void run(const Window& window, const ThreadInfo& info) override;
    /// Whether a kh x kw convolution of `g` from `src` to `dst` runs over the flattened plane
    /// (1x1, stride 1, unpadded, dense input rows; see span_) rather than output row by row.
    static bool runs_on_plane(const Conv2dGeometry& g, int64_t kh, int64_t kw,
                              const TensorInfo& src, const TensorInfo& dst) {
        return kh == 1 && kw == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 &&
               g.pad_left == 0 && src.w() == dst.w() && src.stride_h() == dst.w() * src.stride_w();
    }

  private:
    /// Weight lines a row's tiles fetch into L2 while they run: `count` 16-float lines from
    /// `first`, spread over the row's tiles and their reduction steps.
    struct WeightPrefetch {
        const float* first = nullptr;
        int64_t count = 0;
    };
    /// One output row (or span of the flattened plane) of one block and K chunk; `share` of
    /// `shares` (the calls that cover this row) says which part of the next row's input this call
    /// prefetches, `next_weights` which of the weights read after this chunk.
    struct Layout;
    void run_row(const Layout& layout, int64_t n, int64_t row, int64_t block, std::size_t chunk,
                 int64_t share, int64_t shares, WeightPrefetch next_weights) const;
    /// The weights read after chunk `chunk` of block `block`: the block's next chunk, else the
    /// first chunk of the next block below `blocks_end`, else none; none when the weights fit in
    /// L2.
    WeightPrefetch next_weights(int64_t block, std::size_t chunk, int64_t blocks_end) const;

    const KernelTable* table_ = nullptr;
    const ITensor* src_ = nullptr;
    ITensor* dst_ = nullptr;
    const ConvChannelPlan* plan_ = nullptr;
    DirectConvParams params_;
    std::vector<std::vector<int64_t>> offsets_;  ///< per plan table: element offset of each step
    std::vector<std::vector<int64_t>> chunks_;   ///< per plan table: step boundaries of K chunks
    /// Per plan table: the offset of each run of consecutive input elements the microkernel takes
    /// (16 channels of a pixel, 3 or 7 taps of an nchw row; MicroArgs::koff_run); empty: no runs.
    std::vector<std::vector<int64_t>> runs_;
    /// Steps per entry of table `t`'s runs (1 without runs).
    int64_t run_length(std::size_t t) const {
        return runs_[t].empty() ? 1 : static_cast<int64_t>(offsets_[t].size() / runs_[t].size());
    }
    /// Per plan table and chunk: offsets of the distinct 16-float input lines a pixel reads, when
    /// the input streams from memory (1x1 on nchw16c, read in place); empty otherwise.
    std::vector<std::vector<std::vector<int64_t>>> lines_;
    const float* weights_ = nullptr;
    const float* bias_ = nullptr;
    const ITensor* residual_ = nullptr;
    bool blocks_inner_ = true;
    bool prefetch_weights_ = false;  ///< rows fetch the weights read next (next_weights)
    /// Microkernels for the input's pixel stride: [pixels - 1][vectors - 1]; two-row ones when
    /// the plan asks for them (then a row index below counts pairs of output rows).
    MicroKernel micro_[kMaxMR][kMaxNV] = {};
    MicroKernel micro_two_rows_[kMaxMR][kMaxNV] = {};
    bool two_rows_ = false;
    /// A 1x1, stride-1, unpadded convolution whose input plane is dense reads pixel p of the
    /// whole plane at p times the pixel stride: the plane is then cut into spans of `span_` pixels
    /// (whole register tiles) instead of rows, so no tile is cut short by a row end (while the
    /// output plane is dense too; otherwise a span runs as one piece per output row it touches).
    int64_t span_ = 0;  ///< 0: rows are output rows
    int64_t rows_ = 0;  ///< rows or spans per image
    /// Segments of whole tiles each row is cut into (window dimension 1 counts row * segments_ +
    /// segment); 1 but for layers with few rows and blocks.
    int64_t segments_ = 1;
};

}  // namespace tessera::cpu
