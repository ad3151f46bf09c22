// Depthwise convolution (border modes, valid region, activations in the tiles and after them) and
// pooling (max/avg incl/excl padding, global) against direct loops; 1 vs 2 threads bit-identical;
// the collapsed window of plane rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/neighbourhood_kernels.hpp"
#include "tessera/cpu/error.hpp"
#include "tessera/cpu/functions/depthwise_conv2d.hpp"
#include "tessera/cpu/functions/pooling.hpp"
#include "test_helpers.hpp"

using namespace tessera::cpu;
using namespace tessera::cpu::test;

namespace {

struct Dims {
    int64_t n, c, h, w;
};

/// Input value at (n, c, y, x) under a border mode (x/y may be outside).
float sample(const std::vector<float>& x, const Dims& d, int64_t n, int64_t c, int64_t y,
             int64_t xx, BorderMode mode, float value) {
    if (y < 0 || y >= d.h || xx < 0 || xx >= d.w) {
        if (mode == BorderMode::constant) return value;
        y = std::min(std::max<int64_t>(y, 0), d.h - 1);
        xx = std::min(std::max<int64_t>(xx, 0), d.w - 1);
    }
    return x[static_cast<std::size_t>(((n * d.c + c) * d.h + y) * d.w + xx)];
}

}  // namespace

