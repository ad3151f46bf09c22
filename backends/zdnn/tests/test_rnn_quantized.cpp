// LSTM / GRU (fwd, bwd, bidir) against a naive recurrence, and quantized matmul against integer
// arithmetic.
#include <algorithm>

#include "test_support.hpp"

using ztest::Tensor;

namespace {

struct Gates {
  zdnn_tensor_desc pre{}, tf{};
  zdnn_ztensor z{};
  Gates(zdnn_data_layouts layout, uint32_t dirs, uint32_t rows, uint32_t hidden, zdnn_concat_info info) {
    if (layout == ZDNN_2DS)
      zdnn_init_pre_transformed_desc(ZDNN_2DS, FP32, &pre, dirs, hidden);
    else
      zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &pre, dirs, rows, hidden);
    REQUIRE(zdnn_generate_transformed_desc_concatenated(&pre, info, &tf) == ZDNN_OK);
    REQUIRE(zdnn_init_ztensor_with_malloc(&pre, &tf, &z) == ZDNN_OK);
  }
  ~Gates() { zdnn_free_ztensor_buffer(&z); }
};

float sig(float x) {
  return 1 / (1 + std::exp(-x));
}

void run_rnn(bool lstm, lstm_gru_direction dir, bool all_steps) {
  const uint32_t T = 3, B = 2, F = 5, S = 4, D = dir == BIDIR ? 2 : 1, G = lstm ? 4 : 3;
  const zdnn_concat_info type = lstm ? RNN_TYPE_LSTM : RNN_TYPE_GRU;
  Tensor x(ZDNN_3DS, FP32, {T, B, F}), h0(ZDNN_3DS, FP32, {D, B, S}), c0(ZDNN_3DS, FP32, {D, B, S});
  Gates w(ZDNN_3DS, D, F, S, type | USAGE_WEIGHTS), wb(ZDNN_2DS, D, 1, S, type | USAGE_BIASES);
  Gates r(ZDNN_3DS, D, S, S, type | USAGE_HIDDEN_WEIGHTS), rb(ZDNN_2DS, D, 1, S, type | USAGE_HIDDEN_BIASES);
  const auto xv = ztest::cleansed(ztest::random_values(T * B * F, -1, 1, 1));
  const auto hv = ztest::cleansed(ztest::random_values(D * B * S, -1, 1, 2));
  const auto cv = ztest::cleansed(ztest::random_values(D * B * S, -1, 1, 3));
  std::vector<std::vector<float>> W(G), WB(G), R(G), RB(G);
  for (uint32_t g = 0; g < G; ++g) {
    W[g] = ztest::cleansed(ztest::random_values(D * F * S, -0.5f, 0.5f, 10 + g));
    WB[g] = ztest::cleansed(ztest::random_values(D * S, -0.5f, 0.5f, 20 + g));
    R[g] = ztest::cleansed(ztest::random_values(D * S * S, -0.5f, 0.5f, 30 + g));
    RB[g] = ztest::cleansed(ztest::random_values(D * S, -0.5f, 0.5f, 40 + g));
  }
  REQUIRE(x.load(xv) == ZDNN_OK);
  REQUIRE(h0.load(hv) == ZDNN_OK);
  REQUIRE(c0.load(cv) == ZDNN_OK);
  auto load_gates = [&](Gates& t, std::vector<std::vector<float>>& v) {
    return lstm ? zdnn_transform_ztensor(&t.z, v[0].data(), v[1].data(), v[2].data(), v[3].data())
                : zdnn_transform_ztensor(&t.z, v[0].data(), v[1].data(), v[2].data());
  };
  REQUIRE(load_gates(w, W) == ZDNN_OK);
  REQUIRE(load_gates(wb, WB) == ZDNN_OK);
  REQUIRE(load_gates(r, R) == ZDNN_OK);
  REQUIRE(load_gates(rb, RB) == ZDNN_OK);
  const uint32_t TO = all_steps ? T : 1;
  Tensor hn(ZDNN_4DS, FP32, {TO, D, B, S}), cf(ZDNN_4DS, FP32, {1, D, B, S});
  const zdnn_status st = lstm ? zdnn_lstm(&x.z, &h0.z, &c0.z, &w.z, &wb.z, &r.z, &rb.z, dir, nullptr, &hn.z, &cf.z)
                              : zdnn_gru(&x.z, &h0.z, &w.z, &wb.z, &r.z, &rb.z, dir, nullptr, &hn.z);
  REQUIRE(st == ZDNN_OK);
  std::vector<float> want_h(TO * D * B * S), want_c(D * B * S);
  for (uint32_t d = 0; d < D; ++d) {
    std::vector<float> h(hv.begin() + d * B * S, hv.begin() + (d + 1) * B * S),
        c(cv.begin() + d * B * S, cv.begin() + (d + 1) * B * S);
    const bool back = dir == BWD || d == 1;
    for (uint32_t step = 0; step < T; ++step) {
      const uint32_t t = back ? T - 1 - step : step;
      std::vector<float> nh(B * S);
      for (uint32_t b = 0; b < B; ++b)
        for (uint32_t k = 0; k < S; ++k) {
          float xg[4], hg[4];
          for (uint32_t g = 0; g < G; ++g) {
            double a = WB[g][d * S + k], z = RB[g][d * S + k];
            for (uint32_t f = 0; f < F; ++f) a += xv[(t * B + b) * F + f] * W[g][(d * F + f) * S + k];
            for (uint32_t q = 0; q < S; ++q) z += h[b * S + q] * R[g][(d * S + q) * S + k];
            xg[g] = float(a);
            hg[g] = float(z);
          }
          if (lstm) {
            const float f = sig(xg[0] + hg[0]), i = sig(xg[1] + hg[1]), g = std::tanh(xg[2] + hg[2]),
                        o = sig(xg[3] + hg[3]);
            c[b * S + k] = f * c[b * S + k] + i * g;
            nh[b * S + k] = o * std::tanh(c[b * S + k]);
          } else {
            const float z = sig(xg[0] + hg[0]), rr = sig(xg[1] + hg[1]), cand = std::tanh(xg[2] + rr * hg[2]);
            nh[b * S + k] = (1 - z) * cand + z * h[b * S + k];
          }
        }
      h = nh;
      if (all_steps)
        for (uint32_t i = 0; i < B * S; ++i) want_h[(t * D + d) * B * S + i] = h[i];
    }
    if (!all_steps) std::copy(h.begin(), h.end(), want_h.begin() + d * B * S);
    std::copy(c.begin(), c.end(), want_c.begin() + d * B * S);
  }
  const auto got = hn.read();
  for (size_t i = 0; i < got.size(); ++i) REQUIRE(std::fabs(got[i] - want_h[i]) < 1.5e-2f);
  if (lstm) {
    const auto gc = cf.read();
    for (size_t i = 0; i < gc.size(); ++i) REQUIRE(std::fabs(gc[i] - want_c[i]) < 1.5e-2f);
  }
}

}  // namespace

