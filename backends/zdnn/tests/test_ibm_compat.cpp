// What programs and test drivers written against IBM's zdnn.h 1.2.0 expect beyond the API text:
// limits, NINF and FP16 NaN statuses, BFLOAT truncation, quantized matmul rounding/clipping and
// offsets, INT8 quantized transforms, bidirectional weights shapes, header constants and
// signatures, and the LSTM/GRU work_area.
#include <cstdlib>
#include <type_traits>

#include "test_support.hpp"

using ztest::Tensor;

namespace {

uint16_t bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}

// 4 KiB aligned, freed on scope exit.
struct AlignedArea {
  void* p;
  size_t bytes;
  explicit AlignedArea(size_t n) : p(std::aligned_alloc(4096, (n + 4095) / 4096 * 4096)), bytes(n) {}
  ~AlignedArea() { std::free(p); }
  AlignedArea(const AlignedArea&) = delete;
  AlignedArea& operator=(const AlignedArea&) = delete;
};

}  // namespace

// ------------------------------------------------------------------ 1, 9: BFLOAT limits and truncation
TEST_CASE("max/min DLFLOAT16 limit as BFLOAT is the largest bfloat16 that survives a transform") {
  uint16_t max_bits = 0, min_bits = 0;
  REQUIRE(zdnn_get_max_limit(ZDNN_DLFLOAT16, BFLOAT, &max_bits) == ZDNN_OK);
  REQUIRE(zdnn_get_min_limit(ZDNN_DLFLOAT16, BFLOAT, &min_bits) == ZDNN_OK);
  CHECK(max_bits == 0x4FFF);
  CHECK(min_bits == 0xCFFF);
  // 0x4FFF / 0xCFFF transform; the next bfloat16 values (0x5000 = 2^33) are beyond DLFLOAT16.
  Tensor ok(ZDNN_1D, BFLOAT, {2});
  const uint16_t limits[2] = {max_bits, min_bits};
  CHECK(zdnn_transform_ztensor(&ok.z, limits) == ZDNN_OK);
  Tensor bad(ZDNN_1D, BFLOAT, {1});
  const uint16_t above = 0x5000;
  CHECK(zdnn_transform_ztensor(&bad.z, &above) == ZDNN_CONVERT_FAILURE);
}

TEST_CASE("saturated BFLOAT values read back as 0x4FFF / 0xCFFF") {
  Tensor t(ZDNN_1D, BFLOAT, {4});
  const uint16_t in[4] = {0x7F7F /* bfloat max */, 0xFF7F, 0x5000, 0x3F80};
  REQUIRE(zdnn_transform_ztensor_with_saturation(&t.z, in) == ZDNN_OK);
  uint16_t back[4];
  REQUIRE(zdnn_transform_origtensor(&t.z, back) == ZDNN_OK);
  CHECK(back[0] == 0x4FFF);
  CHECK(back[1] == 0xCFFF);
  CHECK(back[2] == 0x4FFF);
  CHECK(back[3] == 0x3F80);
}

TEST_CASE("DLFLOAT16 to BFLOAT truncates the two extra fraction bits") {
  // Every 9-bit fraction at exponents 0 and 3, both signs: bfloat16 keeps the top 7 bits.
  std::vector<float> values;
  for (int sign : {1, -1})
    for (int e : {0, 3})
      for (int m = 0; m < 512; ++m) values.push_back(sign * std::ldexp(1.0f + m / 512.0f, e));
  Tensor t(ZDNN_2D, FP32, {1, uint32_t(values.size())});
  REQUIRE(t.load(values) == ZDNN_OK);
  zdnn_tensor_desc as_bfloat = t.pre;
  as_bfloat.type = BFLOAT;
  zdnn_ztensor view = t.z;
  view.pre_transformed_desc = &as_bfloat;
  std::vector<uint16_t> back(values.size());
  REQUIRE(zdnn_transform_origtensor(&view, back.data()) == ZDNN_OK);
  size_t mismatches = 0;  // against the high half of the exact binary32 value
  for (size_t i = 0; i < values.size(); ++i) mismatches += back[i] != bf16_bits(values[i]);
  CHECK(mismatches == 0);
  CHECK(back[3] == 0x3F80);         // 1 + 3/512 -> 1, where rounding gives 0x3F81
  CHECK(back[515] == 0x4100);       // 8 * (1 + 3/512) -> 8
  CHECK(back[1024 + 7] == 0xBF81);  // -(1 + 7/512) -> -(1 + 1/128), where rounding gives 0xBF82
}

