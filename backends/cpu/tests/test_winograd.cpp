// Conv2d's Winograd F(2x2, 3x3) path against the 7-loop reference, within the cpu backend's
// documented tolerance (1e-5 |ref| + 1e-5 max |ref| + 1e-6): odd and one-pixel extents, padding
// 0-2 and asymmetric, batch, a NaN border that must not be read, several output blocks and
// partial register tiles, residual (own tensor or the output), fused and separate activations,
// batch-norm fold, every instruction set, 1 vs 2 threads bit-identical, and which layers the
// automatic choice sends to Winograd.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "conv_reference.hpp"
#include "tessera/cpu/error.hpp"
#include "test_helpers.hpp"

using namespace tessera::cpu;
using namespace tessera::cpu::test;

namespace {

const ConvCase kWinogradCases[] = {
    {1, 16, 8, 8, 16, 3, 3, geom(1, 1)},        // even extents
    {2, 32, 7, 9, 48, 3, 3, geom(1, 1)},        // odd extents: the last tiles half outside; batch 2
    {1, 16, 1, 5, 32, 3, 3, geom(1, 1)},        // one input row
    {1, 32, 2, 30, 32, 3, 3, geom(1, 1)},       // one tile row, its register tiles split
    {1, 48, 6, 1, 16, 3, 3, geom(1, 1)},        // one input column
    {1, 16, 9, 10, 16, 3, 3, geom(1, 0)},       // unpadded
    {1, 32, 5, 6, 32, 3, 3, geom(1, 2)},        // padding 2: border outputs of bias alone
    {2, 16, 6, 7, 16, 3, 3, pads(1, 0, 2, 3)},  // asymmetric padding
    {1, 80, 11, 13, 96, 3, 3, geom(1, 1)},      // several output blocks, partial register tiles
    // U of 4 MiB, more than a quarter of any L2 here: the three-kernel form (those with U of a
    // few hundred KiB run tile row by tile row in per-part workspace)
    {2, 256, 6, 9, 256, 3, 3, geom(1, 1)},
};

/// The cpu backend's tolerance for one rounded step against a double-precision reference.
bool within_cpu_tolerance(const std::vector<float>& got, const std::vector<float>& want) {
    float peak = 0.0f;
    for (float v : want) peak = std::max(peak, std::fabs(v));
    return all_close(got, want, 1e-5f * peak + 1e-6f, 1e-5f);
}

Conv2dInfo winograd_info(const Conv2dGeometry& g, ActivationInfo act = {}) {
    Conv2dInfo info;
    info.geometry = g;
    info.activation = act;
    info.method = ConvMethod::winograd;
    return info;
}

}  // namespace

TEST_CASE("winograd conv2d matches the reference (extents, padding, batch, NaN border)") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        uint32_t seed = 900;
        for (int pass = 0; pass < 2; ++pass)
            for (const ConvCase& c : kWinogradCases) {
                // Pass 0: the input carries a border of NaN (make_tensor's poison) which the
                // transform must treat as zeros, never read.
                const bool padded = pass == 0;
                CAPTURE(ctx.isa_name());
                CAPTURE(c.ic);
                CAPTURE(c.h);
                CAPTURE(c.w);
                CAPTURE(padded);
                const ConvOperands o(c, seed, padded ? PaddingSize{2, 2, 2, 2} : PaddingSize{});
                auto dst = make_tensor(o.out_shape, DataLayout::nchw16c);
                Conv2d conv(ctx);
                conv.configure(*o.src, *o.weights, o.bias.get(), *dst, winograd_info(c.g));
                REQUIRE(conv.uses_winograd());
                conv.run();
                const auto want = reference_conv(c, o.x, o.wt, o.b, o.out_shape[2], o.out_shape[3]);
                CHECK(within_cpu_tolerance(read_nchw(*dst), want));
            }
    }
}

