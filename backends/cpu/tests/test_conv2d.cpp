// Conv2d against a textbook 7-loop convolution: odd sizes, strides, padding, dilation, groups,
// batch > 1, input layouts, f16 input, fused bias/batch-norm/activation, every instruction set,
// 1 vs 2 threads bit-identical, weights packed once.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "conv_reference.hpp"
#include "tessera/cpu/error.hpp"
#include "tessera/cpu/functions/conv2d.hpp"
#include "tessera/cpu/functions/reorder.hpp"
#include "test_helpers.hpp"

using namespace tessera::cpu;
using namespace tessera::cpu::test;

namespace {

const ConvCase kCases[] = {
    {1, 3, 8, 8, 16, 3, 3, geom(1, 1)},
    {2, 5, 9, 11, 7, 3, 3, geom(2, 1)},
    {1, 20, 7, 13, 33, 3, 3, geom(1, 1)},
    {1, 8, 10, 10, 12, 3, 3, geom(1, 2, 2, 4)},  // groups 4, dilation 2
    {3, 32, 6, 5, 48, 1, 1, geom(1, 0, 1, 2)},   // 1x1, groups 2 block-aligned
    {1, 3, 23, 21, 16, 7, 7, geom(2, 3), DataLayout::nchw},
    {2, 6, 9, 8, 20, 3, 5, geom(1, 2), DataLayout::nhwc},
    {1, 17, 5, 19, 40, 2, 3, geom(3, 0)},
    {2, 80, 5, 6, 36, 3, 3, geom(1, 1)},  // several K chunks
    // 1x1 over a dense plane: spans of the flattened plane, the last one short, 2 K chunks
    {2, 400, 7, 9, 24, 1, 1, geom(1, 0)},
    // short output rows (one tile per row on AVX-512) and several channel blocks; a 1x1 one
    // whose spans cross output rows
    {1, 40, 7, 7, 80, 3, 3, geom(1, 1)},
    {2, 24, 5, 6, 64, 1, 1, geom(1, 0)},
    // Rows of >= kConvShortRow pixels of blocked input take KernelTable::conv (shorter rows
    // conv_short_rows, unblocked inputs conv_unblocked): 3x3 with a partial last block, 1x1
    // spans, stride 2.
    {1, 20, 4, 30, 40, 3, 3, geom(1, 1)},
    {1, 24, 3, 29, 48, 1, 1, geom(1, 0)},
    {1, 16, 3, 61, 20, 3, 3, geom(2, 1)},
    // groups of 16 outputs, so a block of 32 or more channels spans two or more groups
    {1, 24, 6, 6, 48, 3, 3, geom(1, 1, 1, 3)},
    // Offset-table runs (MicroArgs::koff_run): the 3 and 7 taps of an nchw row at pixel strides
    // 1 and 2 (above), 16 channels of an nhwc pixel, and none where dilation splits the taps.
    {1, 3, 12, 30, 32, 3, 3, geom(1, 1), DataLayout::nchw},
    {2, 2, 11, 12, 16, 7, 7, geom(1, 3), DataLayout::nchw},
    {1, 4, 9, 17, 16, 3, 3, geom(2, 1, 2), DataLayout::nchw},
    {1, 32, 5, 9, 24, 3, 3, geom(1, 1), DataLayout::nhwc},
    // Edge tiles skip the taps that read only padding (conv_tile_phases.hpp): padding beyond the
    // kernel's reach (rows and columns of bias alone), asymmetric padding, a one-pixel-wide
    // input, stride and dilation, 7x7 rows of two-row tiles with K chunks, and nchw rows.
    {1, 16, 5, 5, 32, 3, 3, geom(1, 3)},
    {2, 8, 6, 7, 16, 3, 3, pads(1, 0, 2, 3)},
    {1, 16, 6, 1, 16, 3, 3, geom(1, 1)},
    {1, 16, 9, 10, 32, 3, 3, geom(2, 2, 2)},
    {1, 96, 7, 7, 48, 3, 3, geom(1, 1)},
    {1, 3, 9, 8, 16, 5, 5, geom(1, 4), DataLayout::nchw},
    // Weights beyond 256 KiB: blocks outermost, by rows and over a flattened 1x1 plane; beyond
    // L2 (2.9 MB) each row's tiles also prefetch the weights read next (the next K chunk's, or
    // the next block's).
    {1, 128, 7, 7, 96, 3, 3, geom(1, 1)},
    {1, 512, 3, 4, 160, 1, 1, geom(1, 0)},
    {1, 512, 3, 4, 160, 3, 3, geom(1, 1)},
};

}  // namespace

