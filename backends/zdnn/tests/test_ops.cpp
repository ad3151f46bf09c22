// Every element-wise, activation, normalisation, reduction, matmul, pooling and convolution op
// against a naive fp32 implementation on DLFLOAT16-cleansed inputs.
#include <algorithm>
#include <functional>
#include <numeric>

#include "test_support.hpp"

using ztest::Tensor;

namespace {

using Unary = zdnn_status (*)(const zdnn_ztensor*, zdnn_ztensor*);
using Binary = zdnn_status (*)(const zdnn_ztensor*, const zdnn_ztensor*, zdnn_ztensor*);

void check_unary(Unary op, std::function<float(float)> ref, float lo, float hi) {
  Tensor in(ZDNN_3D, FP32, {2, 5, 67}), out(ZDNN_3D, FP32, {2, 5, 67});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), lo, hi, 11));
  REQUIRE(in.load(x) == ZDNN_OK);
  REQUIRE(op(&in.z, &out.z) == ZDNN_OK);
  CHECK(out.z.is_transformed);
  std::vector<float> want(x.size());
  std::transform(x.begin(), x.end(), want.begin(), ref);
  ztest::check_close(out.read(), want, 4, 1e-5f);
}

void check_binary(Binary op, std::function<float(float, float)> ref) {
  Tensor a(ZDNN_NHWC, FP32, {1, 3, 33, 70}), b(ZDNN_NHWC, FP32, {1, 3, 33, 70}), o(ZDNN_NHWC, FP32, {1, 3, 33, 70});
  const auto x = ztest::cleansed(ztest::random_values(a.elements(), -8, 8, 1));
  auto y = ztest::cleansed(ztest::random_values(a.elements(), 0.5f, 8, 2));
  REQUIRE(a.load(x) == ZDNN_OK);
  REQUIRE(b.load(y) == ZDNN_OK);
  REQUIRE(op(&a.z, &b.z, &o.z) == ZDNN_OK);
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = ref(x[i], y[i]);
  ztest::check_close(o.read(), want, 1);
}

}  // namespace

TEST_CASE("elementwise binary ops") {
  check_binary(zdnn_add, [](float a, float b) { return a + b; });
  check_binary(zdnn_sub, [](float a, float b) { return a - b; });
  check_binary(zdnn_mul, [](float a, float b) { return a * b; });
  check_binary(zdnn_div, [](float a, float b) { return a / b; });
  check_binary(zdnn_min, [](float a, float b) { return std::min(a, b); });
  check_binary(zdnn_max, [](float a, float b) { return std::max(a, b); });
}