// ------------------------------------------------------------------ 2, 3: NINF and FP16 NaN
TEST_CASE("transform_origtensor of a tensor holding NINF returns ZDNN_CONVERT_FAILURE") {
  const float nan = NAN;
  for (uint32_t width : {3u, 64u, 130u}) {  // general path, full sticks (vectorised), mixed
    CAPTURE(width);
    Tensor t(ZDNN_2D, FP32, {2, width});
    std::vector<float> in(2 * width, 1.5f);
    in[width + 1] = nan;
    REQUIRE(zdnn_transform_ztensor_with_saturation(&t.z, in.data()) == ZDNN_ELEMENT_RANGE_VIOLATION);
    std::vector<float> back(in.size(), 0.0f);
    CHECK(zdnn_transform_origtensor(&t.z, back.data()) == 0x00100003);
    CHECK(std::isnan(back[width + 1]));
    CHECK(back[0] == 1.5f);
    CHECK(back.back() == 1.5f);
  }
  for (zdnn_data_types type : {FP16, BFLOAT}) {  // the element-wise path
    Tensor t(ZDNN_NCHW, FP32, {1, 2, 1, 1});
    const float in[2] = {INFINITY, 2.0f};
    REQUIRE(zdnn_transform_ztensor_with_saturation(&t.z, in) == ZDNN_ELEMENT_RANGE_VIOLATION);
    zdnn_tensor_desc pre = t.pre;
    pre.type = type;
    zdnn_ztensor view = t.z;
    view.pre_transformed_desc = &pre;
    uint16_t back[2] = {0, 0};
    CHECK(zdnn_transform_origtensor(&view, back) == ZDNN_CONVERT_FAILURE);
    CHECK(back[1] == 0x4000);  // 2.0, in binary16 and in bfloat16 alike
  }
}

TEST_CASE("saturating transform of FP16 NaN/Inf fails with ZDNN_CONVERT_FAILURE") {
  for (uint16_t special : {uint16_t(0x7C00), uint16_t(0xFC00), uint16_t(0x7E00), uint16_t(0xFE00)}) {
    CAPTURE(special);
    Tensor t(ZDNN_NHWC, FP16, {1, 1, 1, 4});
    const uint16_t in[4] = {0x3C00, special, 0x3C00, 0x3C00};
    CHECK(zdnn_transform_ztensor_with_saturation(&t.z, in) == ZDNN_CONVERT_FAILURE);
    CHECK_FALSE(t.z.is_transformed);
    uint16_t back[4];
    CHECK(zdnn_transform_origtensor(&t.z, back) == ZDNN_INVALID_STATE);
  }
  Tensor finite(ZDNN_NHWC, FP16, {1, 1, 1, 2});
  const uint16_t max_half[2] = {0x7BFF, 0xFBFF};
  CHECK(zdnn_transform_ztensor_with_saturation(&finite.z, max_half) == ZDNN_OK);
}

// ------------------------------------------------------------------ 6: limits of BINARY_INT32
TEST_CASE("BINARY_INT32 limits exist for INT32 only") {
  int32_t i32 = 0;
  int8_t i8 = 0;
  float f = 0;
  CHECK(zdnn_get_min_limit(ZDNN_BINARY_INT32, INT8, &i8) == ZDNN_INVALID_TYPE);
  CHECK(zdnn_get_max_limit(ZDNN_BINARY_INT32, INT8, &i8) == ZDNN_INVALID_TYPE);
  CHECK(zdnn_get_max_limit(ZDNN_BINARY_INT32, FP32, &f) == ZDNN_INVALID_TYPE);
  REQUIRE(zdnn_get_min_limit(ZDNN_BINARY_INT32, INT32, &i32) == ZDNN_OK);
  CHECK(i32 == INT32_MIN);
  REQUIRE(zdnn_get_max_limit(ZDNN_BINARY_INT32, INT32, &i32) == ZDNN_OK);
  CHECK(i32 == INT32_MAX);
  REQUIRE(zdnn_get_min_limit(ZDNN_BINARY_INT8, INT8, &i8) == ZDNN_OK);
  CHECK(i8 == -128);
}