TEST_CASE(
    "conv2d matches the 7-loop reference (layouts, strides, padding, dilation, groups, batch)") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        uint32_t seed = 100;
        // Each case on an input carrying the padding and, blocked ones, on the bare image too:
        // the AVX-512 tables read it in place (no border), the others copy it into a bordered
        // temporary. A padded input's border holds NaN (make_tensor's poison): it must never be
        // read as data.
        for (int pass = 0; pass < 2; ++pass)
            for (const ConvCase& c : kCases) {
                const bool padded = pass == 0;
                if (!padded && c.in_layout != DataLayout::nchw16c) continue;
                CAPTURE(ctx.isa_name());
                CAPTURE(c.ic);
                CAPTURE(c.oc);
                CAPTURE(padded);
                const ConvOperands o(
                    c, seed,
                    padded ? PaddingSize{c.g.pad_top, c.g.pad_right, c.g.pad_bottom, c.g.pad_left}
                           : PaddingSize{});
                auto dst = make_tensor(o.out_shape, DataLayout::nchw16c);
                Conv2d conv(ctx);
                Conv2dInfo info;
                info.geometry = c.g;
                conv.configure(*o.src, *o.weights, o.bias.get(), *dst, info);
                conv.run();
                const auto want = reference_conv(c, o.x, o.wt, o.b, o.out_shape[2], o.out_shape[3]);
                CHECK(all_close(read_nchw(*dst), want, 1e-4f, 1e-4f));
            }
    }
}

TEST_CASE("conv2d adds a residual before the activation: a tensor of its own or the output") {
    // The epilogue of each pixel's last call reads a residual of its own (dense, or with a
    // padded plane that cuts the flattened 1x1 plane into rows); a residual that is the output
    // itself is there before the first K chunk. act(conv + bias + residual) on every case, with
    // relu, hard swish and hard sigmoid.
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        uint32_t seed = 500;
        for (int form = 0; form < 3; ++form)
            for (const ConvCase& c : kCases) {
                if (c.in_layout != DataLayout::nchw16c) continue;
                CAPTURE(ctx.isa_name());
                CAPTURE(c.ic);
                CAPTURE(c.oc);
                CAPTURE(form);
                // Activations fused into the epilogue: relu, hard swish, hard sigmoid.
                const ActivationInfo act =
                    form == 0   ? ActivationInfo{ActivationKind::relu}
                    : form == 1 ? ActivationInfo{ActivationKind::hard_swish, 1.0f / 6, 0.5f}
                                : ActivationInfo{ActivationKind::hard_sigmoid, 0.2f, 0.5f};
                const ConvOperands o(c, seed);
                const auto& out_shape = o.out_shape;
                const auto r = random_vector(static_cast<std::size_t>(out_shape[0] * out_shape[1] *
                                                                      out_shape[2] * out_shape[3]),
                                             seed++);
                auto dst = make_tensor(out_shape, DataLayout::nchw16c);
                std::unique_ptr<Tensor> own;
                if (form < 2) {
                    own = make_tensor(out_shape, DataLayout::nchw16c, DataType::f32,
                                      form == 0 ? PaddingSize{} : PaddingSize{1, 2, 1, 3});
                    write_nchw(*own, r);
                } else {
                    write_nchw(*dst, r);
                }
                Conv2d conv(ctx);
                Conv2dInfo info;
                info.geometry = c.g;
                info.activation = act;
                info.residual = own ? own.get() : dst.get();
                conv.configure(*o.src, *o.weights, o.bias.get(), *dst, info);
                conv.run();
                auto want = reference_conv(c, o.x, o.wt, o.b, out_shape[2], out_shape[3]);
                for (std::size_t i = 0; i < want.size(); ++i) {
                    const float v = want[i] + r[i];
                    const float hard = std::min(std::max(act.a * v + act.b, 0.0f), 1.0f);
                    want[i] = form == 0   ? std::max(0.0f, v)
                              : form == 1 ? v * hard  // hard swish
                                          : hard;     // hard sigmoid
                }
                CHECK(all_close(read_nchw(*dst), want, 1e-4f, 1e-4f));
            }
    }
}