TEST_CASE("elementwise unary ops and activations") {
  check_unary(
      zdnn_log, [](float x) { return std::log(x); }, 0.01f, 100);
  check_unary(
      zdnn_exp, [](float x) { return std::exp(x); }, -10, 10);
  check_unary(
      zdnn_sqrt, [](float x) { return std::sqrt(x); }, 0, 100);
  check_unary(
      zdnn_tanh, [](float x) { return std::tanh(x); }, -4, 4);
  check_unary(
      zdnn_sigmoid, [](float x) { return 1 / (1 + std::exp(-x)); }, -8, 8);
  check_unary(
      zdnn_gelu, [](float x) { return 0.5f * x * (1 + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }, -4,
      4);
  check_unary([](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_invsqrt(i, 0.5f, o); },
              [](float x) { return 1 / std::sqrt(x + 0.5f); }, 0, 10);
  check_unary([](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_relu(i, nullptr, o); },
              [](float x) { return std::max(x, 0.0f); }, -5, 5);
  check_unary(
      [](const zdnn_ztensor* i, zdnn_ztensor* o) {
        const float clip = 2;
        return zdnn_relu(i, &clip, o);
      },
      [](float x) { return std::min(std::max(x, 0.0f), 2.0f); }, -5, 5);
  check_unary([](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_leaky_relu(i, nullptr, 0.1f, o); },
              [](float x) { return x < 0 ? 0.1f * x : x; }, -5, 5);
}

TEST_CASE("exp overflow reports a range violation") {
  Tensor in(ZDNN_1D, FP32, {2}), out(ZDNN_1D, FP32, {2});
  REQUIRE(in.load({1.0f, 100.0f}) == ZDNN_OK);
  CHECK(zdnn_exp(&in.z, &out.z) == ZDNN_ELEMENT_RANGE_VIOLATION);
  CHECK(out.z.is_transformed);
}

TEST_CASE("activations pass NINF on: NaN in, NaN out with a range violation") {
  using Activation = std::function<zdnn_status(const zdnn_ztensor*, zdnn_ztensor*)>;
  const float clip = 2;
  const std::vector<Activation> ops = {
      [](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_relu(i, nullptr, o); },
      [&](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_relu(i, &clip, o); },
      [](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_leaky_relu(i, nullptr, 0.1f, o); },
      [](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_tanh(i, o); },
      [](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_sigmoid(i, o); },
      [](const zdnn_ztensor* i, zdnn_ztensor* o) { return zdnn_gelu(i, o); }};
  for (std::size_t k = 0; k < ops.size(); ++k) {
    CAPTURE(k);
    Tensor in(ZDNN_1D, FP32, {3}), out(ZDNN_1D, FP32, {3});
    REQUIRE(zdnn_transform_ztensor_with_saturation(&in.z, std::vector<float>{-1.0f, NAN, 3.0f}.data()) ==
            ZDNN_ELEMENT_RANGE_VIOLATION);
    CHECK(ops[k](&in.z, &out.z) == ZDNN_ELEMENT_RANGE_VIOLATION);
    const auto y = out.read_allowing_ninf();
    CHECK(std::isnan(y[1]));
    CHECK_FALSE(std::isnan(y[0]));
    CHECK_FALSE(std::isnan(y[2]));
  }
}

TEST_CASE("softmax, log-softmax and softmax_mask") {
  const uint32_t s = 3, r = 4, n = 70;
  Tensor in(ZDNN_3DS, FP32, {s, r, n}), out(ZDNN_3DS, FP32, {s, r, n});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), -3, 3, 5));
  REQUIRE(in.load(x) == ZDNN_OK);
  for (uint32_t mask : {0u, 9u}) {
    for (auto act : {SOFTMAX_ACT_NONE, SOFTMAX_ACT_LOG}) {
      zdnn_reset_ztensor(&out.z);
      REQUIRE(zdnn_softmax_mask(&in.z, nullptr, act, mask, &out.z) == ZDNN_OK);
      std::vector<float> want(x.size(), 0.0f);
      const uint32_t count = mask ? mask : n;
      for (size_t row = 0; row < size_t(s) * r; ++row) {
        const float* v = &x[row * n];
        const float mx = *std::max_element(v, v + count);
        double sum = 0;
        for (uint32_t i = 0; i < count; ++i) sum += std::exp(v[i] - mx);
        for (uint32_t i = 0; i < count; ++i)
          want[row * n + i] =
              act == SOFTMAX_ACT_LOG ? float(v[i] - mx - std::log(sum)) : float(std::exp(v[i] - mx) / sum);
      }
      ztest::check_close(out.read(), want, 4, 1e-6f);
    }
  }
  zdnn_reset_ztensor(&out.z);
  alignas(4096) static unsigned char save[8192];
  CHECK(zdnn_softmax(&in.z, save, SOFTMAX_ACT_NONE, &out.z) == ZDNN_OK);
}

