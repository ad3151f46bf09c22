// Gemm/FullyConnected, element-wise binary with broadcasting, softmax, batch-norm, permute,
// concatenation (zero-copy views and copies), int8 matmul, activations and reorders, each against
// plain loops written here.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "tessera/cpu/error.hpp"
#include "tessera/cpu/functions/activation.hpp"
#include "tessera/cpu/functions/batch_norm.hpp"
#include "tessera/cpu/functions/concatenate.hpp"
#include "tessera/cpu/functions/conv2d.hpp"
#include "tessera/cpu/functions/elementwise.hpp"
#include "tessera/cpu/functions/gemm.hpp"
#include "tessera/cpu/functions/permute.hpp"
#include "tessera/cpu/functions/quantized_matmul.hpp"
#include "tessera/cpu/functions/reorder.hpp"
#include "tessera/cpu/functions/softmax.hpp"
#include "test_helpers.hpp"

using namespace tessera::cpu;
using namespace tessera::cpu::test;

TEST_CASE("fully connected (flattened 4-D input, bias, fused and unfused activations) vs loops") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        // relu, hard sigmoid and hard swish fuse into the GEMM's epilogue; sigmoid runs after it.
        for (auto act :
             {ActivationInfo{ActivationKind::relu}, ActivationInfo{ActivationKind::sigmoid},
              ActivationInfo{ActivationKind::hard_sigmoid, 0.2f, 0.5f},
              ActivationInfo{ActivationKind::hard_swish, 1.0f / 6, 0.5f}}) {
            const int64_t n = 5, c = 3, h = 4, w = 7, out = 37, in = c * h * w;
            auto src = make_tensor({n, c, h, w});
            const auto x = random_vector(static_cast<std::size_t>(n * in), 1);
            write_nchw(*src, x);
            auto weights = make_tensor({out, in});
            const auto wt = random_vector(static_cast<std::size_t>(out * in), 2);
            write_nchw(*weights, wt);
            auto bias = make_tensor({out});
            const auto b = random_vector(static_cast<std::size_t>(out), 3);
            write_nchw(*bias, b);
            auto dst = make_tensor({n, out});
            FullyConnected fc(ctx);
            fc.configure(*src, *weights, bias.get(), *dst, act);
            fc.run();
            std::vector<float> want;
            for (int64_t i = 0; i < n; ++i)
                for (int64_t o = 0; o < out; ++o) {
                    double s = b[static_cast<std::size_t>(o)];
                    for (int64_t k = 0; k < in; ++k)
                        s += static_cast<double>(x[static_cast<std::size_t>(i * in + k)]) *
                             wt[static_cast<std::size_t>(o * in + k)];
                    const float v = static_cast<float>(s);
                    const float hard = std::min(std::max(act.a * v + act.b, 0.0f), 1.0f);
                    want.push_back(act.kind == ActivationKind::relu           ? std::max(v, 0.0f)
                                   : act.kind == ActivationKind::hard_sigmoid ? hard
                                   : act.kind == ActivationKind::hard_swish
                                       ? v * hard
                                       : 1.0f / (1.0f + std::exp(-v)));
                }
            CHECK(all_close(read_nchw(*dst), want, 1e-4f, 1e-4f));
        }
    }
}