TEST_CASE("winograd conv2d: residual, fused and separate activations, batch-norm fold") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        uint32_t seed = 950;
        const ConvCase c{2, 32, 7, 10, 32, 3, 3, geom(1, 1)};
        for (int form = 0; form < 3; ++form) {
            CAPTURE(ctx.isa_name());
            CAPTURE(form);
            // 0: relu fused, a residual of its own with a padded plane; 1: hard swish fused, the
            // output as residual; 2: gelu after the kernels, no residual.
            const ActivationInfo act =
                form == 0   ? ActivationInfo{ActivationKind::relu}
                : form == 1 ? ActivationInfo{ActivationKind::hard_swish, 1.0f / 6, 0.5f}
                            : ActivationInfo{ActivationKind::gelu};
            const ConvOperands o(c, seed);
            const auto r = random_vector(static_cast<std::size_t>(c.n * c.oc * c.h * c.w), seed++);
            auto dst = make_tensor(o.out_shape, DataLayout::nchw16c);
            std::unique_ptr<Tensor> own;
            Conv2dInfo info = winograd_info(c.g, act);
            if (form == 0) {
                own = make_tensor(o.out_shape, DataLayout::nchw16c, DataType::f32,
                                  PaddingSize{1, 2, 1, 3});
                write_nchw(*own, r);
                info.residual = own.get();
            } else if (form == 1) {
                write_nchw(*dst, r);
                info.residual = dst.get();
            }
            Conv2d conv(ctx);
            conv.configure(*o.src, *o.weights, o.bias.get(), *dst, info);
            REQUIRE(conv.uses_winograd());
            conv.run();
            auto want = reference_conv(c, o.x, o.wt, o.b, c.h, c.w);
            for (std::size_t i = 0; i < want.size(); ++i) {
                const float v = want[i] + (form < 2 ? r[i] : 0.0f);
                const float hard = std::min(std::max(act.a * v + act.b, 0.0f), 1.0f);
                want[i] = form == 0   ? std::max(0.0f, v)
                          : form == 1 ? v * hard
                                      : 0.5f * v * (1.0f + std::erf(v / std::sqrt(2.0f)));
            }
            CHECK(within_cpu_tolerance(read_nchw(*dst), want));
        }

        // Batch norm folded into the transformed weights and the bias.
        const ConvOperands o(c, seed);
        const auto mean = random_vector(static_cast<std::size_t>(c.oc), 10);
        const auto var = random_vector(static_cast<std::size_t>(c.oc), 11, 0.5f, 2.0f);
        const auto gamma = random_vector(static_cast<std::size_t>(c.oc), 12);
        auto t_mean = make_tensor({c.oc}), t_var = make_tensor({c.oc}),
             t_gamma = make_tensor({c.oc});
        write_nchw(*t_mean, mean);
        write_nchw(*t_var, var);
        write_nchw(*t_gamma, gamma);
        BatchNormFold bn{t_mean.get(), t_var.get(), t_gamma.get(), nullptr, 1e-3f};
        Conv2dInfo info = winograd_info(c.g);
        info.batch_norm = &bn;
        auto dst = make_tensor(o.out_shape, DataLayout::nchw16c);
        Conv2d conv(ctx);
        conv.configure(*o.src, *o.weights, o.bias.get(), *dst, info);
        conv.run();
        auto want = reference_conv(c, o.x, o.wt, o.b, c.h, c.w);
        const std::size_t plane = static_cast<std::size_t>(c.h * c.w);
        for (std::size_t i = 0; i < want.size(); ++i) {
            const std::size_t ch = (i / plane) % static_cast<std::size_t>(c.oc);
            want[i] = (want[i] - mean[ch]) * gamma[ch] / std::sqrt(var[ch] + 1e-3f);
        }
        CHECK(within_cpu_tolerance(read_nchw(*dst), want));
    }
}

TEST_CASE("winograd conv2d: 1 and 2 threads bit-identical, weights transformed once") {
    // Tile row by tile row (U of 192 KiB, within a quarter of L2): 14 tile rows, and one (its
    // register tiles split); the three-kernel form (U of 4 MiB): 14 tile rows, and 2 (the
    // transforms split by channel blocks too).
    for (Isa isa : available_isas())
        for (const ConvCase& c : {ConvCase{2, 48, 13, 11, 64, 3, 3, geom(1, 1)},
                                  ConvCase{1, 48, 2, 40, 64, 3, 3, geom(1, 1)},
                                  ConvCase{2, 256, 13, 5, 256, 3, 3, geom(1, 1)},
                                  ConvCase{1, 256, 3, 40, 256, 3, 3, geom(1, 1)}}) {
            CAPTURE(isa);
            CAPTURE(c.h);
            Context one(ContextOptions{1, isa}), two(ContextOptions{2, isa});
            uint32_t seed = 990;
            const ConvOperands o(c, seed);
            auto d1 = make_tensor(o.out_shape, DataLayout::nchw16c);
            auto d2 = make_tensor(o.out_shape, DataLayout::nchw16c);
            Conv2d c1(one), c2(two), c3(two);
            c1.configure(*o.src, *o.weights, o.bias.get(), *d1, winograd_info(c.g));
            c2.configure(*o.src, *o.weights, o.bias.get(), *d2, winograd_info(c.g));
            c3.configure(*o.src, *o.weights, o.bias.get(), *d2, winograd_info(c.g));
            c1.run();
            const std::size_t before = two.weights_manager().transforms_run();
            c2.run();
            c3.run();
            c2.run();
            CHECK(two.weights_manager().transforms_run() == before + 1);
            CHECK(std::memcmp(d1->buffer(), d2->buffer(), d1->info().total_size_in_bytes()) == 0);
            const auto want = reference_conv(c, o.x, o.wt, o.b, o.out_shape[2], o.out_shape[3]);
            CHECK(within_cpu_tolerance(read_nchw(*d2), want));
        }
}

