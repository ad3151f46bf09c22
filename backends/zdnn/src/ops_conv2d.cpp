// zdnn_conv2d: NHWC input, HWCK (4DKERNEL) kernel, 1D bias, optional ReLU with clipping.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "dlfloat16.hpp"
#include "op_support.hpp"
#include "stick_layout.hpp"
#include "window_geometry.hpp"

using namespace tessera::zdnn;

namespace {

zdnn_status check_kernel(const zdnn_ztensor* k) {
  if (!has_descriptors(k)) return ZDNN_INVALID_BUFFER;
  const zdnn_tensor_desc& d = *k->transformed_desc;
  if (d.type != ZDNN_DLFLOAT16) return ZDNN_INVALID_TYPE;
  if (d.format != ZDNN_FORMAT_4DKERNEL) return ZDNN_INVALID_FORMAT;
  if (zdnn_status s = check_transformed_desc(&d); s != ZDNN_OK) return s;
  return check_buffer(k);
}

}  // namespace

static zdnn_status zdnn_conv2d_impl(const zdnn_ztensor* input, const zdnn_ztensor* kernel, const zdnn_ztensor* bias,
                                   zdnn_pool_padding padding, uint32_t sh, uint32_t sw, zdnn_conv2d_act act_func,
                                   const void* clipping_value, zdnn_ztensor* output) {
  static constexpr const char* where = "zdnn_conv2d";
  if (zdnn_status s = check_operands({input, bias, output}); s != ZDNN_OK) return report(s, where);
  if (zdnn_status s = check_kernel(kernel); s != ZDNN_OK) return report(s, where);
  if (padding != VALID_PADDING && padding != SAME_PADDING) return report(ZDNN_FUNC_RC_F000, where, "padding_type");
  if (act_func != CONV2D_ACT_NONE && act_func != CONV2D_ACT_RELU) return report(ZDNN_FUNC_RC_F001, where, "act_func");
  float clip = 0.0f;
  if (clipping_value) std::memcpy(&clip, clipping_value, sizeof clip);
  if (clip < 0.0f || std::isnan(clip)) return report(ZDNN_INVALID_CLIPPING_VALUE, where);
  const zdnn_tensor_desc& in = *input->transformed_desc;
  const zdnn_tensor_desc& kd = *kernel->transformed_desc;
  const uint32_t kh = kd.dim4, kw = kd.dim3, cin = kd.dim2, cout = kd.dim1;
  if ((sh == 0) != (sw == 0)) return report(ZDNN_INVALID_STRIDES, where);
  if (sh == 0) {
    if (padding != VALID_PADDING) return report(ZDNN_INVALID_STRIDE_PADDING, where);
    if (kh > 448 || kw > 448) return report(ZDNN_FUNC_RC_F002, where);
    if (in.dim3 != kh || in.dim2 != kw) return report(ZDNN_INVALID_SHAPE, where);
  } else {
    if (sh > 13 || sw > 13) return report(ZDNN_FUNC_RC_F004, where);
    if (kh > 64 || kw > 64) return report(ZDNN_FUNC_RC_F003, where);
    if (padding == VALID_PADDING && (in.dim3 < kh || in.dim2 < kw)) return report(ZDNN_INVALID_SHAPE, where);
  }
  const WindowAxis rows = window_axis(in.dim3, kh, sh, padding), cols = window_axis(in.dim2, kw, sw, padding);
  const uint32_t oh = rows.out, ow = cols.out;
  if (in.dim1 != cin || !has_dims(bias, 1, 1, 1, cout) || !has_dims(output, in.dim4, oh, ow, cout))
    return report(ZDNN_INVALID_SHAPE, where);
  // Kernel into dense [kh][kw][cin][cout].
  std::vector<float> weights(static_cast<size_t>(kh) * kw * cin * cout);
  const auto* kbase = static_cast<const unsigned char*>(kernel->buffer);
  for (uint32_t i = 0; i < kh; ++i)
    for (uint32_t j = 0; j < kw; ++j)
      for (uint32_t ci = 0; ci < cin; ++ci)
        for (uint32_t co = 0; co < cout; ++co) {
          uint16_t cell;
          std::memcpy(&cell, kbase + kernel_offset(kd, i, j, ci, co), 2);
          weights[((static_cast<size_t>(i) * kw + j) * cin + ci) * cout + co] = dlf16_to_fp32(cell);
        }
  const DenseTensor x = load_dense(*input);
  const DenseTensor b = load_dense(*bias);
  DenseTensor y(in.dim4, oh, ow, cout);
  for (uint32_t n = 0; n < in.dim4; ++n)
    for (uint32_t r = 0; r < oh; ++r)
      for (uint32_t q = 0; q < ow; ++q) {
        float* acc = &y.at(n, r, q, 0);
        std::copy(b.data.begin(), b.data.end(), acc);
        for (uint32_t i = 0; i < kh; ++i) {
          const int64_t h = rows.input_index(r, i);
          if (h < 0 || h >= in.dim3) continue;
          for (uint32_t j = 0; j < kw; ++j) {
            const int64_t w = cols.input_index(q, j);
            if (w < 0 || w >= in.dim2) continue;
            const float* xin = x.data.data() + x.index(n, static_cast<uint32_t>(h), static_cast<uint32_t>(w), 0);
            const float* wk = &weights[(static_cast<size_t>(i) * kw + j) * cin * cout];
            for (uint32_t ci = 0; ci < cin; ++ci) {
              const float v = xin[ci];
              const float* wrow = wk + static_cast<size_t>(ci) * cout;
              for (uint32_t co = 0; co < cout; ++co) acc[co] += v * wrow[co];
            }
          }
        }
        if (act_func == CONV2D_ACT_RELU)
          for (uint32_t co = 0; co < cout; ++co) {
            float v = acc[co] > 0.0f ? acc[co] : 0.0f;
            acc[co] = (clip > 0.0f && v > clip) ? clip : v;
          }
      }
  return finish(output, y, where);
}

extern "C" zdnn_status zdnn_conv2d(const zdnn_ztensor* input, const zdnn_ztensor* kernel, const zdnn_ztensor* bias, zdnn_pool_padding padding, uint32_t sh, uint32_t sw, zdnn_conv2d_act act_func, const void* clipping_value, zdnn_ztensor* output) {
  return guarded("zdnn_conv2d", [&] { return zdnn_conv2d_impl(input, kernel, bias, padding, sh, sw, act_func, clipping_value, output); });
}
