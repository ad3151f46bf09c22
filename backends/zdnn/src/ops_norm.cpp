// Normalisations: meanreduce2d, batchnorm, norm, moments, layernorm.
#include <cmath>

#include "op_support.hpp"

using namespace tessera::zdnn;

extern "C" {

zdnn_status zdnn_meanreduce2d(const zdnn_ztensor* input, zdnn_ztensor* output) {
  static constexpr const char* where = "zdnn_meanreduce2d";
  return guarded(where, [&]() -> zdnn_status {
    if (zdnn_status s = check_operands({input, output}); s != ZDNN_OK) return report(s, where);
    const zdnn_tensor_desc& d = *input->transformed_desc;
    if (!has_dims(output, d.dim4, 1, 1, d.dim1)) return report(ZDNN_INVALID_SHAPE, where);
    if (d.dim3 > 1024 || d.dim2 > 1024) return report(ZDNN_FUNC_RC_F001, where, "height/width above 1024");
    const DenseTensor x = load_dense(*input);
    DenseTensor y(d.dim4, 1, 1, d.dim1);
    const float inv = 1.0f / static_cast<float>(d.dim3 * d.dim2);
    for (uint32_t n = 0; n < d.dim4; ++n)
      for (uint32_t c = 0; c < d.dim1; ++c) {
        float sum = 0.0f;
        for (uint32_t h = 0; h < d.dim3; ++h)
          for (uint32_t w = 0; w < d.dim2; ++w) sum += x.at(n, h, w, c);
        y.at(n, 0, 0, c) = sum * inv;
      }
    return finish(output, y, where);
  });
}

zdnn_status zdnn_batchnorm(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c, zdnn_ztensor* out) {
  static constexpr const char* where = "zdnn_batchnorm";
  return guarded(where, [&]() -> zdnn_status {
    if (zdnn_status s = check_operands({a, b, c, out}); s != ZDNN_OK) return report(s, where);
    const zdnn_tensor_desc& d = *a->transformed_desc;
    if (!same_dims(d, *out->transformed_desc) || !has_dims(b, 1, 1, 1, d.dim1) || !has_dims(c, 1, 1, 1, d.dim1))
      return report(ZDNN_INVALID_SHAPE, where);
    DenseTensor x = load_dense(*a);
    const DenseTensor scale = load_dense(*b), bias = load_dense(*c);
    for (size_t i = 0; i < x.data.size(); ++i) {
      const size_t ch = i % d.dim1;
      x.data[i] = x.data[i] * scale.data[ch] + bias.data[ch];
    }
    return finish(out, x, where);
  });
}

zdnn_status zdnn_norm(const zdnn_ztensor* a, const zdnn_ztensor* b, zdnn_ztensor* out) {
  static constexpr const char* where = "zdnn_norm";
  return guarded(where, [&]() -> zdnn_status {
    if (zdnn_status s = check_same_shape({a, b}); s != ZDNN_OK) return report(s, where);
    if (zdnn_status s = check_operands({out}); s != ZDNN_OK) return report(s, where);
    const zdnn_tensor_desc& d = *a->transformed_desc;
    if (!has_dims(out, d.dim4, d.dim3, d.dim2, 1)) return report(ZDNN_INVALID_SHAPE, where);
    const DenseTensor x = load_dense(*a), y = load_dense(*b);
    DenseTensor r(d.dim4, d.dim3, d.dim2, 1);
    for (size_t row = 0; row < r.data.size(); ++row) {
      float sum = 0.0f;
      for (uint32_t i = 0; i < d.dim1; ++i) {
        const float diff = y.data[row * d.dim1 + i] - x.data[row * d.dim1 + i];
        sum += diff * diff;
      }
      r.data[row] = std::sqrt(sum);
    }
    return finish(out, r, where);
  });
}

zdnn_status zdnn_moments(const zdnn_ztensor* input, zdnn_moments_bessel bessel, zdnn_ztensor* mean_out,
                         zdnn_ztensor* variance_out) {
  static constexpr const char* where = "zdnn_moments";
  return guarded(where, [&]() -> zdnn_status {
    if (zdnn_status s = check_operands({input, mean_out, variance_out}); s != ZDNN_OK) return report(s, where);
    if (bessel != MOMENTS_BESSEL_POPULATION && bessel != MOMENTS_BESSEL_SAMPLE)
      return report(ZDNN_INVALID_BESSEL_CORRECTION, where);
    const zdnn_tensor_desc& d = *input->transformed_desc;
    if (!has_dims(mean_out, d.dim4, 1, 1, 1) || !has_dims(variance_out, d.dim4, 1, 1, 1))
      return report(ZDNN_INVALID_SHAPE, where);
    const uint64_t count = static_cast<uint64_t>(d.dim3) * d.dim2 * d.dim1;
    if (bessel == MOMENTS_BESSEL_SAMPLE && count == 1) return report(ZDNN_INVALID_SHAPE, where, "sample of one");
    const DenseTensor x = load_dense(*input);
    DenseTensor mean(d.dim4, 1, 1, 1), variance(d.dim4, 1, 1, 1);
    for (uint32_t n = 0; n < d.dim4; ++n) {
      const float* v = x.data.data() + n * count;
      double sum = 0.0;
      for (uint64_t i = 0; i < count; ++i) sum += v[i];
      const double m = sum / static_cast<double>(count);
      double sq = 0.0;
      for (uint64_t i = 0; i < count; ++i) sq += (v[i] - m) * (v[i] - m);
      mean.data[n] = static_cast<float>(m);
      variance.data[n] =
          static_cast<float>(sq / static_cast<double>(bessel == MOMENTS_BESSEL_SAMPLE ? count - 1 : count));
    }
    const zdnn_status s1 = finish(mean_out, mean, where);
    const zdnn_status s2 = finish(variance_out, variance, where);
    return s1 != ZDNN_OK ? s1 : s2;
  });
}

zdnn_status zdnn_layernorm(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c, float beta, float gamma,
                           float epsilon, zdnn_ztensor* out) {
  static constexpr const char* where = "zdnn_layernorm";
  return guarded(where, [&]() -> zdnn_status {
    if (zdnn_status s = check_operands({a, b, c, out}); s != ZDNN_OK) return report(s, where);
    const zdnn_tensor_desc& d = *a->transformed_desc;
    if (!same_dims(d, *out->transformed_desc) || !has_dims(b, d.dim4, 1, 1, 1) || !has_dims(c, d.dim4, 1, 1, 1))
      return report(ZDNN_INVALID_SHAPE, where);
    if (!std::isfinite(beta)) return report(ZDNN_INVALID_BETA, where);
    if (!std::isfinite(gamma)) return report(ZDNN_INVALID_GAMMA, where);
    if (!std::isfinite(epsilon)) return report(ZDNN_INVALID_EPSILON, where);
    DenseTensor x = load_dense(*a);
    const DenseTensor mean = load_dense(*b), variance = load_dense(*c);
    const size_t per_n = x.data.size() / d.dim4;
    for (size_t i = 0; i < x.data.size(); ++i) {
      const size_t n = i / per_n;
      x.data[i] = (x.data[i] - mean.data[n]) / std::sqrt(variance.data[n] + epsilon) * gamma + beta;
    }
    return finish(out, x, where);
  });
}

}  // extern "C"
