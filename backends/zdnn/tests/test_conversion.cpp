// DLFLOAT16 conversion edge values through the public transform API (ties away from zero,
// overflow, underflow, NaN/Inf, saturation) and FP16/BFLOAT sources.
#include "test_support.hpp"

using ztest::Tensor;

namespace {

// Transforms one FP32 value in a 1D tensor and returns (status, first cell).
std::pair<zdnn_status, uint16_t> convert(float value, bool saturate = false) {
  Tensor t(ZDNN_1D, FP32, {1});
  const zdnn_status s =
      saturate ? zdnn_transform_ztensor_with_saturation(&t.z, &value) : zdnn_transform_ztensor(&t.z, &value);
  uint16_t cell;
  std::memcpy(&cell, t.z.buffer, 2);
  return {s, cell};
}

}  // namespace

TEST_CASE("fp32 to dlfloat16: values from the notes") {
  CHECK(convert(65504.0f).second == 0x5E00);
  CHECK(convert(3.14159f).second == 0x4124);
  CHECK(convert(1.0f + 1.0f / 1024).second == 0x3E01);  // tie rounds away from zero
  CHECK(convert(-(1.0f + 1.0f / 1024)).second == 0xBE01);
  CHECK(convert(1.0f).second == 0x3E00);
  CHECK(convert(0.0f).second == 0x0000);
  CHECK(convert(-0.0f).second == 0x8000);
  CHECK(convert(8573157376.0f).second == 0x7FFE);
  CHECK(convert(std::ldexp(1.0f, -31) * (1.0f + 1.0f / 512)).second == 0x0001);
}

TEST_CASE("fp32 to dlfloat16: just below a tie rounds down") {
  CHECK(convert(std::nextafter(1.0f + 1.0f / 1024, 0.0f)).second == 0x3E00);
  CHECK(convert(1.0f + 3.0f / 1024).second == 0x3E02);  // 1.5 ulp tie -> away (up)
}

TEST_CASE("fp32 to dlfloat16: underflow gives signed zero, status OK") {
  auto [s, cell] = convert(std::ldexp(1.0f, -40));
  CHECK(s == ZDNN_OK);
  CHECK(cell == 0x0000);
  CHECK(convert(-std::ldexp(1.0f, -40)).second == 0x8000);
}

TEST_CASE("fp32 to dlfloat16: overflow, inf and NaN fail the transform") {
  for (float v : {1e10f, -1e10f, INFINITY, -INFINITY, NAN}) {
    Tensor t(ZDNN_1D, FP32, {3});
    const float data[3] = {1.0f, v, 2.0f};
    CHECK(zdnn_transform_ztensor(&t.z, data) == ZDNN_CONVERT_FAILURE);
    CHECK_FALSE(t.z.is_transformed);
  }
}

TEST_CASE("saturation clamps finite values and warns for NaN/Inf") {
  auto [s, cell] = convert(1e12f, true);
  CHECK(s == ZDNN_OK);
  CHECK(cell == 0x7FFE);
  CHECK(convert(-1e12f, true).second == 0xFFFE);
  auto [s2, cell2] = convert(NAN, true);
  CHECK(s2 == ZDNN_ELEMENT_RANGE_VIOLATION);
  CHECK((cell2 & 0x7FFF) == 0x7FFF);
  Tensor t(ZDNN_1D, FP32, {1});
  const float inf = INFINITY;
  CHECK(zdnn_transform_ztensor_with_saturation(&t.z, &inf) == ZDNN_ELEMENT_RANGE_VIOLATION);
  CHECK(t.z.is_transformed);
}

TEST_CASE("dlfloat16 to fp32 is exact and NINF becomes NaN") {
  Tensor t(ZDNN_1D, FP32, {4});
  const std::vector<float> in = {1.5f, -2.25f, 8573157376.0f, 0.0f};
  REQUIRE(t.load(in) == ZDNN_OK);
  uint16_t ninf = 0x7FFF;
  std::memcpy(static_cast<char*>(t.z.buffer) + 6, &ninf, 2);
  const auto out = t.read_allowing_ninf();
  CHECK(out[0] == 1.5f);
  CHECK(out[1] == -2.25f);
  CHECK(out[2] == 8573157376.0f);
  CHECK(std::isnan(out[3]));
}

