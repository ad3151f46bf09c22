// avgpool2d / maxpool2d over NHWC tensors with VALID or SAME (TensorFlow-style) padding.
#include <algorithm>
#include <cmath>

#include "op_support.hpp"
#include "window_geometry.hpp"

using namespace tessera::zdnn;

namespace {

zdnn_status pool(const char* where, bool average, const zdnn_ztensor* input, zdnn_pool_padding padding, uint32_t kh,
                 uint32_t kw, uint32_t sh, uint32_t sw, zdnn_ztensor* output) {
  if (zdnn_status s = check_operands({input, output}); s != ZDNN_OK) return report(s, where);
  const zdnn_tensor_desc& in = *input->transformed_desc;
  const zdnn_tensor_desc& out = *output->transformed_desc;
  if (padding != VALID_PADDING && padding != SAME_PADDING) return report(ZDNN_FUNC_RC_F000, where, "padding_type");
  if ((sh == 0) != (sw == 0)) return report(ZDNN_INVALID_STRIDES, where);
  if (kh == 0 || kw == 0 || kh > kMaxDimIndexSize || kw > kMaxDimIndexSize || sh > kMaxDimIndexSize ||
      sw > kMaxDimIndexSize)
    return report(ZDNN_EXCEEDS_MDIS, where);
  if (in.dim4 != out.dim4 || in.dim1 != out.dim1) return report(ZDNN_INVALID_SHAPE, where);
  if (sh == 0) {
    if (padding != VALID_PADDING) return report(ZDNN_INVALID_STRIDE_PADDING, where);
    if (kh > 1024 || kw > 1024) return report(ZDNN_FUNC_RC_F001, where);
    if (in.dim3 != kh || in.dim2 != kw) return report(ZDNN_INVALID_SHAPE, where);
  } else {
    if (kh > 64 || kw > 64) return report(ZDNN_FUNC_RC_F002, where);
    if (sh > 30 || sw > 30) return report(ZDNN_FUNC_RC_F003, where);
    if (in.dim3 > 1024 || in.dim2 > 1024) return report(ZDNN_FUNC_RC_F004, where);
    if (padding == VALID_PADDING && (in.dim3 < kh || in.dim2 < kw)) return report(ZDNN_INVALID_SHAPE, where);
  }
  const WindowAxis rows = window_axis(in.dim3, kh, sh, padding), cols = window_axis(in.dim2, kw, sw, padding);
  const uint32_t oh = rows.out, ow = cols.out;
  if (out.dim3 != oh || out.dim2 != ow) return report(ZDNN_INVALID_SHAPE, where);
  const DenseTensor x = load_dense(*input);
  DenseTensor y(out.dim4, oh, ow, out.dim1);
  for (uint32_t n = 0; n < in.dim4; ++n)
    for (uint32_t i = 0; i < oh; ++i)
      for (uint32_t j = 0; j < ow; ++j) {
        const int64_t h0 = rows.input_index(i, 0), w0 = cols.input_index(j, 0);
        const int64_t h1 = std::min<int64_t>(h0 + kh, in.dim3), w1 = std::min<int64_t>(w0 + kw, in.dim2);
        const int64_t hs = std::max<int64_t>(h0, 0), ws = std::max<int64_t>(w0, 0);
        const float count = static_cast<float>((h1 - hs) * (w1 - ws));
        for (uint32_t c = 0; c < in.dim1; ++c) {
          float acc = average ? 0.0f : -INFINITY;
          for (int64_t h = hs; h < h1; ++h)
            for (int64_t w = ws; w < w1; ++w) {
              const float v = x.at(n, static_cast<uint32_t>(h), static_cast<uint32_t>(w), c);
              acc = average ? acc + v : std::max(acc, v);
            }
          y.at(n, i, j, c) = average ? acc / count : acc;
        }
      }
  return finish(output, y, where);
}

}  // namespace

extern "C" {

zdnn_status zdnn_avgpool2d(const zdnn_ztensor* input, zdnn_pool_padding padding_type, uint32_t kernel_height,
                           uint32_t kernel_width, uint32_t stride_height, uint32_t stride_width, zdnn_ztensor* output) {
  return guarded("zdnn_avgpool2d", [&] {
    return pool("zdnn_avgpool2d", true, input, padding_type, kernel_height, kernel_width, stride_height, stride_width,
                output);
  });
}

zdnn_status zdnn_maxpool2d(const zdnn_ztensor* input, zdnn_pool_padding padding_type, uint32_t kernel_height,
                           uint32_t kernel_width, uint32_t stride_height, uint32_t stride_width, zdnn_ztensor* output) {
  return guarded("zdnn_maxpool2d", [&] {
    return pool("zdnn_maxpool2d", false, input, padding_type, kernel_height, kernel_width, stride_height, stride_width,
                output);
  });
}

}  // extern "C"