TEST_CASE("meanreduce2d, batchnorm, norm, moments, layernorm") {
  const uint32_t N = 2, H = 3, W = 5, C = 7;
  Tensor in(ZDNN_NHWC, FP32, {N, H, W, C}), mean_out(ZDNN_NHWC, FP32, {N, 1, 1, C});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), -2, 2, 9));
  REQUIRE(in.load(x) == ZDNN_OK);
  REQUIRE(zdnn_meanreduce2d(&in.z, &mean_out.z) == ZDNN_OK);
  std::vector<float> want(N * C, 0);
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t c = 0; c < C; ++c) {
      double s = 0;
      for (uint32_t i = 0; i < H * W; ++i) s += x[(n * H * W + i) * C + c];
      want[n * C + c] = float(s / (H * W));
    }
  ztest::check_close(mean_out.read(), want, 4, 1e-4f);

  Tensor scale(ZDNN_1D, FP32, {C}), bias(ZDNN_1D, FP32, {C}), bn(ZDNN_NHWC, FP32, {N, H, W, C});
  const auto sc = ztest::cleansed(ztest::random_values(C, -2, 2, 3)),
             bi = ztest::cleansed(ztest::random_values(C, -2, 2, 4));
  REQUIRE(scale.load(sc) == ZDNN_OK);
  REQUIRE(bias.load(bi) == ZDNN_OK);
  REQUIRE(zdnn_batchnorm(&in.z, &scale.z, &bias.z, &bn.z) == ZDNN_OK);
  std::vector<float> bw(x.size());
  for (size_t i = 0; i < x.size(); ++i) bw[i] = x[i] * sc[i % C] + bi[i % C];
  ztest::check_close(bn.read(), bw, 4, 1e-4f);

  Tensor other(ZDNN_NHWC, FP32, {N, H, W, C}), norm(ZDNN_NHWC, FP32, {N, H, W, 1});
  const auto y = ztest::cleansed(ztest::random_values(in.elements(), -2, 2, 19));
  REQUIRE(other.load(y) == ZDNN_OK);
  REQUIRE(zdnn_norm(&in.z, &other.z, &norm.z) == ZDNN_OK);
  std::vector<float> nw(N * H * W);
  for (size_t r = 0; r < nw.size(); ++r) {
    double s = 0;
    for (uint32_t c = 0; c < C; ++c) s += double(y[r * C + c] - x[r * C + c]) * (y[r * C + c] - x[r * C + c]);
    nw[r] = float(std::sqrt(s));
  }
  ztest::check_close(norm.read(), nw, 4);

  Tensor m(ZDNN_NHWC, FP32, {N, 1, 1, 1}), v(ZDNN_NHWC, FP32, {N, 1, 1, 1});
  REQUIRE(zdnn_moments(&in.z, MOMENTS_BESSEL_SAMPLE, &m.z, &v.z) == ZDNN_OK);
  std::vector<float> mw(N), vw(N);
  const size_t per = H * W * C;
  for (uint32_t n = 0; n < N; ++n) {
    double s = 0, q = 0;
    for (size_t i = 0; i < per; ++i) s += x[n * per + i];
    const double mu = s / per;
    for (size_t i = 0; i < per; ++i) q += (x[n * per + i] - mu) * (x[n * per + i] - mu);
    mw[n] = float(mu);
    vw[n] = float(q / (per - 1));
  }
  ztest::check_close(m.read(), mw, 4, 1e-4f);
  ztest::check_close(v.read(), vw, 4);

  Tensor ln(ZDNN_NHWC, FP32, {N, H, W, C});
  REQUIRE(zdnn_layernorm(&in.z, &m.z, &v.z, 0.5f, 2.0f, 0.001f, &ln.z) == ZDNN_OK);
  const auto mr = m.read(), vr = v.read();
  std::vector<float> lw(x.size());
  for (size_t i = 0; i < x.size(); ++i) lw[i] = (x[i] - mr[i / per]) / std::sqrt(vr[i / per] + 0.001f) * 2.0f + 0.5f;
  ztest::check_close(ln.read(), lw, 8, 1e-3f);
}