TEST_CASE("depthwise conv matches direct loops for every border mode") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        struct Case {
            Dims d;
            int64_t k, stride, pad, dil;
            BorderMode mode;
            float value = 0.0f;  ///< constant border value
            /// Leaky relu and hard swish run in the tiles' registers, sigmoid as a pass after.
            ActivationKind act = ActivationKind::leaky_relu;
        };
        // Zero borders are skipped taps inside the kernel (including outputs whose taps all fall
        // outside, and images narrower than the kernel); other borders are a padded copy.
        const Case cases[] = {
            {{1, 16, 8, 8}, 3, 1, 1, 1, BorderMode::constant},
            {{2, 21, 9, 13}, 3, 2, 1, 1, BorderMode::constant},
            {{1, 20, 6, 5}, 3, 1, 3, 1, BorderMode::constant},
            {{1, 16, 9, 11}, 5, 2, 2, 2, BorderMode::constant},
            {{1, 16, 2, 3}, 5, 1, 2, 1, BorderMode::constant},
            {{1, 16, 5, 21}, 3, 1, 2, 1, BorderMode::constant},
            {{1, 16, 4, 11}, 2, 1, 1, 1, BorderMode::constant},
            {{1, 17, 3, 5}, 3, 1, 1, 1, BorderMode::constant},
            {{1, 18, 7, 6}, 3, 1, 1, 1, BorderMode::constant, 0.75f},
            {{1, 35, 11, 10}, 5, 1, 2, 2, BorderMode::replicate},
            {{1, 16, 10, 12}, 3, 1, 1, 1, BorderMode::undefined},
            {{2, 40, 7, 9}, 3, 2, 2, 1, BorderMode::undefined},
            // stride-2 rows long enough for whole tiles, a last tile that
            // overlaps the one before it, and 5-tap windows
            {{1, 32, 7, 40}, 3, 2, 1, 1, BorderMode::constant},
            {{2, 16, 9, 37}, 5, 2, 2, 1, BorderMode::constant},
            {{1, 24, 5, 38}, 3, 2, 0, 1, BorderMode::undefined},
            // stride-1 5x5 rows with their zero columns: tiles of 8 and an
            // overlapping last one, rows of 4 to 7 in two tiles of 4, shorter
            // rows one output at a time; 3x3 rows of 6 in tiles of 4
            {{1, 16, 9, 28}, 5, 1, 2, 1, BorderMode::constant, 0.0f, ActivationKind::hard_swish},
            {{1, 48, 7, 7}, 5, 1, 2, 1, BorderMode::constant, 0.0f, ActivationKind::sigmoid},
            {{2, 20, 6, 5}, 5, 1, 2, 1, BorderMode::constant},
            {{1, 16, 5, 4}, 5, 1, 2, 1, BorderMode::constant, 0.0f, ActivationKind::hard_swish},
            {{1, 33, 6, 6}, 3, 1, 1, 1, BorderMode::constant, 0.0f, ActivationKind::sigmoid},
            {{1, 16, 8, 13}, 5, 1, 0, 1, BorderMode::constant, 0.0f, ActivationKind::hard_swish}};
        // The activation each case asks for, on the double-precision sum.
        const auto activate = [](ActivationKind kind, double sum) {
            switch (kind) {
                case ActivationKind::hard_swish:
                    return static_cast<float>(sum * std::clamp(sum / 6.0 + 0.5, 0.0, 1.0));
                case ActivationKind::sigmoid:
                    return static_cast<float>(1.0 / (1.0 + std::exp(-sum)));
                default:
                    return sum > 0 ? static_cast<float>(sum) : 0.1f * static_cast<float>(sum);
            }
        };
        uint32_t seed = 50;
        std::size_t index = 0;
        for (const Case& cs : cases) {
            CAPTURE(ctx.isa_name());
            CAPTURE(cs.d.c);
            CAPTURE(cs.d.w);
            CAPTURE(cs.k);
            const Dims& d = cs.d;
            const auto x = random_vector(static_cast<std::size_t>(d.n * d.c * d.h * d.w), seed++);
            const auto wt = random_vector(static_cast<std::size_t>(d.c * cs.k * cs.k), seed++);
            const auto b = random_vector(static_cast<std::size_t>(d.c), seed++);
            // Every other input carries the padding (read in place), the rest is exactly the image
            // (zero borders read only inside it: ASan checks; other borders copy it).
            const bool padded = index++ % 2 == 1;
            auto src =
                make_tensor({d.n, d.c, d.h, d.w}, DataLayout::nchw16c, DataType::f32,
                            padded ? PaddingSize{cs.pad, cs.pad, cs.pad, cs.pad} : PaddingSize{});
            write_nchw(*src, x);
            auto weights = make_tensor({d.c, 1, cs.k, cs.k});
            write_nchw(*weights, wt);
            auto bias = make_tensor({d.c});
            write_nchw(*bias, b);
            const int64_t oh = conv_output_extent(d.h, cs.k, cs.stride, cs.pad, cs.pad, cs.dil);
            const int64_t ow = conv_output_extent(d.w, cs.k, cs.stride, cs.pad, cs.pad, cs.dil);
            auto dst = make_tensor({d.n, d.c, oh, ow}, DataLayout::nchw16c);
            DepthwiseConv2dInfo info;
            info.geometry.stride_h = info.geometry.stride_w = cs.stride;
            info.geometry.pad_top = info.geometry.pad_bottom = info.geometry.pad_left =
                info.geometry.pad_right = cs.pad;
            info.geometry.dilation_h = info.geometry.dilation_w = cs.dil;
            info.border_mode = cs.mode;
            info.border_value = cs.value;
            info.activation = cs.act == ActivationKind::hard_swish
                                  ? ActivationInfo{cs.act, 1.0f / 6.0f, 0.5f}
                                  : ActivationInfo{cs.act, 0.1f};
            DepthwiseConv2d dw(ctx);
            dw.configure(*src, *weights, bias.get(), *dst, info);
            dw.run();
            const ValidRegion& valid = dst->info().valid_region();
            const auto got = read_nchw(*dst);
            bool ok = true;
            int64_t checked = 0;
            for (int64_t n = 0; n < d.n; ++n)
                for (int64_t c = 0; c < d.c; ++c)
                    for (int64_t y = 0; y < oh; ++y)
                        for (int64_t xx = 0; xx < ow; ++xx) {
                            const bool inside_all =
                                y * cs.stride - cs.pad >= 0 && xx * cs.stride - cs.pad >= 0 &&
                                y * cs.stride - cs.pad + (cs.k - 1) * cs.dil < d.h &&
                                xx * cs.stride - cs.pad + (cs.k - 1) * cs.dil < d.w;
                            const bool in_valid =
                                y >= valid.anchor[2] && y < valid.anchor[2] + valid.shape[2] &&
                                xx >= valid.anchor[3] && xx < valid.anchor[3] + valid.shape[3];
                            if (cs.mode == BorderMode::undefined) {
                                CHECK(in_valid ==
                                      inside_all);  // valid region = windows inside the image
                                if (!in_valid) continue;
                            } else {
                                CHECK(in_valid);
                            }
                            double sum = b[static_cast<std::size_t>(c)];
                            for (int64_t ky = 0; ky < cs.k; ++ky)
                                for (int64_t kx = 0; kx < cs.k; ++kx)
                                    sum +=
                                        static_cast<double>(
                                            sample(x, d, n, c, y * cs.stride - cs.pad + ky * cs.dil,
                                                   xx * cs.stride - cs.pad + kx * cs.dil, cs.mode,
                                                   cs.value)) *
                                        wt[static_cast<std::size_t>((c * cs.k + ky) * cs.k + kx)];
                            const float want = activate(cs.act, sum);
                            const float g =
                                got[static_cast<std::size_t>(((n * d.c + c) * oh + y) * ow + xx)];
                            if (!(std::fabs(g - want) <= 1e-4f + 1e-4f * std::fabs(want)))
                                ok = false;
                            ++checked;
                        }
            CHECK(ok);
            CHECK(checked > 0);
        }
    }
}