TEST_CASE("conv2d: unpadded allocated input, f16 input, batch-norm fold and activations") {
    Context ctx(ContextOptions{2});
    const ConvCase c{2, 12, 9, 10, 20, 3, 3, geom(1, 1)};
    const auto x = random_vector(static_cast<std::size_t>(c.n * c.ic * c.h * c.w), 7);
    const auto wt = random_vector(static_cast<std::size_t>(c.oc * c.ic * 9), 8);
    const auto b = random_vector(static_cast<std::size_t>(c.oc), 9);
    const auto mean = random_vector(static_cast<std::size_t>(c.oc), 10);
    const auto var = random_vector(static_cast<std::size_t>(c.oc), 11, 0.5f, 2.0f);
    const auto gamma = random_vector(static_cast<std::size_t>(c.oc), 12);
    const auto beta = random_vector(static_cast<std::size_t>(c.oc), 13);
    auto weights = make_tensor({c.oc, c.ic, 3, 3});
    write_nchw(*weights, wt);
    auto bias = make_tensor({c.oc});
    write_nchw(*bias, b);
    auto t_mean = make_tensor({c.oc}), t_var = make_tensor({c.oc}), t_gamma = make_tensor({c.oc}),
         t_beta = make_tensor({c.oc});
    write_nchw(*t_mean, mean);
    write_nchw(*t_var, var);
    write_nchw(*t_gamma, gamma);
    write_nchw(*t_beta, beta);
    auto conv_ref = reference_conv(c, x, wt, b, c.h, c.w);
    const int64_t plane = c.h * c.w;
    for (std::size_t i = 0; i < conv_ref.size(); ++i) {
        const std::size_t o =
            (i / static_cast<std::size_t>(plane)) % static_cast<std::size_t>(c.oc);
        conv_ref[i] = (conv_ref[i] - mean[o]) * gamma[o] / std::sqrt(var[o] + 1e-3f) + beta[o];
    }
    BatchNormFold bn{t_mean.get(), t_var.get(), t_gamma.get(), t_beta.get(), 1e-3f};

    SUBCASE("already allocated unpadded f32 input is copied into a padded temporary; relu6 fused") {
        auto src =
            make_tensor({c.n, c.ic, c.h, c.w}, DataLayout::nchw16c);  // no padding, allocated
        write_nchw(*src, x);
        auto dst = make_tensor({c.n, c.oc, c.h, c.w}, DataLayout::nchw16c);
        Conv2d conv(ctx);
        conv.configure(*src, *weights, bias.get(), *dst,
                       Conv2dInfo{c.g, ActivationInfo{ActivationKind::relu6}, &bn});
        conv.run();
        auto want = conv_ref;
        for (float& v : want) v = std::min(std::max(v, 0.0f), 6.0f);
        CHECK(all_close(read_nchw(*dst), want, 1e-4f, 1e-4f));
    }
    SUBCASE("f16 input converted on the fly; gelu applied after the kernel") {
        auto src32 = make_tensor({c.n, c.ic, c.h, c.w}, DataLayout::nchw);
        write_nchw(*src32, x);
        auto src16 = make_tensor({c.n, c.ic, c.h, c.w}, DataLayout::nchw, DataType::f16);
        Reorder to16(ctx);
        to16.configure(*src32, *src16);
        to16.run();
        auto back = make_tensor({c.n, c.ic, c.h, c.w}, DataLayout::nchw);
        Reorder to32(ctx);
        to32.configure(*src16, *back);
        to32.run();
        const auto x16 = read_nchw(*back);  // the values the f16 tensor holds
        CHECK(all_close(x16, x, 1e-3f, 1e-3f));
        auto want = reference_conv(c, x16, wt, b, c.h, c.w);
        for (float& v : want) v = 0.5f * v * (1.0f + std::erf(v / std::sqrt(2.0f)));
        auto dst = make_tensor({c.n, c.oc, c.h, c.w}, DataLayout::nchw16c);
        Conv2d conv(ctx);
        conv.configure(*src16, *weights, bias.get(), *dst,
                       Conv2dInfo{c.g, ActivationInfo{ActivationKind::gelu}, nullptr});
        conv.run();
        CHECK(all_close(read_nchw(*dst), want, 1e-4f, 1e-3f));
    }
}