TEST_CASE("reduce min/max and their indices") {
  Tensor in(ZDNN_3DS, FP32, {4, 5, 6});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), -9, 9, 21));
  REQUIRE(in.load(x) == ZDNN_OK);
  for (auto op : {REDUCE_OP_MINIMUM, REDUCE_OP_MAXIMUM}) {
    Tensor out(ZDNN_3DS, FP32, {4, 5, 1});
    REQUIRE(zdnn_reduce(&in.z, nullptr, op, &out.z) == ZDNN_OK);
    std::vector<float> want(20);
    for (size_t r = 0; r < 20; ++r)
      want[r] = op == REDUCE_OP_MINIMUM ? *std::min_element(&x[r * 6], &x[r * 6] + 6)
                                        : *std::max_element(&x[r * 6], &x[r * 6] + 6);
    CHECK(out.read() == want);
  }
  for (auto op : {REDUCE_OP_MINIMUM_IDX, REDUCE_OP_MAXIMUM_IDX}) {
    Tensor out(ZDNN_3DS, INT32, {4, 5, 1});
    CHECK(out.tf.type == ZDNN_BINARY_INT32);
    REQUIRE(zdnn_reduce(&in.z, nullptr, op, &out.z) == ZDNN_OK);
    std::vector<int32_t> got(20);
    REQUIRE(zdnn_transform_origtensor(&out.z, got.data()) == ZDNN_OK);
    for (size_t r = 0; r < 20; ++r) {
      const float* v = &x[r * 6];
      const auto it = op == REDUCE_OP_MINIMUM_IDX ? std::min_element(v, v + 6) : std::max_element(v, v + 6);
      CHECK(got[r] == int32_t(it - v));
    }
  }
}

namespace {

std::vector<float> naive_matmul(const std::vector<float>& a, const std::vector<float>& b, uint32_t m, uint32_t n,
                                uint32_t p, bool ta = false, bool tb = false) {
  std::vector<float> out(m * p, 0);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < p; ++j) {
      double s = 0;
      for (uint32_t k = 0; k < n; ++k)
        s += double(ta ? a[k * m + i] : a[i * n + k]) * (tb ? b[j * n + k] : b[k * p + j]);
      out[i * p + j] = float(s);
    }
  return out;
}

}  // namespace

TEST_CASE("matmul_op unstacked and stacked with addition, odd sizes") {
  const uint32_t m = 37, n = 70, p = 45;
  Tensor a(ZDNN_2D, FP32, {m, n}), b(ZDNN_2D, FP32, {n, p}), c(ZDNN_1D, FP32, {p}), o(ZDNN_2D, FP32, {m, p});
  const auto av = ztest::cleansed(ztest::random_values(m * n, -1, 1, 1)),
             bv = ztest::cleansed(ztest::random_values(n * p, -1, 1, 2));
  const auto cv = ztest::cleansed(ztest::random_values(p, -1, 1, 3));
  REQUIRE(a.load(av) == ZDNN_OK);
  REQUIRE(b.load(bv) == ZDNN_OK);
  REQUIRE(c.load(cv) == ZDNN_OK);
  REQUIRE(zdnn_matmul_op(&a.z, &b.z, &c.z, MATMUL_OP_ADDITION, &o.z) == ZDNN_OK);
  auto want = naive_matmul(av, bv, m, n, p);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < p; ++j) want[i * p + j] += cv[j];
  ztest::check_close(o.read(), want, 4, 2e-3f);

  const uint32_t s = 3;
  Tensor sa(ZDNN_3DS, FP32, {s, 5, 9}), sb(ZDNN_3DS, FP32, {s, 9, 7}), sc(ZDNN_2DS, FP32, {s, 7}),
      so(ZDNN_3DS, FP32, {s, 5, 7});
  const auto x = ztest::cleansed(ztest::random_values(s * 45, -1, 1, 4)),
             y = ztest::cleansed(ztest::random_values(s * 63, -1, 1, 5));
  const auto z = ztest::cleansed(ztest::random_values(s * 7, -1, 1, 6));
  REQUIRE(sa.load(x) == ZDNN_OK);
  REQUIRE(sb.load(y) == ZDNN_OK);
  REQUIRE(sc.load(z) == ZDNN_OK);
  REQUIRE(zdnn_matmul_op(&sa.z, &sb.z, &sc.z, MATMUL_OP_ADDITION, &so.z) == ZDNN_OK);
  std::vector<float> sw;
  for (uint32_t st = 0; st < s; ++st) {
    auto r = naive_matmul({x.begin() + st * 45, x.begin() + st * 45 + 45},
                          {y.begin() + st * 63, y.begin() + st * 63 + 63}, 5, 9, 7);
    for (uint32_t i = 0; i < 5; ++i)
      for (uint32_t j = 0; j < 7; ++j) r[i * 7 + j] += z[st * 7 + j];
    sw.insert(sw.end(), r.begin(), r.end());
  }
  ztest::check_close(so.read(), sw, 4, 2e-3f);
}

