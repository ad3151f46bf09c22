// for_each_tile_phase and tile_reads_no_padding against a tap-by-tap, pixel-by-pixel count of
// which reads of a convolution tile fall inside the input, over random geometries.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "kernels/conv_tile_phases.hpp"

using namespace tessera::cpu;

namespace {

/// Rows (bit r) and pixels (a flag per pixel of the tile) that read input for tap block `tap`.
struct TapReads {
    int row_mask = 0;
    std::vector<bool> pixels;
};

TapReads brute_force(const ConvTaps& c, const ConvTile& t, int64_t tap) {
    const Conv2dGeometry& g = c.geometry;
    const int64_t columns = c.columns_inner ? 1 : c.kw;
    const int64_t y = tap / columns, x = tap % columns;
    TapReads r;
    for (int64_t row = 0; row < t.rows; ++row) {
        const int64_t ih = (t.oh + row) * g.stride_h - g.pad_top + y * g.dilation_h;
        if (ih >= 0 && ih < c.in_h) r.row_mask |= 1 << row;
    }
    for (int64_t p = t.ow; p < t.ow + t.pixels; ++p) {
        bool inside = false;  // columns_inner: some column of the kernel row reads input
        for (int64_t kx = c.columns_inner ? 0 : x; kx < (c.columns_inner ? c.kw : x + 1); ++kx) {
            const int64_t iw = p * g.stride_w - g.pad_left + kx * g.dilation_w;
            inside = inside || (iw >= 0 && iw < c.in_w);
        }
        r.pixels.push_back(c.columns_inner || inside);
    }
    return r;
}

}  // namespace

