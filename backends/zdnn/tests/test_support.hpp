// Test helpers: an owning ztensor wrapper, random data, DLFLOAT16 cleansing and comparisons
// (2^-10 relative or a few DLFLOAT16 ulps, as the notes prescribe).
#pragma once

#include <doctest/doctest.h>
#include <zdnn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <random>
#include <vector>

namespace ztest {

// Independent scalar FP32 -> DLFLOAT16 -> FP32 (written separately from the library's).
inline float cleanse(float x) {
  if (std::isnan(x) || std::isinf(x)) return NAN;
  const double a = std::fabs(x);
  if (a == 0.0) return x;
  int e = 0;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  double scaled = m * 1024.0;          // 10 significant bits (1 implicit + 9)
  scaled = std::floor(scaled + 0.5);   // ties away from zero on the magnitude
  double r = scaled / 1024.0 * std::ldexp(1.0, e);
  if (r > 8573157376.0) return NAN;
  // 0x0000 (e = 0, m = 0) is zero, so magnitudes rounding to 2^-31 or below flush to zero.
  if (r <= std::ldexp(1.0, -31)) return std::signbit(x) ? -0.0f : 0.0f;
  return static_cast<float>(std::signbit(x) ? -r : r);
}

struct Tensor {
  zdnn_tensor_desc pre{}, tf{};
  zdnn_ztensor z{};
  zdnn_status alloc_status = ZDNN_OK;
  Tensor(zdnn_data_layouts layout, zdnn_data_types type, std::initializer_list<uint32_t> dims) {
    auto d = std::vector<uint32_t>(dims);
    switch (d.size()) {
    case 1: zdnn_init_pre_transformed_desc(layout, type, &pre, d[0]); break;
    case 2: zdnn_init_pre_transformed_desc(layout, type, &pre, d[0], d[1]); break;
    case 3: zdnn_init_pre_transformed_desc(layout, type, &pre, d[0], d[1], d[2]); break;
    default: zdnn_init_pre_transformed_desc(layout, type, &pre, d[0], d[1], d[2], d[3]); break;
    }
    REQUIRE(zdnn_generate_transformed_desc(&pre, &tf) == ZDNN_OK);
    alloc_status = zdnn_init_ztensor_with_malloc(&pre, &tf, &z);
    REQUIRE(alloc_status == ZDNN_OK);
  }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor() {
    if (z.buffer) zdnn_free_ztensor_buffer(&z);
  }
  size_t elements() const {
    switch (pre.layout) {
    case ZDNN_1D: return pre.dim1;
    case ZDNN_2D:
    case ZDNN_2DS: return size_t(pre.dim2) * pre.dim1;
    case ZDNN_3D:
    case ZDNN_3DS: return size_t(pre.dim3) * pre.dim2 * pre.dim1;
    default: return size_t(pre.dim4) * pre.dim3 * pre.dim2 * pre.dim1;
    }
  }
  zdnn_status load(const std::vector<float>& values) { return zdnn_transform_ztensor(&z, values.data()); }
  std::vector<float> read() const {
    std::vector<float> out(elements());
    REQUIRE(zdnn_transform_origtensor(&z, out.data()) == ZDNN_OK);
    return out;
  }
  // Like read(), for results that may hold NINF: those read back as NaN and the call then reports
  // ZDNN_CONVERT_FAILURE.
  std::vector<float> read_allowing_ninf() const {
    std::vector<float> out(elements());
    const zdnn_status s = zdnn_transform_origtensor(&z, out.data());
    const bool any_ninf = std::any_of(out.begin(), out.end(), [](float v) { return std::isnan(v); });
    REQUIRE(s == (any_ninf ? ZDNN_CONVERT_FAILURE : ZDNN_OK));
    return out;
  }
};

inline std::vector<float> random_values(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

inline std::vector<float> cleansed(std::vector<float> v) {
  for (float& x : v) x = cleanse(x);
  return v;
}

// Compares after cleansing the expectation: |got - want| <= max(2^-10 |want|, ulps DLFLOAT16 ulps).
inline void check_close(const std::vector<float>& got, const std::vector<float>& want, float ulps = 4,
                        float abs_floor = 1e-6f) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const float w = cleanse(want[i]);
    const float ulp = std::fabs(w) == 0.0f ? abs_floor : std::ldexp(1.0f, std::ilogb(w) - 9);
    const float tol = std::max({std::fabs(w) * 0.0009765625f, ulps * ulp, abs_floor});
    if (!(std::fabs(got[i] - w) <= tol)) {
      INFO("index " << i << ": got " << got[i] << " want " << w);
      CHECK(std::fabs(got[i] - w) <= tol);
      return;
    }
  }
}

}  // namespace ztest