TEST_CASE("gemm function: alpha/beta, transposes, constant B packed once") {
    Context ctx(ContextOptions{2});
    const int64_t m = 23, n = 31, k = 45;
    auto a = make_tensor({k, m});  // transposed A
    auto b = make_tensor({k, n});
    auto c = make_tensor({m, n});
    const auto av = random_vector(static_cast<std::size_t>(k * m), 4),
               bv = random_vector(static_cast<std::size_t>(k * n), 5),
               cv = random_vector(static_cast<std::size_t>(m * n), 6);
    write_nchw(*a, av);
    write_nchw(*b, bv);
    write_nchw(*c, cv);
    GemmInfo info;
    info.trans_a = true;
    info.alpha = 0.5f;
    info.beta = 2.0f;
    info.b_is_constant = true;
    Gemm g1(ctx), g2(ctx);
    g1.configure(*a, *b, nullptr, *c, info);
    auto c2 = make_tensor({m, n});
    write_nchw(*c2, cv);
    g2.configure(*a, *b, nullptr, *c2, info);
    const std::size_t before = ctx.weights_manager().transforms_run();
    g1.run();
    g2.run();
    CHECK(ctx.weights_manager().transforms_run() == before + 1);
    std::vector<float> want(static_cast<std::size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (int64_t p = 0; p < k; ++p)
                s += static_cast<double>(av[static_cast<std::size_t>(p * m + i)]) *
                     bv[static_cast<std::size_t>(p * n + j)];
            want[static_cast<std::size_t>(i * n + j)] =
                static_cast<float>(0.5 * s + 2.0 * cv[static_cast<std::size_t>(i * n + j)]);
        }
    CHECK(all_close(read_nchw(*c), want, 1e-4f, 1e-4f));
    CHECK(read_nchw(*c) == read_nchw(*c2));
    auto bad = make_tensor({m + 1, n});
    Gemm g3(ctx);
    CHECK_THROWS_AS(g3.configure(*a, *b, nullptr, *bad, info), InvalidArgument);
}

TEST_CASE("elementwise binary broadcasting matches loops") {
    Context ctx(ContextOptions{2});
    struct Case {
        std::vector<int64_t> a, b;
    };
    const Case cases[] = {{{2, 3, 5}, {2, 3, 5}},
                          {{2, 3, 5}, {5}},
                          {{4, 1, 7}, {1, 6, 1}},
                          {{3, 1}, {2, 1, 9}},
                          {{1}, {17}}};
    const ElementwiseOp ops[] = {ElementwiseOp::add, ElementwiseOp::sub,         ElementwiseOp::mul,
                                 ElementwiseOp::div, ElementwiseOp::min,         ElementwiseOp::max,
                                 ElementwiseOp::pow, ElementwiseOp::squared_diff};
    uint32_t seed = 20;
    for (const Case& cs : cases)
        for (ElementwiseOp op : ops) {
            auto a = make_tensor(cs.a), b = make_tensor(cs.b);
            const auto av = random_vector(static_cast<std::size_t>(a->info().element_count()),
                                          seed++, 0.5f, 2.0f);
            const auto bv = random_vector(static_cast<std::size_t>(b->info().element_count()),
                                          seed++, 0.5f, 2.0f);
            write_nchw(*a, av);
            write_nchw(*b, bv);
            const auto shape = ElementwiseBinary::output_shape(a->info(), b->info());
            auto d = make_tensor(shape);
            ElementwiseBinary e(ctx);
            e.configure(*a, *b, *d, op);
            e.run();
            // reference: index arithmetic with broadcasting
            const int rank = static_cast<int>(shape.size());
            std::vector<float> want;
            const int64_t total = d->info().element_count();
            for (int64_t flat = 0; flat < total; ++flat) {
                std::vector<int64_t> coord(static_cast<std::size_t>(rank));
                int64_t rem = flat;
                for (int i = rank - 1; i >= 0; --i) {
                    coord[static_cast<std::size_t>(i)] = rem % shape[static_cast<std::size_t>(i)];
                    rem /= shape[static_cast<std::size_t>(i)];
                }
                auto index = [&](const std::vector<int64_t>& s) {
                    int64_t idx = 0;
                    for (std::size_t i = 0; i < s.size(); ++i) {
                        const int64_t cdim = coord[static_cast<std::size_t>(rank) - s.size() + i];
                        idx = idx * s[i] + (s[i] == 1 ? 0 : cdim);
                    }
                    return static_cast<std::size_t>(idx);
                };
                const float x = av[index(cs.a)], y = bv[index(cs.b)];
                float r = 0;
                switch (op) {
                    case ElementwiseOp::add:
                        r = x + y;
                        break;
                    case ElementwiseOp::sub:
                        r = x - y;
                        break;
                    case ElementwiseOp::mul:
                        r = x * y;
                        break;
                    case ElementwiseOp::div:
                        r = x / y;
                        break;
                    case ElementwiseOp::min:
                        r = std::min(x, y);
                        break;
                    case ElementwiseOp::max:
                        r = std::max(x, y);
                        break;
                    case ElementwiseOp::pow:
                        r = std::pow(x, y);
                        break;
                    case ElementwiseOp::squared_diff:
                        r = (x - y) * (x - y);
                        break;
                }
                want.push_back(r);
            }
            CHECK(all_close(read_nchw(*d), want, 1e-5f, 1e-5f));
        }
    auto a = make_tensor({2, 3}), b = make_tensor({4});
    CHECK_THROWS_AS(ElementwiseBinary::output_shape(a->info(), b->info()), InvalidArgument);
}