TEST_CASE("FP16 and BFLOAT sources and destinations") {
  Tensor h(ZDNN_1D, FP16, {3});
  const uint16_t half[3] = {0x3C00 /*1*/, 0xC000 /*-2*/, 0x3555 /*~0.333*/};
  REQUIRE(zdnn_transform_ztensor(&h.z, half) == ZDNN_OK);
  uint16_t back[3];
  REQUIRE(zdnn_transform_origtensor(&h.z, back) == ZDNN_OK);
  CHECK(back[0] == 0x3C00);
  CHECK(back[1] == 0xC000);
  CHECK(std::abs(int(back[2]) - 0x3555) <= 2);  // 9-bit fraction keeps ~0.333 within 2 half ulps

  Tensor b(ZDNN_1D, BFLOAT, {2});
  const uint16_t bf[2] = {0x3F80 /*1*/, 0x4049 /*3.140625*/};
  REQUIRE(zdnn_transform_ztensor(&b.z, bf) == ZDNN_OK);
  uint16_t bback[2];
  REQUIRE(zdnn_transform_origtensor(&b.z, bback) == ZDNN_OK);
  CHECK(bback[0] == 0x3F80);
  CHECK(bback[1] == 0x4049);
}

TEST_CASE("independent cleanse matches the library on random values") {
  const auto values = ztest::random_values(4096, -1000.0f, 1000.0f, 7);
  Tensor t(ZDNN_2D, FP32, {64, 64});
  REQUIRE(t.load(values) == ZDNN_OK);
  const auto out = t.read();
  for (size_t i = 0; i < values.size(); ++i) REQUIRE(out[i] == ztest::cleanse(values[i]));
}

TEST_CASE("full-stick (vectorised) conversion path agrees on edge values") {
  std::vector<float> v(2 * 64);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = std::ldexp(1.0f + float(i % 7) / 1024.0f, int(i % 64) - 32);  // 2^-32 .. 2^31
  v[3] = 1.0f + 1.0f / 1024;                                             // tie
  v[4] = -(1.0f + 3.0f / 1024);                                          // tie, negative
  v[5] = std::ldexp(1.0f, -40);                                          // underflow
  v[6] = 8573157376.0f;                                                  // largest finite
  v[7] = 0.0f;
  v[8] = -0.0f;
  Tensor t(ZDNN_2D, FP32, {2, 64});
  REQUIRE(t.load(v) == ZDNN_OK);
  const auto back = t.read();
  for (size_t i = 0; i < v.size(); ++i) {
    INFO(i);
    REQUIRE(back[i] == ztest::cleanse(v[i]));
    REQUIRE(std::signbit(back[i]) == std::signbit(ztest::cleanse(v[i])));
  }
  for (float bad : {1e10f, -INFINITY, NAN}) {
    Tensor u(ZDNN_2D, FP32, {1, 64});
    std::vector<float> w(64, 1.0f);
    w[17] = bad;
    CHECK(u.load(w) == ZDNN_CONVERT_FAILURE);
    zdnn_reset_ztensor(&u.z);
    CHECK(zdnn_transform_ztensor_with_saturation(&u.z, w.data()) ==
          (std::isfinite(bad) ? ZDNN_OK : ZDNN_ELEMENT_RANGE_VIOLATION));
    const auto r = u.read_allowing_ninf();
    if (std::isfinite(bad))
      CHECK(r[17] == 8573157376.0f);
    else
      CHECK(std::isnan(r[17]));
    CHECK(r[16] == 1.0f);
  }
}

TEST_CASE("values rounding to 2^-31 encode as 0x0000, i.e. zero, the next one up is 0x0001") {
  CHECK(convert(std::ldexp(1.0f, -31)).second == 0x0000);
  CHECK(convert(std::ldexp(1.0f + 1.0f / 1024, -31)).second == 0x0001);  // tie rounds up
  CHECK(convert(-std::ldexp(1.0f, -31)).second == 0x8000);
}

TEST_CASE("untransform to FP16 fails for values beyond binary16, BFLOAT keeps them") {
  Tensor t(ZDNN_1D, FP16, {2});
  const uint16_t half[2] = {0x7BFF /*65504*/, 0x3C00};
  REQUIRE(zdnn_transform_ztensor(&t.z, half) == ZDNN_OK);  // 65504 rounds up to 65536 in DLFLOAT16
  uint16_t back[2];
  CHECK(zdnn_transform_origtensor(&t.z, back) == ZDNN_CONVERT_FAILURE);
  CHECK(back[0] == 0x7C00);  // +inf
  zdnn_tensor_desc bf_pre = t.pre;
  bf_pre.type = BFLOAT;
  zdnn_ztensor as_bf = t.z;
  as_bf.pre_transformed_desc = &bf_pre;
  REQUIRE(zdnn_transform_origtensor(&as_bf, back) == ZDNN_OK);
  CHECK(back[0] == 0x4780);  // 65536 in bfloat16
}