// ------------------------------------------------------------------ 7: INT8 quantized transforms
TEST_CASE("INT8 data is copied as is: no clip range or non-zero scale needed") {
  const int8_t values[6] = {-128, 127, 0, 50, -7, 3};
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_2D, INT8, &pre, 2, 3);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_INT8, &tf) == ZDNN_OK);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_ztensor_with_malloc(&pre, &tf, &z) == ZDNN_OK);                // scale 0, offset 0
  CHECK(zdnn_transform_quantized_ztensor(&z, false, 10, -10, values) == ZDNN_OK);  // clip_min > clip_max
  CHECK(z.is_transformed);
  int8_t back[6] = {};
  REQUIRE(zdnn_transform_origtensor(&z, back) == ZDNN_OK);
  CHECK(std::memcmp(back, values, 6) == 0);  // not clipped to any range
  zdnn_free_ztensor_buffer(&z);

  zdnn_tensor_desc wpre, wtf;
  zdnn_init_pre_transformed_desc(ZDNN_2D, INT8, &wpre, 2, 3);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&wpre, QUANTIZED_WEIGHTS_INT8, &wtf) == ZDNN_OK);
  zdnn_ztensor w;
  REQUIRE(zdnn_init_ztensor_with_malloc(&wpre, &wtf, &w) == ZDNN_OK);
  CHECK(zdnn_transform_quantized_ztensor(&w, false, 0, 0, values) == ZDNN_OK);
  const auto* cells = static_cast<const int8_t*>(w.buffer);
  for (uint32_t row = 0; row < 2; ++row)
    for (uint32_t col = 0; col < 3; ++col) CHECK(cells[col * 2 + row] == values[row * 3 + col]);  // interleaved
  zdnn_free_ztensor_buffer(&w);

  // Floats are still quantized: there the clip range and the scale matter.
  zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &pre, 2, 3);
  REQUIRE(zdnn_generate_quantized_transformed_desc(&pre, QUANTIZED_INT8, &tf) == ZDNN_OK);
  REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&pre, &tf, 1.0f, 0.0f, &z) == ZDNN_OK);
  const float fl[6] = {1, 2, 3, 4, 5, 6};
  CHECK(zdnn_transform_quantized_ztensor(&z, false, 10, -10, fl) == ZDNN_INVALID_CLIPPING_VALUE);
  zdnn_free_ztensor_buffer(&z);
}

// ------------------------------------------------------------------ 4, 5: quantized matmul
namespace {

// y = a (1 x 1) * b (1 x 2) + c (2), every scale 1 except the output's (Sy), offsets as given.
struct QuantizedMatmul {
  zdnn_tensor_desc ap{}, at{}, bp{}, bt{}, cp{}, ct{}, op{}, ot{};
  zdnn_ztensor a{}, b{}, c{}, o{};
  QuantizedMatmul(bool on_the_fly, bool pre_computed, float a_value, std::vector<int8_t> b_values,
                  std::vector<float> c_values, float sy, float zb = 0.0f, float za = 0.0f) {
    zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &ap, 1, 1);
    zdnn_init_pre_transformed_desc(ZDNN_2D, INT8, &bp, 1, 2);
    zdnn_init_pre_transformed_desc(ZDNN_1D, FP32, &cp, 2);
    zdnn_init_pre_transformed_desc(ZDNN_2D, FP32, &op, 1, 2);
    REQUIRE(zdnn_generate_quantized_transformed_desc(&ap, on_the_fly ? QUANTIZED_DLFLOAT16 : QUANTIZED_INT8, &at) ==
            ZDNN_OK);
    REQUIRE(zdnn_generate_quantized_transformed_desc(&bp, QUANTIZED_WEIGHTS_INT8, &bt) == ZDNN_OK);
    REQUIRE(zdnn_generate_quantized_transformed_desc(&cp, pre_computed ? QUANTIZED_DLFLOAT16 : QUANTIZED_INT8, &ct) ==
            ZDNN_OK);
    REQUIRE(zdnn_generate_quantized_transformed_desc(&op, QUANTIZED_DLFLOAT16, &ot) == ZDNN_OK);
    REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&ap, &at, 1.0f, za, &a) == ZDNN_OK);
    REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&bp, &bt, 1.0f, zb, &b) == ZDNN_OK);
    REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&cp, &ct, 1.0f, 0.0f, &c) == ZDNN_OK);
    REQUIRE(zdnn_init_quantized_ztensor_with_malloc(&op, &ot, sy, 0.0f, &o) == ZDNN_OK);
    REQUIRE(zdnn_transform_quantized_ztensor(&a, false, -128, 127, &a_value) == ZDNN_OK);
    REQUIRE(zdnn_transform_quantized_ztensor(&b, false, -128, 127, b_values.data()) == ZDNN_OK);
    REQUIRE(zdnn_transform_quantized_ztensor(&c, false, -128, 127, c_values.data()) == ZDNN_OK);
  }
  ~QuantizedMatmul() {
    for (zdnn_ztensor* t : {&a, &b, &c, &o}) zdnn_free_ztensor_buffer(t);
  }
  std::vector<float> run(zdnn_status expected, bool disable_clipping, bool dequantize, bool pre_computed,
                         zdnn_matmul_ops op = MATMUL_OP_ADDITION) {
    o.is_transformed = false;
    REQUIRE(zdnn_quantized_matmul_op(&a, &b, &c, op, -128, 127, disable_clipping, dequantize, pre_computed, nullptr,
                                     &o) == expected);
    std::vector<float> y(2);
    if (expected == ZDNN_OK) REQUIRE(zdnn_transform_origtensor(&o, y.data()) == ZDNN_OK);
    return y;
  }
};

}  // namespace