TEST_CASE("matmul comparison ops give 1/0") {
  Tensor a(ZDNN_2D, FP32, {1, 2}), b(ZDNN_2D, FP32, {2, 3}), c(ZDNN_1D, FP32, {3});
  REQUIRE(a.load({1, 2}) == ZDNN_OK);
  REQUIRE(b.load({1, 0, 1, 0, 1, 1}) == ZDNN_OK);  // dots: 1, 2, 3
  REQUIRE(c.load({2, 2, 2}) == ZDNN_OK);
  const std::pair<zdnn_matmul_ops, std::vector<float>> cases[] = {
      {MATMUL_OP_GREATER, {0, 0, 1}},   {MATMUL_OP_GREATER_EQUAL, {0, 1, 1}}, {MATMUL_OP_EQUAL, {0, 1, 0}},
      {MATMUL_OP_NOT_EQUAL, {1, 0, 1}}, {MATMUL_OP_LESSER_EQUAL, {1, 1, 0}},  {MATMUL_OP_LESSER, {1, 0, 0}}};
  for (const auto& [op, want] : cases) {
    Tensor o(ZDNN_2D, FP32, {1, 3});
    REQUIRE(zdnn_matmul_op(&a.z, &b.z, &c.z, op, &o.z) == ZDNN_OK);
    CHECK(o.read() == want);
    Tensor o2(ZDNN_2D, FP32, {1, 3});
    REQUIRE(zdnn_matmul_bcast_op(&a.z, &b.z, &c.z, static_cast<zdnn_matmul_bcast_ops>(op), &o2.z) == ZDNN_OK);
    CHECK(o2.read() == want);
  }
}