TEST_CASE("pooling matches direct loops: max, avg incl/excl padding, global") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        struct Case {
            Dims d;
            PoolingInfo p;
        };
        PoolingInfo max3{PoolingType::max, 3, 3, 2, 2, 1, 1, 1, 1, true, false};
        PoolingInfo avg_excl{PoolingType::average, 3, 2, 2, 1, 1, 0, 1, 1, true, false};
        PoolingInfo avg_incl{PoolingType::average, 3, 3, 1, 1, 1, 1, 1, 1, false, false};
        PoolingInfo global{PoolingType::average, 1, 1, 1, 1, 0, 0, 0, 0, true, true};
        PoolingInfo global_max = global;
        global_max.type = PoolingType::max;
        // Windows clipped on both sides (a 2x2 image under a padded 3x3 window), asymmetric
        // padding with a stride wider than the window, the last window clipped at the bottom.
        PoolingInfo max_asym{PoolingType::max, 2, 3, 1, 4, 0, 1, 1, 2, true, false};
        PoolingInfo avg_asym_incl{PoolingType::average, 2, 3, 1, 4, 0, 1, 1, 2, false, false};
        const Case cases[] = {
            {{2, 20, 9, 11}, max3},     {{1, 16, 8, 7}, avg_excl},       {{1, 33, 6, 6}, avg_incl},
            {{3, 17, 5, 7}, global},    {{1, 16, 4, 4}, global_max},     {{1, 16, 2, 2}, max3},
            {{1, 32, 5, 10}, max_asym}, {{1, 16, 5, 10}, avg_asym_incl}, {{1, 16, 3, 1}, avg_excl}};
        uint32_t seed = 70;
        // Each case once on an input carrying the padding and once on the bare image: both are
        // read in place, windows clipped at the image's border.
        for (int index = 0; index < 2 * static_cast<int>(std::size(cases)); ++index) {
            const Case& cs = cases[index / 2];
            const bool padded = index % 2 == 1;
            CAPTURE(index);
            const Dims& d = cs.d;
            const PoolingInfo& p = cs.p;
            const auto x = random_vector(static_cast<std::size_t>(d.n * d.c * d.h * d.w), seed++);
            auto src =
                make_tensor({d.n, d.c, d.h, d.w}, DataLayout::nchw16c, DataType::f32,
                            padded ? PaddingSize{p.pad_top, p.pad_right, p.pad_bottom, p.pad_left}
                                   : PaddingSize{});
            write_nchw(*src, x);
            const auto shape = Pooling::output_shape(src->info(), p);
            auto dst = make_tensor(shape, DataLayout::nchw16c);
            Pooling pool(ctx);
            pool.configure(*src, *dst, p);
            pool.run();
            const int64_t kh = p.global ? d.h : p.kernel_h, kw = p.global ? d.w : p.kernel_w;
            const int64_t sh = p.global ? 1 : p.stride_h, sw = p.global ? 1 : p.stride_w;
            const int64_t pt = p.global ? 0 : p.pad_top, pl = p.global ? 0 : p.pad_left;
            std::vector<float> want;
            for (int64_t n = 0; n < d.n; ++n)
                for (int64_t c = 0; c < d.c; ++c)
                    for (int64_t y = 0; y < shape[2]; ++y)
                        for (int64_t xx = 0; xx < shape[3]; ++xx) {
                            double acc = p.type == PoolingType::max ? -INFINITY : 0.0;
                            int64_t count = 0;
                            for (int64_t ky = 0; ky < kh; ++ky)
                                for (int64_t kx = 0; kx < kw; ++kx) {
                                    const int64_t iy = y * sh - pt + ky, ix = xx * sw - pl + kx;
                                    if (iy < 0 || iy >= d.h || ix < 0 || ix >= d.w) continue;
                                    const float v = x[static_cast<std::size_t>(
                                        ((n * d.c + c) * d.h + iy) * d.w + ix)];
                                    acc = p.type == PoolingType::max ? std::max<double>(acc, v)
                                                                     : acc + v;
                                    ++count;
                                }
                            if (p.type == PoolingType::average)
                                acc /= p.exclude_padding ? count : kh * kw;
                            want.push_back(static_cast<float>(acc));
                        }
            CHECK(all_close(read_nchw(*dst), want, 1e-5f, 1e-5f));
        }
    }
}