TEST_CASE("activations match their formulas on every instruction set") {
    const std::pair<ActivationInfo, std::function<double(double)>> acts[] = {
        {{ActivationKind::relu}, [](double x) { return std::max(x, 0.0); }},
        {{ActivationKind::relu6}, [](double x) { return std::min(std::max(x, 0.0), 6.0); }},
        {{ActivationKind::bounded_relu, 1.5f},
         [](double x) { return std::min(std::max(x, 0.0), 1.5); }},
        {{ActivationKind::lu_bounded_relu, 1.0f, -0.5f},
         [](double x) { return std::min(std::max(x, -0.5), 1.0); }},
        {{ActivationKind::leaky_relu, 0.2f}, [](double x) { return x > 0 ? x : 0.2 * x; }},
        {{ActivationKind::elu, 0.7f}, [](double x) { return x > 0 ? x : 0.7 * (std::exp(x) - 1); }},
        {{ActivationKind::tanh, 1.2f, 0.8f}, [](double x) { return 1.2 * std::tanh(0.8 * x); }},
        {{ActivationKind::sigmoid}, [](double x) { return 1 / (1 + std::exp(-x)); }},
        {{ActivationKind::soft_relu}, [](double x) { return std::log1p(std::exp(x)); }},
        {{ActivationKind::abs}, [](double x) { return std::fabs(x); }},
        {{ActivationKind::square}, [](double x) { return x * x; }},
        {{ActivationKind::sqrt}, [](double x) { return std::sqrt(std::fabs(x)); }},
        {{ActivationKind::linear, 2.0f, -1.0f}, [](double x) { return 2 * x - 1; }},
        {{ActivationKind::gelu},
         [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }},
        {{ActivationKind::clip, -0.3f, 0.4f},
         [](double x) { return std::min(std::max(x, -0.3), 0.4); }},
    };
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        for (const auto& [act, f] : acts) {
            const int kind = static_cast<int>(act.kind);  // clang 14 cannot capture a binding
            CAPTURE(kind);
            auto src = make_tensor({3, 20, 5, 7}, DataLayout::nchw16c, DataType::f32,
                                   PaddingSize{1, 2, 1, 2});
            auto x = random_vector(3 * 20 * 35, 9, -4.0f, 4.0f);
            if (act.kind == ActivationKind::sqrt)
                for (float& v : x) v = std::fabs(v);
            write_nchw(*src, x);
            auto dst =
                make_tensor({3, 20, 5, 7}, DataLayout::nchw16c);  // different padding from src
            Activation a(ctx);
            a.configure(*src, *dst, act);
            a.run();
            std::vector<float> want;
            for (float v : x) want.push_back(static_cast<float>(f(v)));
            CHECK(all_close(read_nchw(*dst), want, 2e-6f, 2e-5f));
        }
    }
}

TEST_CASE("softmax and log-softmax rows vs loops") {
    Context ctx(ContextOptions{2});
    for (int64_t len : {1, 7, 33, 1000})
        for (bool log : {false, true}) {
            auto src = make_tensor({6, len});
            const auto x = random_vector(static_cast<std::size_t>(6 * len), 30, -10.0f, 10.0f);
            write_nchw(*src, x);
            auto dst = make_tensor({6, len});
            Softmax s(ctx);
            s.configure(*src, *dst, 0.5f, log);
            s.run();
            std::vector<float> want;
            for (int64_t r = 0; r < 6; ++r) {
                double mx = -1e30, sum = 0;
                for (int64_t i = 0; i < len; ++i)
                    mx = std::max<double>(mx, x[static_cast<std::size_t>(r * len + i)]);
                for (int64_t i = 0; i < len; ++i)
                    sum += std::exp(0.5 * (x[static_cast<std::size_t>(r * len + i)] - mx));
                for (int64_t i = 0; i < len; ++i) {
                    const double z = 0.5 * (x[static_cast<std::size_t>(r * len + i)] - mx);
                    want.push_back(static_cast<float>(log ? z - std::log(sum) : std::exp(z) / sum));
                }
            }
            CHECK(all_close(read_nchw(*dst), want, 1e-6f, 1e-5f));
        }
}