TEST_CASE("quantized addition rounds and clips y_q unless clipping is disabled") {
  // y_q = (4 * b + c) / 4: 111 / 4 = 27.75 and 513 / 4 = 128.25 (above the clip maximum 127).
  for (bool on_the_fly : {false, true}) {
    CAPTURE(on_the_fly);
    for (int repeat = 0; repeat < 20; ++repeat) {  // deterministic, whatever the run
      QuantizedMatmul q(on_the_fly, false, 4.0f, {27, 127}, {3.0f, 5.0f}, 4.0f);
      CHECK(q.run(ZDNN_OK, false, false, false) == std::vector<float>{28.0f, 127.0f});
      CHECK(q.run(ZDNN_OK, true, false, false) == std::vector<float>{27.75f, 128.25f});
      CHECK(q.run(ZDNN_OK, false, true, false) == std::vector<float>{112.0f, 508.0f});  // Sy * (y_q - Zy)
      CHECK(q.run(ZDNN_OK, true, true, false) == std::vector<float>{111.0f, 513.0f});
    }
  }
  // Rounding is half to even: 26.5 / 1 -> 26 (a = 1, b = 26, c = 0.5 pre-computed).
  QuantizedMatmul half(true, true, 1.0f, {26, 27}, {0.5f, 0.5f}, 1.0f);
  CHECK(half.run(ZDNN_OK, false, false, true) == std::vector<float>{26.0f, 28.0f});
}

TEST_CASE("pre-computed quantized matmul needs input_b's offset to be zero") {
  QuantizedMatmul nonzero(false, true, 4.0f, {27, 127}, {3.0f, 5.0f}, 4.0f, /*zb=*/2.0f);
  nonzero.run(ZDNN_INVALID_OFFSET, false, false, true);
  CHECK(ZDNN_INVALID_OFFSET == 0x00040012);
  // Zb = 0 with a non-zero Za (a_q = 4 + 1 = 5): y_q = Sa*Sb/Sy * sum(a_q * b_q) + c, the Za terms
  // being part of the pre-computed c.
  QuantizedMatmul zero(false, true, 4.0f, {27, 127}, {3.0f, -40.0f}, 4.0f, 0.0f, /*za=*/1.0f);
  CHECK(zero.run(ZDNN_OK, true, false, true) == std::vector<float>{36.75f, 118.75f});  // 135/4 + 3, 635/4 - 40
  CHECK(zero.run(ZDNN_OK, false, false, true) == std::vector<float>{37.0f, 119.0f});
  // Comparisons in the pre-computed domain: sum(a_q * b_q) against c.
  CHECK(zero.run(ZDNN_OK, false, false, true, MATMUL_OP_GREATER) == std::vector<float>{1.0f, 1.0f});
  CHECK(zero.run(ZDNN_OK, false, false, true, MATMUL_OP_LESSER) == std::vector<float>{0.0f, 0.0f});
}