TEST_CASE("depthwise and pooling: 1 and 2 threads bit-identical") {
    Context one(ContextOptions{1}), two(ContextOptions{2});
    auto src =
        make_tensor({1, 48, 17, 15}, DataLayout::nchw16c, DataType::f32, PaddingSize{1, 1, 1, 1});
    write_nchw(*src, random_vector(48 * 17 * 15, 1));
    auto weights = make_tensor({48, 1, 3, 3});
    write_nchw(*weights, random_vector(48 * 9, 2));
    auto d1 = make_tensor({1, 48, 17, 15}, DataLayout::nchw16c),
         d2 = make_tensor({1, 48, 17, 15}, DataLayout::nchw16c);
    DepthwiseConv2dInfo info;
    info.geometry.pad_top = info.geometry.pad_bottom = info.geometry.pad_left =
        info.geometry.pad_right = 1;
    DepthwiseConv2d a(one), b(two);
    a.configure(*src, *weights, nullptr, *d1, info);
    b.configure(*src, *weights, nullptr, *d2, info);
    a.run();
    b.run();
    CHECK(std::memcmp(d1->buffer(), d2->buffer(), d1->info().total_size_in_bytes()) == 0);
    PoolingInfo avg{PoolingType::average, 3, 3, 2, 2, 1, 1, 1, 1, true, false};
    auto p1 = make_tensor(Pooling::output_shape(src->info(), avg), DataLayout::nchw16c);
    auto p2 = make_tensor(Pooling::output_shape(src->info(), avg), DataLayout::nchw16c);
    Pooling pa(one), pb(two);
    pa.configure(*src, *p1, avg);
    pb.configure(*src, *p2, avg);
    pa.run();
    pb.run();
    CHECK(std::memcmp(p1->buffer(), p2->buffer(), p1->info().total_size_in_bytes()) == 0);
}

TEST_CASE("depthwise/pooling reject bad input with typed errors") {
    Context ctx;
    auto nchw = make_tensor({1, 16, 4, 4}, DataLayout::nchw);
    auto out = make_tensor({1, 16, 2, 2}, DataLayout::nchw16c);
    Pooling pool(ctx);
    CHECK_THROWS_AS(pool.configure(*nchw, *out, PoolingInfo{}), InvalidArgument);
    auto src = make_tensor({1, 16, 4, 4}, DataLayout::nchw16c);
    auto w2 = make_tensor({16, 2, 3, 3});
    DepthwiseConv2d dw(ctx);
    CHECK_THROWS_AS(dw.configure(*src, *w2, nullptr, *out, DepthwiseConv2dInfo{}), InvalidArgument);
    PoolingInfo big{PoolingType::max, 3, 3, 1, 1, 3, 3, 3, 3, true, false};
    CHECK_THROWS_AS(Pooling::output_shape(src->info(), big), InvalidArgument);
}

TEST_CASE("blocked rows: every sub-range of the collapsed window maps to its plane rows") {
    for (int64_t n : {1, 3})
        for (int64_t c : {16, 40})
            for (const OutputRect rect : {OutputRect{0, 5, 0, 4}, OutputRect{2, 4, 1, 3}}) {
                const TensorInfo dst({n, c, 5, 4}, DataType::f32, DataLayout::nchw16c);
                const BlockedRows rows(dst, rect);
                const int64_t blocks = dst.channel_blocks(), height = rect.oh_end - rect.oh_begin;
                const Window win = rows.window();
                REQUIRE(win.num_iterations(0) == n * blocks * height);
                for (int64_t begin = 0; begin <= win[0].end(); ++begin)
                    for (int64_t end = begin; end <= win[0].end(); ++end) {
                        // Visited (n, cb, oh) in order, against the flat index decomposed directly.
                        std::vector<int64_t> seen, expected;
                        rows.for_each_plane(Window::Dimension(begin, end), [&](const PlaneRows& p) {
                            CHECK(p.oh_begin < p.oh_end);
                            for (int64_t oh = p.oh_begin; oh < p.oh_end; ++oh)
                                seen.push_back((p.n * blocks + p.cb) * 100 + oh);
                        });
                        for (int64_t r = begin; r < end; ++r)
                            expected.push_back(r / height * 100 + rect.oh_begin + r % height);
                        CHECK(seen == expected);
                    }
            }
    const TensorInfo dst({1, 16, 5, 4}, DataType::f32, DataLayout::nchw16c);
    CHECK(BlockedRows(dst, OutputRect{3, 3, 0, 4}).window().total_iterations() == 0);
}