TEST_CASE("batch-norm in every layout vs loops") {
    Context ctx(ContextOptions{2});
    const int64_t n = 2, c = 19, h = 3, w = 5;
    const auto x = random_vector(static_cast<std::size_t>(n * c * h * w), 40);
    const auto mean = random_vector(static_cast<std::size_t>(c), 41),
               var = random_vector(static_cast<std::size_t>(c), 42, 0.1f, 2.0f),
               gamma = random_vector(static_cast<std::size_t>(c), 43),
               beta = random_vector(static_cast<std::size_t>(c), 44);
    auto tm = make_tensor({c}), tv = make_tensor({c}), tg = make_tensor({c}), tb = make_tensor({c});
    write_nchw(*tm, mean);
    write_nchw(*tv, var);
    write_nchw(*tg, gamma);
    write_nchw(*tb, beta);
    std::vector<float> want;
    for (int64_t i = 0; i < n * c * h * w; ++i) {
        const std::size_t ch = static_cast<std::size_t>((i / (h * w)) % c);
        const float v =
            (x[static_cast<std::size_t>(i)] - mean[ch]) / std::sqrt(var[ch] + 1e-3f) * gamma[ch] +
            beta[ch];
        want.push_back(std::max(v, 0.0f));
    }
    for (DataLayout layout : {DataLayout::nchw, DataLayout::nhwc, DataLayout::nchw16c}) {
        auto src = make_tensor({n, c, h, w}, layout);
        write_nchw(*src, x);
        BatchNormalization bn(ctx);
        bn.configure(*src, *src, *tm, *tv, tg.get(), tb.get(), 1e-3f,
                     ActivationInfo{ActivationKind::relu});
        bn.run();
        CHECK(all_close(read_nchw(*src), want, 1e-5f, 1e-5f));
    }
}

TEST_CASE("permute matches index arithmetic") {
    Context ctx(ContextOptions{2});
    const std::vector<int64_t> shape{3, 4, 5, 6};
    auto src = make_tensor(shape);
    const auto x = random_vector(360, 50);
    write_nchw(*src, x);
    for (const std::vector<int>& perm : {std::vector<int>{3, 2, 1, 0}, std::vector<int>{0, 2, 3, 1},
                                         std::vector<int>{1, 0, 2, 3}}) {
        auto dst = make_tensor(Permute::output_shape(src->info(), perm));
        Permute p(ctx);
        p.configure(*src, *dst, perm);
        p.run();
        const auto& ds = dst->info().shape();
        std::vector<float> want;
        for (int64_t a = 0; a < ds[0]; ++a)
            for (int64_t b = 0; b < ds[1]; ++b)
                for (int64_t c = 0; c < ds[2]; ++c)
                    for (int64_t d = 0; d < ds[3]; ++d) {
                        int64_t s[4];
                        const int64_t o[4] = {a, b, c, d};
                        for (int i = 0; i < 4; ++i) s[perm[static_cast<std::size_t>(i)]] = o[i];
                        want.push_back(
                            x[static_cast<std::size_t>(((s[0] * 4 + s[1]) * 5 + s[2]) * 6 + s[3])]);
                    }
        CHECK(read_nchw(*dst) == want);
    }
    auto dst = make_tensor({3, 4, 5, 6});
    Permute p(ctx);
    CHECK_THROWS_AS(p.configure(*src, *dst, {0, 0, 1, 2}), InvalidArgument);
}