// ------------------------------------------------------------------ 8: bidirectional weights
TEST_CASE("bidirectional weights whose dim2 became odd after the descriptor was generated are rejected") {
  zdnn_tensor_desc pre, tf;
  zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &pre, 2, 6, 3);
  REQUIRE(zdnn_generate_transformed_desc_concatenated(&pre, RNN_TYPE_LSTM | PREV_LAYER_BIDIR | USAGE_WEIGHTS, &tf) ==
          ZDNN_OK);
  zdnn_ztensor z;
  REQUIRE(zdnn_init_ztensor_with_malloc(&pre, &tf, &z) == ZDNN_OK);
  const std::vector<float> gate(2 * 6 * 3, 0.25f);
  pre.dim2 = 5;
  CHECK(zdnn_transform_ztensor(&z, gate.data(), gate.data(), gate.data(), gate.data()) == ZDNN_INVALID_SHAPE);
  CHECK_FALSE(z.is_transformed);
  pre.dim2 = 6;
  CHECK(zdnn_transform_ztensor(&z, gate.data(), gate.data(), gate.data(), gate.data()) == ZDNN_OK);
  zdnn_free_ztensor_buffer(&z);
}

// ------------------------------------------------------------------ header
TEST_CASE("zdnn.h 1.2.0 constants and signatures") {
  static_assert(ZDNN_SOFTMAX_SAVEAREA_SIZE == 8192 && ZDNN_8K_SAVEAREA_SIZE == 8192, "save area sizes");
  static_assert(NNPA_REDUCE == 241 && NNPA_TRANSFORM == 240, "NNPA function codes");
  static_assert(NNPA_32_BIT_BINARY_FP_SHORT == 6 && NNPA_8_BIT_BINARY_INT == 8 && NNPA_32_BIT_BINARY_INT == 10,
                "nnpa_data_type");
  static_assert(NNPA_LAYOUTFMT_4DGENERIC == 31 && NNPA_BFPFMT_SHORT == 2, "layout and BFP formats");
  static_assert(MSB_BITMASK(16, 0) == 0x8000u && MSB_BITMASK(32, 31) == 1u, "MSB_BITMASK counts from the left");
  static_assert(unsigned(QUERY_DATATYPE_BINARY_FP32) == MSB_BITMASK(16, NNPA_32_BIT_BINARY_FP_SHORT) &&
                    unsigned(QUERY_DATATYPE_BINARY_INT32) == MSB_BITMASK(16, NNPA_32_BIT_BINARY_INT) &&
                    unsigned(QUERY_LAYOUTFMT_4DGENERIC) == MSB_BITMASK(32, NNPA_LAYOUTFMT_4DGENERIC) &&
                    unsigned(QUERY_BFPFMT_TINY) == MSB_BITMASK(16, NNPA_BFPFMT_TINY),
                "query bits");
  static_assert(std::is_same<decltype(&zdnn_getrange_ztensor), zdnn_status (*)(const zdnn_ztensor*, float*, float*)>(),
                "zdnn_getrange_ztensor returns zdnn_status");
  static_assert(
      std::is_same<decltype(&zdnn_norm), zdnn_status (*)(const zdnn_ztensor*, const zdnn_ztensor*, zdnn_ztensor*)>(),
      "zdnn_norm takes a const second input");
  CHECK(zdnn_is_nnpa_function_installed(2, NNPA_REDUCE, NNPA_TRANSFORM));
  CHECK(zdnn_is_nnpa_datatype_installed(QUERY_DATATYPE_INTERNAL1 | QUERY_DATATYPE_BINARY_FP32 |
                                        QUERY_DATATYPE_BINARY_INT8 | QUERY_DATATYPE_BINARY_INT32));
  CHECK(zdnn_is_nnpa_conversion_installed(NNPA_DATATYPE_1, QUERY_BFPFMT_TINY | QUERY_BFPFMT_SHORT));

  Tensor t(ZDNN_3DS, FP32, {1, 1, 3});
  float lo = 1, hi = -1;
  CHECK(zdnn_getrange_ztensor(&t.z, &lo, &hi) == ZDNN_INVALID_STATE);
  REQUIRE(t.load({-2.5f, 0.5f, 7.0f}) == ZDNN_OK);
  CHECK(zdnn_getrange_ztensor(&t.z, &lo, &hi) == ZDNN_OK);
  CHECK(lo == -2.5f);
  CHECK(hi == 7.0f);

  Tensor y(ZDNN_3DS, FP32, {1, 1, 3});
  AlignedArea save(ZDNN_SOFTMAX_SAVEAREA_SIZE);
  REQUIRE(zdnn_softmax(&t.z, save.p, SOFTMAX_ACT_NONE, &y.z) == ZDNN_OK);
  const auto p = y.read();
  const double sum = std::exp(-2.5) + std::exp(0.5) + std::exp(7.0);
  ztest::check_close(p, {float(std::exp(-2.5) / sum), float(std::exp(0.5) / sum), float(std::exp(7.0) / sum)});
}