TEST_CASE("matmul_bcast_op (bcast23, bcast1) and matmul_transpose_op") {
  const uint32_t s = 2, m = 3, n = 4, p = 5;
  Tensor a3(ZDNN_3DS, FP32, {s, m, n}), b2(ZDNN_2D, FP32, {n, p}), c1(ZDNN_1D, FP32, {p}), o(ZDNN_3DS, FP32, {s, m, p});
  const auto av = ztest::cleansed(ztest::random_values(s * m * n, -1, 1, 7)),
             bv = ztest::cleansed(ztest::random_values(n * p, -1, 1, 8));
  const auto cv = ztest::cleansed(ztest::random_values(p, -1, 1, 9));
  REQUIRE(a3.load(av) == ZDNN_OK);
  REQUIRE(b2.load(bv) == ZDNN_OK);
  REQUIRE(c1.load(cv) == ZDNN_OK);
  REQUIRE(zdnn_matmul_bcast_op(&a3.z, &b2.z, &c1.z, MATMUL_BCAST_OP_ADDITION, &o.z) == ZDNN_OK);
  std::vector<float> want;
  for (uint32_t st = 0; st < s; ++st) {
    auto r = naive_matmul({av.begin() + st * m * n, av.begin() + (st + 1) * m * n}, bv, m, n, p);
    for (uint32_t i = 0; i < m * p; ++i) r[i] += cv[i % p];
    want.insert(want.end(), r.begin(), r.end());
  }
  ztest::check_close(o.read(), want, 4, 1e-3f);
  Tensor o_bad(ZDNN_3DS, FP32, {s, m, p});
  CHECK(zdnn_matmul_op(&a3.z, &b2.z, &c1.z, MATMUL_OP_ADDITION, &o_bad.z) == ZDNN_INVALID_SHAPE);

  Tensor a2(ZDNN_2D, FP32, {m, n}), b3(ZDNN_3DS, FP32, {s, n, p}), c2(ZDNN_2DS, FP32, {s, p}),
      o1(ZDNN_3DS, FP32, {s, m, p});
  const auto bv3 = ztest::cleansed(ztest::random_values(s * n * p, -1, 1, 10)),
             cv2 = ztest::cleansed(ztest::random_values(s * p, -1, 1, 11));
  std::vector<float> a2v(av.begin(), av.begin() + m * n);
  REQUIRE(a2.load(a2v) == ZDNN_OK);
  REQUIRE(b3.load(bv3) == ZDNN_OK);
  REQUIRE(c2.load(cv2) == ZDNN_OK);
  REQUIRE(zdnn_matmul_bcast_op(&a2.z, &b3.z, &c2.z, MATMUL_BCAST_OP_ADDITION, &o1.z) == ZDNN_OK);
  want.clear();
  for (uint32_t st = 0; st < s; ++st) {
    auto r = naive_matmul(a2v, {bv3.begin() + st * n * p, bv3.begin() + (st + 1) * n * p}, m, n, p);
    for (uint32_t i = 0; i < m * p; ++i) r[i] += cv2[st * p + i % p];
    want.insert(want.end(), r.begin(), r.end());
  }
  ztest::check_close(o1.read(), want, 4, 1e-3f);

  // transpose: a given as (n, m), b as (p, n)
  Tensor at(ZDNN_2D, FP32, {n, m}), bt(ZDNN_2D, FP32, {p, n}), ot(ZDNN_2D, FP32, {m, p});
  const auto atv = ztest::cleansed(ztest::random_values(n * m, -1, 1, 12)),
             btv = ztest::cleansed(ztest::random_values(p * n, -1, 1, 13));
  REQUIRE(at.load(atv) == ZDNN_OK);
  REQUIRE(bt.load(btv) == ZDNN_OK);
  REQUIRE(zdnn_matmul_transpose_op(&at.z, &bt.z, &c1.z, true, true, MATMUL_OP_ADDITION, &ot.z) == ZDNN_OK);
  auto tw = naive_matmul(atv, btv, m, n, p, true, true);
  for (uint32_t i = 0; i < m * p; ++i) tw[i] += cv[i % p];
  ztest::check_close(ot.read(), tw, 4, 1e-3f);
}

TEST_CASE("large matmul through the packed kernel") {
  const uint32_t m = 200, n = 300, p = 130;
  Tensor a(ZDNN_2D, FP32, {m, n}), b(ZDNN_2D, FP32, {n, p}), c(ZDNN_1D, FP32, {p}), o(ZDNN_2D, FP32, {m, p});
  const auto av = ztest::cleansed(ztest::random_values(m * n, -1, 1, 31)),
             bv = ztest::cleansed(ztest::random_values(n * p, -1, 1, 32));
  REQUIRE(a.load(av) == ZDNN_OK);
  REQUIRE(b.load(bv) == ZDNN_OK);
  REQUIRE(c.load(std::vector<float>(p, 0.0f)) == ZDNN_OK);
  REQUIRE(zdnn_matmul_op(&a.z, &b.z, &c.z, MATMUL_OP_ADDITION, &o.z) == ZDNN_OK);
  ztest::check_close(o.read(), naive_matmul(av, bv, m, n, p), 4, 1e-2f);
}