TEST_CASE("concatenation: convolutions write straight into sub-tensors, copies into slices") {
    Context ctx(ContextOptions{2});
    auto src =
        make_tensor({2, 16, 6, 6}, DataLayout::nchw16c, DataType::f32, PaddingSize{1, 1, 1, 1});
    write_nchw(*src, random_vector(2 * 16 * 36, 60));
    auto w1 = make_tensor({16, 16, 3, 3}), w2 = make_tensor({20, 16, 3, 3});
    write_nchw(*w1, random_vector(16 * 16 * 9, 61));
    write_nchw(*w2, random_vector(20 * 16 * 9, 62));
    Conv2dGeometry g;
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 1;
    // separate outputs
    auto o1 = make_tensor({2, 16, 6, 6}, DataLayout::nchw16c),
         o2 = make_tensor({2, 20, 6, 6}, DataLayout::nchw16c);
    Conv2d c1(ctx), c2(ctx);
    c1.configure(*src, *w1, nullptr, *o1, Conv2dInfo{g, {}, nullptr});
    c2.configure(*src, *w2, nullptr, *o2, Conv2dInfo{g, {}, nullptr});
    c1.run();
    c2.run();
    // zero-copy: same convolutions writing into views of one tensor
    auto cat = make_tensor({2, 36, 6, 6}, DataLayout::nchw16c);
    const uint8_t* before = cat->buffer();
    auto views = Concatenate::views(*cat, {16, 20});
    Conv2d v1(ctx), v2(ctx);
    v1.configure(*src, *w1, nullptr, *views[0], Conv2dInfo{g, {}, nullptr});
    v2.configure(*src, *w2, nullptr, *views[1], Conv2dInfo{g, {}, nullptr});
    v1.run();
    v2.run();
    CHECK(cat->buffer() == before);
    std::vector<float> want = read_nchw(*o1), second = read_nchw(*o2);
    // interleave per batch: [n][16 ch] then [n][20 ch]
    std::vector<float> expected;
    for (int64_t n = 0; n < 2; ++n) {
        expected.insert(expected.end(), want.begin() + n * 16 * 36,
                        want.begin() + (n + 1) * 16 * 36);
        expected.insert(expected.end(), second.begin() + n * 20 * 36,
                        second.begin() + (n + 1) * 20 * 36);
    }
    CHECK(read_nchw(*cat) == expected);
    // copying concatenation from nchw inputs into a blocked output
    auto i1 = make_tensor({2, 16, 6, 6}, DataLayout::nchw),
         i2 = make_tensor({2, 20, 6, 6}, DataLayout::nchw);
    write_nchw(*i1, want);
    write_nchw(*i2, second);
    auto cat2 = make_tensor({2, 36, 6, 6}, DataLayout::nchw16c);
    Concatenate concat(ctx);
    concat.configure({i1.get(), i2.get()}, *cat2);
    concat.run();
    CHECK(read_nchw(*cat2) == expected);
    CHECK_THROWS_AS(Concatenate::views(*cat, {8, 28}), InvalidArgument);   // not block aligned
    CHECK_THROWS_AS(Concatenate::views(*cat, {16, 16}), InvalidArgument);  // sizes do not add up
}

namespace {

/// Whether c (s32 [M, N]) holds sum_k (a - a's offset)(b - b's offset), computed exactly.
bool matches_exact_s8_product(const Tensor& a, const Tensor& b, const Tensor& c) {
    const int64_t m = a.info().dim(0), k = a.info().dim(1), n = b.info().dim(1);
    const int64_t za = a.info().quantization().offset, zb = b.info().quantization().offset;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            int64_t s = 0;
            for (int64_t p = 0; p < k; ++p)
                s += (static_cast<int64_t>(a.data<uint8_t>()[i * k + p]) - za) *
                     (static_cast<int64_t>(b.data<int8_t>()[p * n + j]) - zb);
            if (c.data<int32_t>()[i * n + j] != s) return false;
        }
    return true;
}

}  // namespace

TEST_CASE("int8 matmul (u8 x s8 -> s32) with zero offsets, odd K, matches exact loops") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        for (auto [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1},
                               {9, 13, 17},
                               {33, 64, 40},
                               {20, 301, 3}}) {
            Tensor a(TensorInfo({m, k}, DataType::u8, DataLayout::plain, {0.1f, 7}));
            Tensor b(TensorInfo({k, n}, DataType::s8, DataLayout::plain, {0.2f, -3}));
            Tensor c(TensorInfo({m, n}, DataType::s32));
            for (Tensor* t : {&a, &b, &c}) t->allocator().allocate();
            std::mt19937 rng(static_cast<uint32_t>(m * 1000 + k));
            for (int64_t i = 0; i < m * k; ++i)
                a.data<uint8_t>()[i] = static_cast<uint8_t>(rng() % 256);
            for (int64_t i = 0; i < k * n; ++i)
                b.data<int8_t>()[i] = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
            QuantizedMatmul q(ctx);
            q.configure(a, b, c);
            q.run();
            CHECK(matches_exact_s8_product(a, b, c));
        }
    }
}