// ------------------------------------------------------------------ LSTM/GRU work_area
TEST_CASE("LSTM and GRU leave the caller's work_area untouched and compute the same results") {
  const uint32_t T = 2, B = 1, F = 2, S = 3;
  for (bool lstm : {true, false}) {
    CAPTURE(lstm);
    const zdnn_concat_info type = lstm ? RNN_TYPE_LSTM : RNN_TYPE_GRU;
    const uint32_t G = lstm ? 4 : 3;
    Tensor x(ZDNN_3DS, FP32, {T, B, F}), h0(ZDNN_3DS, FP32, {1, B, S}), c0(ZDNN_3DS, FP32, {1, B, S});
    REQUIRE(x.load(ztest::cleansed(ztest::random_values(T * B * F, -1, 1, 5))) == ZDNN_OK);
    REQUIRE(h0.load(ztest::cleansed(ztest::random_values(B * S, -1, 1, 6))) == ZDNN_OK);
    REQUIRE(c0.load(ztest::cleansed(ztest::random_values(B * S, -1, 1, 7))) == ZDNN_OK);
    struct Gate {
      zdnn_tensor_desc pre{}, tf{};
      zdnn_ztensor z{};
      ~Gate() { zdnn_free_ztensor_buffer(&z); }
    } w, wb, r, rb;
    auto make = [&](Gate& g, bool bias, uint32_t rows, zdnn_concat_info usage, unsigned seed) {
      if (bias)
        zdnn_init_pre_transformed_desc(ZDNN_2DS, FP32, &g.pre, 1, S);
      else
        zdnn_init_pre_transformed_desc(ZDNN_3DS, FP32, &g.pre, 1, rows, S);
      REQUIRE(zdnn_generate_transformed_desc_concatenated(&g.pre, type | usage, &g.tf) == ZDNN_OK);
      REQUIRE(zdnn_init_ztensor_with_malloc(&g.pre, &g.tf, &g.z) == ZDNN_OK);
      const auto v = ztest::cleansed(ztest::random_values(rows * S, -0.5f, 0.5f, seed));
      const zdnn_status s = G == 4 ? zdnn_transform_ztensor(&g.z, v.data(), v.data(), v.data(), v.data())
                                   : zdnn_transform_ztensor(&g.z, v.data(), v.data(), v.data());
      REQUIRE(s == ZDNN_OK);
    };
    make(w, false, F, USAGE_WEIGHTS, 11);
    make(wb, true, 1, USAGE_BIASES, 12);
    make(r, false, S, USAGE_HIDDEN_WEIGHTS, 13);
    make(rb, true, 1, USAGE_HIDDEN_BIASES, 14);
    zdnn_tensor_desc work_desc{ZDNN_NHWC, ZDNN_FORMAT_4DFEATURE, ZDNN_DLFLOAT16, 4 * T + 6, 1, B, S};
    AlignedArea work(zdnn_getsize_ztensor(&work_desc));
    std::memset(work.p, 0xA5, work.bytes);
    auto run = [&](void* area) {
      Tensor hn(ZDNN_4DS, FP32, {T, 1, B, S}), cf(ZDNN_4DS, FP32, {1, 1, B, S});
      const zdnn_status s = lstm ? zdnn_lstm(&x.z, &h0.z, &c0.z, &w.z, &wb.z, &r.z, &rb.z, FWD, area, &hn.z, &cf.z)
                                 : zdnn_gru(&x.z, &h0.z, &w.z, &wb.z, &r.z, &rb.z, FWD, area, &hn.z);
      REQUIRE(s == ZDNN_OK);
      return hn.read();
    };
    const auto with_area = run(work.p), without = run(nullptr);
    CHECK(with_area == without);
    const auto* bytes = static_cast<const unsigned char*>(work.p);
    CHECK(std::all_of(bytes, bytes + work.bytes, [](unsigned char b) { return b == 0xA5; }));
  }
}