TEST_CASE("conv tile phases: exactly the taps, rows and pixels that read input, in step order") {
    std::mt19937 rng(42);
    const auto pick = [&rng](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    int tiles = 0, interior = 0, skipped_taps = 0;
    for (int trial = 0; trial < 400; ++trial) {
        ConvTaps c;
        Conv2dGeometry& g = c.geometry;
        for (int64_t* v : {&g.stride_h, &g.stride_w}) *v = pick(1, 3);
        for (int64_t* v : {&g.dilation_h, &g.dilation_w}) *v = pick(1, 2);
        for (int64_t* v : {&g.pad_top, &g.pad_bottom, &g.pad_left, &g.pad_right}) *v = pick(0, 4);
        for (int64_t* v : {&c.kh, &c.kw}) *v = pick(1, 7);
        for (int64_t* v : {&c.in_h, &c.in_w}) *v = pick(1, 12);
        c.columns_inner = pick(0, 3) == 0;
        c.steps_per_tap = pick(1, 3) * (c.columns_inner ? c.kw : 1);
        const int64_t out_h =
            conv_output_extent(c.in_h, c.kh, g.stride_h, g.pad_top, g.pad_bottom, g.dilation_h);
        const int64_t out_w =
            conv_output_extent(c.in_w, c.kw, g.stride_w, g.pad_left, g.pad_right, g.dilation_w);
        if (out_h < 1 || out_w < 1) continue;
        const int64_t taps = c.kh * (c.columns_inner ? 1 : c.kw);
        for (int64_t oh = 0; oh < out_h; ++oh)
            for (int64_t rows = 1; rows <= std::min<int64_t>(2, out_h - oh); ++rows) {
                ConvTile t{oh, rows, pick(0, out_w - 1), 1};
                t.pixels = pick(1, out_w - t.ow);
                CAPTURE(trial);
                CAPTURE(oh);
                std::vector<TilePhase> phases;
                for_each_tile_phase(c, t, [&](const TilePhase& p) { phases.push_back(p); });
                // Every tap block appears in at most one phase, with its exact rows and pixels.
                std::vector<int> seen(static_cast<std::size_t>(taps), 0);
                int64_t previous_end = 0;
                bool all_inside = true;
                for (const TilePhase& p : phases) {
                    CHECK(p.step_begin >= previous_end);
                    CHECK(p.step_begin < p.step_end);
                    CHECK(p.step_begin % c.steps_per_tap == 0);
                    CHECK(p.step_end % c.steps_per_tap == 0);
                    previous_end = p.step_end;
                    for (int64_t s = p.step_begin; s < p.step_end; s += c.steps_per_tap) {
                        const int64_t tap = s / c.steps_per_tap;
                        ++seen[static_cast<std::size_t>(tap)];
                        const TapReads want = brute_force(c, t, tap);
                        CHECK(p.row_mask == want.row_mask);
                        for (int64_t px = t.ow; px < t.ow + t.pixels; ++px)
                            CHECK(want.pixels[static_cast<std::size_t>(px - t.ow)] ==
                                  (px >= p.pixel_begin && px < p.pixel_end));
                    }
                }
                for (int64_t tap = 0; tap < taps; ++tap) {
                    const TapReads want = brute_force(c, t, tap);
                    bool any_pixel = false, every_pixel = true;
                    for (bool b : want.pixels) {
                        any_pixel = any_pixel || b;
                        every_pixel = every_pixel && b;
                    }
                    const bool reads = want.row_mask != 0 && any_pixel;
                    CHECK(seen[static_cast<std::size_t>(tap)] == (reads ? 1 : 0));
                    all_inside = all_inside && want.row_mask == (1 << t.rows) - 1 && every_pixel;
                    skipped_taps += reads ? 0 : 1;
                }
                CHECK(tile_reads_no_padding(c, t) == all_inside);
                if (all_inside) CHECK((phases.size() == 1 && phases[0].covers(t)));
                ++tiles;
                interior += all_inside ? 1 : 0;
            }
    }
    // The random geometries reached both kinds of tile and taps left out.
    CHECK(tiles > 1000);
    CHECK(interior > 50);
    CHECK(skipped_taps > 100);
}

TEST_CASE("conv tile phases: a 3x3 pad-1 layer's top-left two-row tile on a 7x7 input") {
    ConvTaps c;
    c.geometry.pad_top = c.geometry.pad_left = c.geometry.pad_bottom = c.geometry.pad_right = 1;
    c.kh = c.kw = 3;
    c.steps_per_tap = 512;
    c.in_h = c.in_w = 7;
    std::vector<TilePhase> phases;
    for_each_tile_phase(c, ConvTile{0, 2, 0, 7}, [&](const TilePhase& p) { phases.push_back(p); });
    // Kernel row 0 reads input for output row 1 only; column 0 skips pixel 0, column 2 pixel 6.
    const std::vector<TilePhase> want = {
        {0, 512, 2, 1, 7},     {512, 1024, 2, 0, 7},  {1024, 1536, 2, 0, 6},
        {1536, 2048, 3, 1, 7}, {2048, 2560, 3, 0, 7}, {2560, 3072, 3, 0, 6},
        {3072, 3584, 3, 1, 7}, {3584, 4096, 3, 0, 7}, {4096, 4608, 3, 0, 6},
    };
    REQUIRE(phases.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        CAPTURE(i);
        CHECK(phases[i].step_begin == want[i].step_begin);
        CHECK(phases[i].step_end == want[i].step_end);
        CHECK(phases[i].row_mask == want[i].row_mask);
        CHECK(phases[i].pixel_begin == want[i].pixel_begin);
        CHECK(phases[i].pixel_end == want[i].pixel_end);
    }
    // An interior tile of the same layer: one phase of every step.
    phases.clear();
    for_each_tile_phase(c, ConvTile{2, 2, 1, 5}, [&](const TilePhase& p) { phases.push_back(p); });
    CHECK(tile_reads_no_padding(c, ConvTile{2, 2, 1, 5}));
    REQUIRE(phases.size() == 1);
    CHECK(phases[0].step_end == 9 * 512);
}