TEST_CASE("int8 matmul with a non-constant B packs B's new values on every run") {
    for (Isa isa : available_isas()) {
        Context ctx(ContextOptions{2, isa});
        const int64_t m = 11, k = 37, n = 19;
        Tensor a(TensorInfo({m, k}, DataType::u8, DataLayout::plain, {1.0f, 255}));
        Tensor b(TensorInfo({k, n}, DataType::s8, DataLayout::plain, {1.0f, 127}));
        Tensor c(TensorInfo({m, n}, DataType::s32));
        for (Tensor* t : {&a, &b, &c}) t->allocator().allocate();
        QuantizedMatmul q(ctx, std::make_shared<MemoryManager>());
        q.configure(a, b, c, false);
        std::mt19937 rng(5);
        for (int run = 0; run < 3; ++run) {
            // The first run at the extremes: (0 - 255) * (-128 - 127) per product.
            for (int64_t i = 0; i < m * k; ++i)
                a.data<uint8_t>()[i] = run == 0 ? uint8_t{0} : static_cast<uint8_t>(rng() % 256);
            for (int64_t i = 0; i < k * n; ++i)
                b.data<int8_t>()[i] =
                    run == 0 ? int8_t{-128}
                             : static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
            q.run();
            CAPTURE(run);
            CHECK(matches_exact_s8_product(a, b, c));
        }
    }
}

TEST_CASE("reorders round-trip between layouts and data types") {
    Context ctx(ContextOptions{2});
    const auto x = random_vector(2 * 21 * 5 * 6, 70);
    auto src = make_tensor({2, 21, 5, 6}, DataLayout::nchw);
    write_nchw(*src, x);
    for (DataLayout mid : {DataLayout::nhwc, DataLayout::nchw16c}) {
        auto m = make_tensor({2, 21, 5, 6}, mid, DataType::f32, PaddingSize{1, 0, 2, 3});
        auto back = make_tensor({2, 21, 5, 6}, DataLayout::nchw);
        Reorder r1(ctx), r2(ctx);
        r1.configure(*src, *m);
        r2.configure(*m, *back);
        r1.run();
        CHECK(read_nchw(*m) == x);
        r2.run();
        CHECK(read_nchw(*back) == x);
    }
    // One pixel per image (after global pooling): with whole channel blocks the two layouts hold
    // the same sequence of floats (copied as one); otherwise the blocked side's padding lanes
    // are zeros.
    for (const int64_t c : {int64_t{64}, int64_t{20}}) {
        CAPTURE(c);
        const auto v = random_vector(static_cast<std::size_t>(2 * c), 71);
        auto plain = make_tensor({2, c, 1, 1}, DataLayout::nchw);
        write_nchw(*plain, v);
        auto blocked = make_tensor({2, c, 1, 1}, DataLayout::nchw16c);
        auto back = make_tensor({2, c, 1, 1}, DataLayout::nchw);
        Reorder r1(ctx), r2(ctx);
        r1.configure(*plain, *blocked);
        r2.configure(*blocked, *back);
        r1.run();
        r2.run();
        CHECK(read_nchw(*blocked) == v);
        CHECK(read_nchw(*back) == v);
        const int64_t lanes = blocked->info().channel_blocks() * 16;
        const float* raw = blocked->data<float>();
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t lane = c; lane < lanes; ++lane) CHECK(raw[i * lanes + lane] == 0.0f);
    }
    for (DataType t : {DataType::f16, DataType::bf16}) {
        auto m = make_tensor({2, 21, 5, 6}, DataLayout::nchw16c, t);
        auto back = make_tensor({2, 21, 5, 6}, DataLayout::nchw);
        Reorder r1(ctx), r2(ctx);
        r1.configure(*src, *m);
        r2.configure(*m, *back);
        r1.run();
        r2.run();
        const float tol = t == DataType::f16 ? 1e-3f : 8e-3f;
        CHECK(all_close(read_nchw(*back), x, 0.0f, tol));
    }
}