TEST_CASE("LSTM forward, backward, bidirectional") {
  run_rnn(true, FWD, true);
  run_rnn(true, BWD, true);
  run_rnn(true, BIDIR, true);
  run_rnn(true, FWD, false);
  run_rnn(true, BIDIR, false);
}

TEST_CASE("GRU forward, backward, bidirectional") {
  run_rnn(false, FWD, true);
  run_rnn(false, BWD, false);
  run_rnn(false, BIDIR, true);
}

TEST_CASE("quantized matmul: int8 inputs, scales, offsets, dequantize") {
  const uint32_t m = 3, n = 70, p = 5;
  zdnn_tensor_desc ap, at, bp, bt, cp, ct, op, ot;
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &ap, m, n);
  zdnn_init_pre_transformed_desc(ZDNN_2D, INT8, &bp, n, p);
  zdnn_init_pre_transformed_desc(ZDNN_1D, FP32, &cp, p);
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &op, m, p);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&ap, QUANTIZED_INT8, &at) == ZDNN_OK);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&bp, QUANTIZED_WEIGHTS_INT8, &bt) == ZDNN_OK);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&cp, QUANTIZED_INT8, &ct) == ZDNN_OK);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&op, QUANTIZED_DLFLOAT16, &ot) == ZDNN_OK);
  const float sa = 0.05f, za = 2, sb = 0.02f, sc = 0.1f, zc = -3, sy = 0.5f, zy = 1;
  zdnn_ztensor a, b, c, o;
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&ap, &at, sa, za, &a) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&bp, &bt, sb, 0, &b) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&cp, &ct, sc, zc, &c) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&op, &ot, sy, zy, &o) == ZDNN_OK);
  CHECK(zdnn_is_quantized_ztensor(&a));
  const auto av = ztest::random_values(m * n, -3, 3, 61), cv = ztest::random_values(p, -3, 3, 62);
  std::vector<int8_t> bv(n * p);
  for (size_t i = 0; i < bv.size(); ++i) bv[i] = int8_t(int(i * 37 % 255) - 127);
  REQUIRE(zdnn_transform_quantized_ztensor(&a, false, INT8_MIN, INT8_MAX, av.data()) == ZDNN_OK);
  REQUIRE(zdnn_transform_quantized_ztensor(&b, false, INT8_MIN, INT8_MAX, bv.data()) == ZDNN_OK);
  REQUIRE(zdnn_transform_quantized_ztensor(&c, false, INT8_MIN, INT8_MAX, cv.data()) == ZDNN_OK);
  REQUIRE(zdnn_quantized_matmul_op(&a, &b, &c, MATMUL_OP_ADDITION, INT8_MIN, INT8_MAX, false, true, false, nullptr,
                                   &o) == ZDNN_OK);
  std::vector<float> got(m * p);
  REQUIRE(zdnn_transform_origtensor(&o, got.data()) == ZDNN_OK);
  auto q = [](float x, float s, float z) {
    return std::min(127.0f, std::max(-128.0f, std::nearbyint(x * (1 / s) + z)));
  };
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < p; ++j) {
      double dot = 0;
      for (uint32_t k = 0; k < n; ++k) dot += (q(av[i * n + k], sa, za) - za) * double(bv[k * p + j]);
      const double real = sa * sb * dot + sc * (q(cv[j], sc, zc) - zc);
      // y_q = real / Sy + Zy is rounded half to even and clipped to [-128, 127] before it is
      // dequantized; near a tie the DLFLOAT16 rounding of y_q may pick either neighbour.
      const double yq = real / sy + zy;
      auto dequantized = [&](double level) { return float(sy * (std::clamp(level, -128.0, 127.0) - zy)); };
      const bool near_tie = std::fabs(yq - std::floor(yq) - 0.5) < 0.05;
      const float got_ij = got[i * p + j];
      INFO(i << "," << j << " y_q " << yq);
      CHECK((got_ij == dequantized(std::nearbyint(yq)) ||
             (near_tie && (got_ij == dequantized(std::floor(yq)) || got_ij == dequantized(std::ceil(yq))))));
    }
  zdnn_free_ztensor_buffer(&a);
  zdnn_free_ztensor_buffer(&b);
  zdnn_free_ztensor_buffer(&c);
  zdnn_free_ztensor_buffer(&o);
}