namespace {

float pool_ref(const std::vector<float>& x, uint32_t H, uint32_t W, uint32_t C, bool avg, int64_t h0, int64_t w0,
               uint32_t kh, uint32_t kw, uint32_t c) {
  double acc = avg ? 0 : -INFINITY;
  int cnt = 0;
  for (int64_t h = h0; h < h0 + kh; ++h)
    for (int64_t w = w0; w < w0 + kw; ++w) {
      if (h < 0 || w < 0 || h >= H || w >= W) continue;
      const float v = x[(h * W + w) * C + c];
      acc = avg ? acc + v : std::max<double>(acc, v);
      ++cnt;
    }
  return float(avg ? acc / cnt : acc);
}

}  // namespace

TEST_CASE("avgpool2d and maxpool2d, VALID and SAME") {
  const uint32_t H = 7, W = 9, C = 3;
  Tensor in(ZDNN_NHWC, FP32, {1, H, W, C});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), -3, 3, 41));
  REQUIRE(in.load(x) == ZDNN_OK);
  for (bool avg : {true, false})
    for (auto pad : {VALID_PADDING, SAME_PADDING}) {
      const uint32_t kh = 3, kw = 2, sh = 2, sw = 3;
      const uint32_t oh = pad == SAME_PADDING ? (H + sh - 1) / sh : (H - kh + sh) / sh;
      const uint32_t ow = pad == SAME_PADDING ? (W + sw - 1) / sw : (W - kw + sw) / sw;
      Tensor out(ZDNN_NHWC, FP32, {1, oh, ow, C});
      REQUIRE((avg ? zdnn_avgpool2d : zdnn_maxpool2d)(&in.z, pad, kh, kw, sh, sw, &out.z) == ZDNN_OK);
      const int64_t pt = pad == SAME_PADDING ? std::max<int64_t>(0, int64_t(oh - 1) * sh + kh - H) / 2 : 0;
      const int64_t pl = pad == SAME_PADDING ? std::max<int64_t>(0, int64_t(ow - 1) * sw + kw - W) / 2 : 0;
      std::vector<float> want;
      for (uint32_t i = 0; i < oh; ++i)
        for (uint32_t j = 0; j < ow; ++j)
          for (uint32_t c = 0; c < C; ++c)
            want.push_back(pool_ref(x, H, W, C, avg, i * sh - pt, j * sw - pl, kh, kw, c));
      ztest::check_close(out.read(), want, 4, 1e-3f);
    }
  Tensor global(ZDNN_NHWC, FP32, {1, 1, 1, C});
  REQUIRE(zdnn_avgpool2d(&in.z, VALID_PADDING, H, W, 0, 0, &global.z) == ZDNN_OK);
  std::vector<float> gw;
  for (uint32_t c = 0; c < C; ++c) gw.push_back(pool_ref(x, H, W, C, true, 0, 0, H, W, c));
  ztest::check_close(global.read(), gw, 4, 1e-3f);
}