TEST_CASE(
    "conv2d: 1 and 2 threads bit-identical, packed weights shared through the weights manager") {
    for (Isa isa : available_isas()) {
        Context one(ContextOptions{1, isa}), two(ContextOptions{2, isa});
        for (const ConvCase& c : {ConvCase{2, 16, 14, 13, 32, 3, 3, geom(1, 1)},
                                  ConvCase{1, 64, 5, 5, 96, 3, 3, geom(1, 1)}}) {
            auto src = make_tensor({c.n, c.ic, c.h, c.w}, DataLayout::nchw16c, DataType::f32,
                                   PaddingSize{1, 1, 1, 1});
            write_nchw(*src, random_vector(static_cast<std::size_t>(c.n * c.ic * c.h * c.w), 3));
            auto weights = make_tensor({c.oc, c.ic, 3, 3});
            write_nchw(*weights, random_vector(static_cast<std::size_t>(c.oc * c.ic * 9), 4));
            auto d1 = make_tensor({c.n, c.oc, c.h, c.w}, DataLayout::nchw16c);
            auto d2 = make_tensor({c.n, c.oc, c.h, c.w}, DataLayout::nchw16c);
            Conv2d c1(one), c2(two);
            c1.configure(*src, *weights, nullptr, *d1, Conv2dInfo{c.g, {}, nullptr});
            c2.configure(*src, *weights, nullptr, *d2, Conv2dInfo{c.g, {}, nullptr});
            c1.run();
            c2.run();
            CHECK(std::memcmp(d1->buffer(), d2->buffer(), d1->info().total_size_in_bytes()) == 0);
        }
        // Two functions on the same weights in one context: packed once.
        auto src =
            make_tensor({1, 16, 6, 6}, DataLayout::nchw16c, DataType::f32, PaddingSize{1, 1, 1, 1});
        write_nchw(*src, random_vector(16 * 36, 5));
        auto weights = make_tensor({16, 16, 3, 3});
        write_nchw(*weights, random_vector(16 * 16 * 9, 6));
        auto da = make_tensor({1, 16, 6, 6}, DataLayout::nchw16c),
             db = make_tensor({1, 16, 6, 6}, DataLayout::nchw16c);
        Conv2d ca(two), cb(two);
        ca.configure(*src, *weights, nullptr, *da, Conv2dInfo{geom(1, 1), {}, nullptr});
        cb.configure(*src, *weights, nullptr, *db, Conv2dInfo{geom(1, 1), {}, nullptr});
        const std::size_t before = two.weights_manager().transforms_run();
        ca.run();
        cb.run();
        ca.run();
        CHECK(two.weights_manager().transforms_run() == before + 1);
        CHECK(read_nchw(*da) == read_nchw(*db));
    }
}

