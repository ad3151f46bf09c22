// Activations: relu, leaky_relu, tanh, sigmoid, gelu, softmax and softmax_mask.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "op_support.hpp"

using namespace tessera::zdnn;

namespace {

// Reads an optional clipping value: NULL or 0 means none; negative or NaN is invalid.
bool read_clip(const void* clipping_value, float& clip) {
  clip = 0.0f;
  if (!clipping_value) return true;
  std::memcpy(&clip, clipping_value, sizeof clip);
  return !(clip < 0.0f) && !std::isnan(clip);
}

zdnn_status softmax_impl(const char* where, const zdnn_ztensor* input, void* save_area, zdnn_softmax_act act,
                         uint32_t mask, zdnn_ztensor* output) {
  if (zdnn_status s = check_same_shape({input, output}); s != ZDNN_OK) return report(s, where);
  if (misaligned(save_area)) return report(ZDNN_MISALIGNED_SAVEAREA, where);
  const zdnn_tensor_desc& d = *input->transformed_desc;
  if (d.dim3 != 1) return report(ZDNN_FUNC_RC_F000, where, "dim3 must be 1");
  if (act != SOFTMAX_ACT_NONE && act != SOFTMAX_ACT_LOG) return report(ZDNN_FUNC_RC_F001, where, "invalid act_func");
  if (mask > d.dim1) return report(ZDNN_FUNC_RC_F002, where, "softmax_mask exceeds dim1");
  const uint32_t count = mask == 0 ? d.dim1 : mask;
  DenseTensor x = load_dense(*input);
  for (size_t row = 0; row < static_cast<size_t>(d.dim4) * d.dim2; ++row) {
    float* v = x.data.data() + row * d.dim1;
    float largest = -INFINITY;
    for (uint32_t i = 0; i < count; ++i) largest = std::max(largest, v[i]);
    float sum = 0.0f;
    for (uint32_t i = 0; i < count; ++i) sum += std::exp(v[i] - largest);
    const float log_sum = std::log(sum);
    for (uint32_t i = 0; i < count; ++i)
      v[i] = act == SOFTMAX_ACT_LOG ? (v[i] - largest - log_sum) : std::exp(v[i] - largest) / sum;
    for (uint32_t i = count; i < d.dim1; ++i) v[i] = 0.0f;
  }
  return finish(output, x, where);
}

}  // namespace

extern "C" {

zdnn_status zdnn_relu(const zdnn_ztensor* input, const void* clipping_value, zdnn_ztensor* output) {
  float clip;
  if (!read_clip(clipping_value, clip)) return report(ZDNN_INVALID_CLIPPING_VALUE, "zdnn_relu");
  // NINF (NaN or infinity) in gives NINF out, as for every other activation: max(0, NaN) is NaN.
  return unary_map("zdnn_relu", input, output, [clip](float x) {
    const float y = (x > 0.0f || std::isnan(x)) ? x : 0.0f;
    return (clip > 0.0f && y > clip) ? clip : y;
  });
}

zdnn_status zdnn_leaky_relu(const zdnn_ztensor* input, const void* clipping_value, float adjustment_factor,
                            zdnn_ztensor* output) {
  float clip;
  if (!read_clip(clipping_value, clip)) return report(ZDNN_INVALID_CLIPPING_VALUE, "zdnn_leaky_relu");
  if (!(adjustment_factor >= 0.0f && adjustment_factor <= 1.0f))
    return report(ZDNN_INVALID_ADJUSTMENT_FACTOR, "zdnn_leaky_relu");
  return unary_map("zdnn_leaky_relu", input, output, [clip, adjustment_factor](float x) {
    const float y = x < 0.0f ? adjustment_factor * x : x;
    return (clip > 0.0f && y > clip) ? clip : y;
  });
}

zdnn_status zdnn_tanh(const zdnn_ztensor* input, zdnn_ztensor* output) {
  return unary_map("zdnn_tanh", input, output, [](float x) { return std::tanh(x); });
}

zdnn_status zdnn_sigmoid(const zdnn_ztensor* input, zdnn_ztensor* output) {
  return unary_map("zdnn_sigmoid", input, output, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
}

zdnn_status zdnn_gelu(const zdnn_ztensor* input, zdnn_ztensor* output) {
  return unary_map("zdnn_gelu", input, output, [](float x) {
    return 0.5f * x * (1.0f + std::tanh(x * 0.7978845608f * (1.0f + 0.044715f * x * x)));
  });
}

zdnn_status zdnn_softmax(const zdnn_ztensor* input, void* save_area, zdnn_softmax_act act_func, zdnn_ztensor* output) {
  return guarded("zdnn_softmax", [&] { return softmax_impl("zdnn_softmax", input, save_area, act_func, 0, output); });
}

zdnn_status zdnn_softmax_mask(const zdnn_ztensor* input, void* save_area, zdnn_softmax_act act_func,
                              uint32_t softmax_mask, zdnn_ztensor* output) {
  return guarded("zdnn_softmax_mask",
                 [&] { return softmax_impl("zdnn_softmax_mask", input, save_area, act_func, softmax_mask, output); });
}

}  // extern "C"