TEST_CASE("conv2d picks Winograd for wide 3x3 stride-1 layers, and says why it cannot") {
    Context ctx(ContextOptions{1});
    const auto uses_winograd = [&](int64_t ic, int64_t oc, int64_t h, int64_t w,
                                   const Conv2dGeometry& g, ConvMethod method) {
        auto src = make_tensor({1, ic, h, w}, DataLayout::nchw16c);
        auto weights = make_tensor({oc, ic / g.groups, 3, 3});
        auto dst =
            make_tensor(Conv2d::output_shape(src->info(), weights->info(), g), DataLayout::nchw16c);
        Conv2d conv(ctx);
        Conv2dInfo info;
        info.geometry = g;
        info.method = method;
        conv.configure(*src, *weights, nullptr, *dst, info);
        return conv.uses_winograd();
    };
    // At least 32 input and output channels and 32 tiles (2x2 outputs each).
    CHECK(uses_winograd(64, 64, 16, 16, geom(1, 1), ConvMethod::automatic));
    CHECK(uses_winograd(32, 32, 12, 12, geom(1, 1), ConvMethod::automatic));
    CHECK_FALSE(uses_winograd(64, 64, 16, 16, geom(1, 1), ConvMethod::direct));
    CHECK_FALSE(uses_winograd(16, 64, 16, 16, geom(1, 1), ConvMethod::automatic));
    CHECK_FALSE(uses_winograd(64, 16, 16, 16, geom(1, 1), ConvMethod::automatic));
    CHECK_FALSE(uses_winograd(64, 64, 10, 10, geom(1, 1), ConvMethod::automatic));  // 25 tiles
    CHECK_FALSE(uses_winograd(64, 64, 16, 16, geom(2, 1), ConvMethod::automatic));
    // A Context without Winograd keeps the automatic choice direct; an explicit request still
    // gets it.
    Context direct_only(ContextOptions{1, Isa::automatic, SchedulerKind::tbb, false});
    for (ConvMethod method : {ConvMethod::automatic, ConvMethod::winograd}) {
        auto src = make_tensor({1, 64, 16, 16}, DataLayout::nchw16c);
        auto weights = make_tensor({64, 64, 3, 3});
        auto dst = make_tensor({1, 64, 16, 16}, DataLayout::nchw16c);
        Conv2d conv(direct_only);
        Conv2dInfo info;
        info.geometry = geom(1, 1);
        info.method = method;
        conv.configure(*src, *weights, nullptr, *dst, info);
        CHECK(conv.uses_winograd() == (method == ConvMethod::winograd));
    }
    struct Refusal {
        Conv2dGeometry geometry;
        int64_t channels;
        const char* reason;  // a word the error names
    };
    for (const Refusal& r :
         {Refusal{geom(2, 1), 16, "stride"}, Refusal{geom(1, 2, 2), 16, "dilated"},
          Refusal{geom(1, 1, 1, 2), 32, "grouped"}, Refusal{geom(1, 1), 24, "16"}}) {
        CAPTURE(r.reason);
        try {
            uses_winograd(r.channels, 32, 9, 9, r.geometry, ConvMethod::winograd);
            FAIL("expected Unsupported");
        } catch (const Unsupported& e) {
            CHECK(e.function() == "Conv2d::configure");
            CHECK(std::string(e.what()).find(r.reason) != std::string::npos);
        }
    }
}