TEST_CASE("conv2d VALID/SAME with bias, relu and clipping") {
  const uint32_t N = 1, H = 6, W = 7, Ci = 3, Co = 4, KH = 3, KW = 2;
  Tensor in(ZDNN_NHWC, FP32, {N, H, W, Ci}), k(ZDNN_HWCK, FP32, {KH, KW, Ci, Co}), b(ZDNN_1D, FP32, {Co});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), -1, 1, 51));
  const auto kv = ztest::cleansed(ztest::random_values(k.elements(), -1, 1, 52));
  const auto bv = ztest::cleansed(ztest::random_values(Co, -1, 1, 53));
  REQUIRE(in.load(x) == ZDNN_OK);
  REQUIRE(k.load(kv) == ZDNN_OK);
  REQUIRE(b.load(bv) == ZDNN_OK);
  for (auto pad : {VALID_PADDING, SAME_PADDING})
    for (auto act : {CONV2D_ACT_NONE, CONV2D_ACT_RELU}) {
      const uint32_t sh = 2, sw = 1;
      const uint32_t oh = pad == SAME_PADDING ? (H + sh - 1) / sh : (H - KH + sh) / sh;
      const uint32_t ow = pad == SAME_PADDING ? (W + sw - 1) / sw : (W - KW + sw) / sw;
      Tensor out(ZDNN_NHWC, FP32, {N, oh, ow, Co});
      const float clip = 0.75f;
      REQUIRE(zdnn_conv2d(&in.z, &k.z, &b.z, pad, sh, sw, act, act == CONV2D_ACT_RELU ? &clip : nullptr, &out.z) ==
              ZDNN_OK);
      const int64_t pt = pad == SAME_PADDING ? std::max<int64_t>(0, int64_t(oh - 1) * sh + KH - H) / 2 : 0;
      const int64_t pl = pad == SAME_PADDING ? std::max<int64_t>(0, int64_t(ow - 1) * sw + KW - W) / 2 : 0;
      std::vector<float> want;
      for (uint32_t i = 0; i < oh; ++i)
        for (uint32_t j = 0; j < ow; ++j)
          for (uint32_t co = 0; co < Co; ++co) {
            double s = bv[co];
            for (uint32_t a = 0; a < KH; ++a)
              for (uint32_t bb = 0; bb < KW; ++bb) {
                const int64_t h = int64_t(i) * sh - pt + a, w = int64_t(j) * sw - pl + bb;
                if (h < 0 || w < 0 || h >= H || w >= W) continue;
                for (uint32_t ci = 0; ci < Ci; ++ci)
                  s += double(x[(h * W + w) * Ci + ci]) * kv[((a * KW + bb) * Ci + ci) * Co + co];
              }
            float v = float(s);
            if (act == CONV2D_ACT_RELU) v = std::min(std::max(v, 0.0f), clip);
            want.push_back(v);
          }
      ztest::check_close(out.read(), want, 4, 2e-3f);
    }
}

TEST_CASE("conv2d large enough to be computed in several im2col chunks") {
  const uint32_t H = 64, W = 128, Ci = 64, Co = 8, K = 3;
  Tensor in(ZDNN_NHWC, FP32, {1, H, W, Ci}), k(ZDNN_HWCK, FP32, {K, K, Ci, Co}), b(ZDNN_1D, FP32, {Co});
  Tensor out(ZDNN_NHWC, FP32, {1, H, W, Co});
  const auto x = ztest::cleansed(ztest::random_values(in.elements(), -1, 1, 61));
  const auto kv = ztest::cleansed(ztest::random_values(k.elements(), -0.2f, 0.2f, 62));
  REQUIRE(in.load(x) == ZDNN_OK);
  REQUIRE(k.load(kv) == ZDNN_OK);
  REQUIRE(b.load(std::vector<float>(Co, 0.5f)) == ZDNN_OK);
  REQUIRE(zdnn_conv2d(&in.z, &k.z, &b.z, SAME_PADDING, 1, 1, CONV2D_ACT_NONE, nullptr, &out.z) == ZDNN_OK);
  std::vector<float> want;
  for (uint32_t i = 0; i < H; ++i)
    for (uint32_t j = 0; j < W; ++j)
      for (uint32_t co = 0; co < Co; ++co) {
        double s = 0.5;
        for (uint32_t a = 0; a < K; ++a)
          for (uint32_t c = 0; c < K; ++c) {
            const int64_t h = int64_t(i) + a - 1, w = int64_t(j) + c - 1;
            if (h < 0 || w < 0 || h >= H || w >= W) continue;
            for (uint32_t ci = 0; ci < Ci; ++ci)
              s += double(x[(h * W + w) * Ci + ci]) * kv[((a * K + c) * Ci + ci) * Co + co];
          }
        want.push_back(float(s));
      }
  ztest::check_close(out.read(), want, 4, 2e-3f);
}
