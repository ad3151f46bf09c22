// Which reduction steps of a direct-convolution tile read input rather than padding. A tile's
// reduction runs over taps (kernel row y, column x) in blocks of contiguous steps (ConvChannelPlan
// orders them tap-major); at the image edges some output rows or pixels of the tile read only
// padding for some taps. for_each_tile_phase cuts the reduction into phases: runs of consecutive
// taps over which the same rows and pixels of the tile read input, so the kernel can skip the
// products of padding (2 of every 9 taps of a 3x3 pad 1 layer on a 7x7 edge).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "tessera/cpu/types.hpp"

namespace tessera::cpu {

/// The taps of a convolution and the input they read.
struct ConvTaps {
    Conv2dGeometry geometry;
    int64_t kh = 1, kw = 1;
    /// Kernel columns innermost within a step block (nchw inputs): a tap block is a whole kernel
    /// row, and pixels are never narrowed.
    bool columns_inner = false;
    int64_t steps_per_tap = 0;   ///< steps of one tap block (one kernel row when columns_inner)
    int64_t in_h = 0, in_w = 0;  ///< input extent without padding
};

/// A tile of output rows oh .. oh + rows - 1 (1 or 2) and pixels ow .. ow + pixels - 1.
struct ConvTile {
    int64_t oh = 0, rows = 1;
    int64_t ow = 0, pixels = 1;
};

/// Steps [step_begin, step_end) over which rows `row_mask` (bit r: row oh + r) and pixels
/// [pixel_begin, pixel_end) of the tile read input.
struct TilePhase {
    int64_t step_begin = 0, step_end = 0;
    int row_mask = 0;
    int64_t pixel_begin = 0, pixel_end = 0;

    bool covers(const ConvTile& t) const {
        return row_mask == (1 << t.rows) - 1 && pixel_begin == t.ow && pixel_end == t.ow + t.pixels;
    }
};

namespace detail {

/// First index i >= 0 with origin + i * step >= 0 (origin may be negative, step > 0).
constexpr int64_t first_inside(int64_t origin, int64_t step) {
    return origin >= 0 ? 0 : (-origin + step - 1) / step;
}

/// Indices i in [lo, hi) with 0 <= origin + i * step < extent, as a (possibly empty) range.
constexpr std::pair<int64_t, int64_t> inside(int64_t origin, int64_t step, int64_t extent,
                                             int64_t lo, int64_t hi) {
    if (origin >= extent) return {lo, lo};
    const int64_t end = (extent - 1 - origin) / step + 1;
    return {std::max(lo, first_inside(origin, step)), std::min(hi, end)};
}

}  // namespace detail

/// Whether every kernel row reads input for all rows of tile `t` (its pixels aside).
inline bool rows_read_no_padding(const ConvTaps& c, const ConvTile& t) {
    const Conv2dGeometry& g = c.geometry;
    const int64_t top = t.oh * g.stride_h - g.pad_top;
    const int64_t bottom = (t.oh + t.rows - 1) * g.stride_h - g.pad_top + (c.kh - 1) * g.dilation_h;
    return top >= 0 && bottom < c.in_h;
}

/// Whether every tap block reads input for all pixels of tile `t` (its rows aside).
inline bool pixels_read_no_padding(const ConvTaps& c, const ConvTile& t) {
    if (c.columns_inner) return true;
    const Conv2dGeometry& g = c.geometry;
    const int64_t left = t.ow * g.stride_w - g.pad_left;
    const int64_t right =
        (t.ow + t.pixels - 1) * g.stride_w - g.pad_left + (c.kw - 1) * g.dilation_w;
    return left >= 0 && right < c.in_w;
}

/// Whether every tap of tile `t` reads input for all its rows and pixels (one phase of every
/// step): the common case, decided without walking the taps.
inline bool tile_reads_no_padding(const ConvTaps& c, const ConvTile& t) {
    return rows_read_no_padding(c, t) && pixels_read_no_padding(c, t);
}

/// Calls f(const TilePhase&) for each phase of tile `t`, in step order; taps whose reads of the
/// tile are all padding are left out. No phase at all: the tile reads only padding.
template <class F>
void for_each_tile_phase(const ConvTaps& c, const ConvTile& t, F&& f) {
    const Conv2dGeometry& g = c.geometry;
    const int64_t columns = c.columns_inner ? 1 : c.kw;
    TilePhase open;
    bool is_open = false;
    const auto close = [&] {
        if (is_open) f(static_cast<const TilePhase&>(open));
        is_open = false;
    };
    for (int64_t y = 0; y < c.kh; ++y) {
        int mask = 0;
        for (int64_t r = 0; r < t.rows; ++r) {
            const int64_t ih = (t.oh + r) * g.stride_h - g.pad_top + y * g.dilation_h;
            if (ih >= 0 && ih < c.in_h) mask |= 1 << r;
        }
        for (int64_t x = 0; x < columns; ++x) {
            // Pixel ow reads input column ow * stride - pad + x * dilation.
            const auto [p0, p1] = c.columns_inner
                                      ? std::pair<int64_t, int64_t>{t.ow, t.ow + t.pixels}
                                      : detail::inside(x * g.dilation_w - g.pad_left, g.stride_w,
                                                       c.in_w, t.ow, t.ow + t.pixels);
            const int64_t s0 = (y * columns + x) * c.steps_per_tap, s1 = s0 + c.steps_per_tap;
            if (mask == 0 || p0 >= p1) {  // the tap reads only padding for this tile
                close();
                continue;
            }
            if (is_open && open.row_mask == mask && open.pixel_begin == p0 &&
                open.pixel_end == p1 && open.step_end == s0) {
                open.step_end = s1;
                continue;
            }
            close();
            open = TilePhase{s0, s1, mask, p0, p1};
            is_open = true;
        }
    }
    close();
}

}  // namespace tessera::cpu
