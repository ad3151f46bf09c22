// zdnn_conv2d: NHWC input, HWCK (4DKERNEL) kernel, 1D bias, optional ReLU with clipping;
// computed as im2col + the packed GEMM.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "dlfloat16.hpp"
#include "gemm_kernel.hpp"
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
  // im2col + GEMM: each output position's receptive field (kh*kw*cin, zero where it falls into the
  // padding) is one row multiplied by the dense [kh*kw*cin x cout] kernel. Output rows are done in
  // chunks so the patch matrix stays around 16 MiB.
  const size_t patch = size_t(kh) * kw * cin;
  const size_t chunk_rows = std::max<size_t>(1, (size_t{4} << 20) / std::max<size_t>(1, patch * ow));
  std::vector<float> patches(std::min<size_t>(chunk_rows, oh) * ow * patch);
  for (uint32_t n = 0; n < in.dim4; ++n)
    for (uint32_t r0 = 0; r0 < oh; r0 += static_cast<uint32_t>(chunk_rows)) {
      const uint32_t r1 = static_cast<uint32_t>(std::min<size_t>(oh, r0 + chunk_rows));
      std::fill(patches.begin(), patches.end(), 0.0f);
      for (uint32_t r = r0; r < r1; ++r)
        for (uint32_t q = 0; q < ow; ++q) {
          float* row = patches.data() + ((size_t(r - r0) * ow) + q) * patch;
          for (uint32_t i = 0; i < kh; ++i) {
            const int64_t h = rows.input_index(r, i);
            if (h < 0 || h >= in.dim3) continue;
            for (uint32_t j = 0; j < kw; ++j) {
              const int64_t w = cols.input_index(q, j);
              if (w < 0 || w >= in.dim2) continue;
              std::copy_n(x.data.data() + x.index(n, static_cast<uint32_t>(h), static_cast<uint32_t>(w), 0), cin,
                          row + (size_t(i) * kw + j) * cin);
            }
          }
        }
      float* out = &y.at(n, r0, 0, 0);
      const size_t positions = size_t(r1 - r0) * ow;
      sgemm(positions, cout, patch, patches.data(), patch, weights.data(), cout, out, cout);
      for (size_t pos = 0; pos < positions; ++pos) {
        float* acc = out + pos * cout;
        for (uint32_t co = 0; co < cout; ++co) {
          float v = acc[co] + b.data[co];
          if (act_func == CONV2D_ACT_RELU) {
            v = v > 0.0f ? v : 0.0f;
            v = (clip > 0.0f && v > clip) ? clip : v;
          }
          acc[co] = v;
        }
      }
    }
  return finish(output, y, where);
}

extern "C" zdnn_status zdnn_conv2d(const zdnn_ztensor* input, const zdnn_ztensor* kernel, const zdnn_ztensor* bias,
                                   zdnn_pool_padding padding, uint32_t sh, uint32_t sw, zdnn_conv2d_act act_func,
                                   const void* clipping_value, zdnn_ztensor* output) {
  return guarded("zdnn_conv2d", [&] {
    return zdnn_conv2d_impl(input, kernel, bias, padding, sh, sw, act_func, clipping_value, output);
  });
}