TEST_CASE("conv2d: bad configurations throw typed errors naming function and tensor") {
    Context ctx;
    auto src = make_tensor({1, 8, 5, 5}, DataLayout::nchw16c);
    auto weights = make_tensor({16, 4, 3, 3});
    auto dst = make_tensor({1, 16, 3, 3}, DataLayout::nchw16c);
    Conv2d conv(ctx);
    try {
        conv.configure(*src, *weights, nullptr, *dst, Conv2dInfo{});
        FAIL("expected InvalidArgument");
    } catch (const InvalidArgument& e) {
        CHECK(e.function() == "Conv2d::configure");
        CHECK(std::string(e.what()).find("channels") != std::string::npos);
    }
    auto w8 = make_tensor({16, 8, 3, 3});
    auto wrong_dst = make_tensor({1, 16, 5, 5}, DataLayout::nchw16c);
    CHECK_THROWS_AS(conv.configure(*src, *w8, nullptr, *wrong_dst, Conv2dInfo{}), InvalidArgument);
    auto nchw_dst = make_tensor({1, 16, 3, 3}, DataLayout::nchw);
    CHECK_THROWS_AS(conv.configure(*src, *w8, nullptr, *nchw_dst, Conv2dInfo{}), InvalidArgument);
}

TEST_CASE("conv2d: functions configured before allocation may pad each other's tensors") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        CAPTURE(ctx.isa_name());
        auto unallocated = [](std::vector<int64_t> shape) {
            return std::make_unique<Tensor>(
                TensorInfo(std::move(shape), DataType::f32, DataLayout::nchw16c, {}, "t"));
        };
        // x -> 1x1 (dense plane: runs in spans) -> y -> 3x3 pad 1, which pads y in place after
        // the 1x1 was configured; x is also read by a 3x3 pad 2 configured after a 3x3 pad 1.
        const ConvCase c1{1, 32, 9, 11, 32, 1, 1, geom(1, 0)};
        const ConvCase c2{1, 32, 9, 11, 16, 3, 3, geom(1, 1)};
        const ConvCase c3{1, 32, 9, 11, 16, 3, 3, geom(1, 2)};
        auto x = unallocated({1, 32, 9, 11});
        auto y = unallocated({1, 32, 9, 11});
        auto z = unallocated({1, 16, 9, 11});
        auto u = unallocated({1, 16, 9, 11});
        auto v = unallocated({1, 16, 11, 13});
        const auto xv = random_vector(32 * 9 * 11, 41), w1 = random_vector(32 * 32, 42),
                   w2 = random_vector(16 * 32 * 9, 43), w3 = random_vector(16 * 32 * 9, 44);
        auto wt1 = make_tensor({32, 32, 1, 1}), wt2 = make_tensor({16, 32, 3, 3}),
             wt3 = make_tensor({16, 32, 3, 3});
        write_nchw(*wt1, w1);
        write_nchw(*wt2, w2);
        write_nchw(*wt3, w3);
        Conv2d conv1(ctx), conv2(ctx), conv_u(ctx), conv3(ctx);
        conv1.configure(*x, *wt1, nullptr, *y, Conv2dInfo{c1.g, {}, nullptr});
        conv2.configure(*y, *wt2, nullptr, *z, Conv2dInfo{c2.g, {}, nullptr});
        conv_u.configure(*x, *wt2, nullptr, *u, Conv2dInfo{c2.g, {}, nullptr});
        conv3.configure(*x, *wt3, nullptr, *v, Conv2dInfo{c3.g, {}, nullptr});
        for (Tensor* t : {x.get(), y.get(), z.get(), u.get(), v.get()}) {
            t->allocator().allocate();
            std::memset(t->buffer(), 0xff, t->info().total_size_in_bytes());
        }
        write_nchw(*x, xv);
        conv1.run();
        conv2.run();
        conv_u.run();
        conv3.run();
        const std::vector<float> none(32, 0.0f);
        const auto yv = reference_conv(c1, xv, w1, none, 9, 11);
        CHECK(all_close(read_nchw(*y), yv, 1e-4f, 1e-4f));
        CHECK(all_close(read_nchw(*z), reference_conv(c2, yv, w2, none, 9, 11), 1e-4f, 1e-3f));
        CHECK(all_close(read_nchw(*u), reference_conv(c2, xv, w2, none, 9, 11), 1e-4f, 1e-3f));
        CHECK(all_close(read_nchw(*v), reference_conv(c3, xv, w3, none, 11, 13), 1e-4f, 1e-3f));
    }
}
