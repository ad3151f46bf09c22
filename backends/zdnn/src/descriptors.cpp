// Descriptor helpers: zdnn_init_pre_transformed_desc, zdnn_generate_transformed_desc (+ quantized
// and concatenated variants) mapping pre-transformed shapes onto the zAIU's 4D transformed shapes.
#include <cstdarg>

#include "common.hpp"
#include "descriptors.hpp"
#include "status.hpp"

namespace tessera::zdnn {

int dims_of_layout(zdnn_data_layouts layout) {
  switch (layout) {
  case ZDNN_1D: return 1;
  case ZDNN_2D:
  case ZDNN_2DS: return 2;
  case ZDNN_3D:
  case ZDNN_3DS: return 3;
  case ZDNN_4D:
  case ZDNN_4DS:
  case ZDNN_NHWC:
  case ZDNN_NCHW:
  case ZDNN_HWCK: return 4;
  default: return 0;
  }
}

namespace {

void set_dims(zdnn_tensor_desc& out, uint32_t dim4, uint32_t dim3, uint32_t dim2, uint32_t dim1) {
  out.dim4 = dim4;
  out.dim3 = dim3;
  out.dim2 = dim2;
  out.dim1 = dim1;
}

}  // namespace

zdnn_status transformed_dims(const zdnn_tensor_desc& pre, zdnn_tensor_desc& out) {
  const uint32_t d4 = pre.dim4, d3 = pre.dim3, d2 = pre.dim2, d1 = pre.dim1;
  out.format = ZDNN_FORMAT_4DFEATURE;
  out.layout = ZDNN_NHWC;
  switch (pre.layout) {
  case ZDNN_1D: set_dims(out, 1, 1, 1, d1); break;
  case ZDNN_2D: set_dims(out, 1, 1, d2, d1); break;
  case ZDNN_2DS: set_dims(out, d2, 1, 1, d1); break;
  case ZDNN_3D: set_dims(out, 1, d3, d2, d1); break;
  case ZDNN_3DS: set_dims(out, d3, 1, d2, d1); break;
  case ZDNN_4D:
  case ZDNN_NHWC: set_dims(out, d4, d3, d2, d1); break;
  case ZDNN_NCHW: set_dims(out, d4, d2, d1, d3); break;
  case ZDNN_4DS: set_dims(out, d4, 1, d2, d3 == 1 ? d1 : d3 * padded64(d1)); break;
  case ZDNN_HWCK:
    out.layout = ZDNN_HWCK;
    out.format = ZDNN_FORMAT_4DKERNEL;
    set_dims(out, d4, d3, d2, d1);
    break;
  default: return ZDNN_INVALID_LAYOUT;
  }
  return ZDNN_OK;
}

bool dims_consistent(const zdnn_tensor_desc& pre, const zdnn_tensor_desc& tf) {
  zdnn_tensor_desc expected{};
  if (is_concatenated_layout(tf.layout)) {
    const uint32_t width = gates_of_layout(tf.layout) * padded64(pre.dim1);
    const bool bidir = tf.layout == ZDNN_BIDIR_FICO || tf.layout == ZDNN_BIDIR_ZRH;
    if (pre.layout == ZDNN_2DS && !bidir)
      return tf.dim4 == pre.dim2 && tf.dim3 == 1 && tf.dim2 == 1 && tf.dim1 == width;
    if (pre.layout != ZDNN_3DS) return false;
    // Bidirectional weights split their rows in two halves: an odd count (the pre-transformed desc
    // changed after the transformed one was generated) has no valid layout.
    if (bidir && pre.dim2 % 2 != 0) return false;
    const uint32_t rows = bidir ? 2 * padded64(pre.dim2 / 2) : pre.dim2;
    return tf.dim4 == pre.dim3 && tf.dim3 == 1 && tf.dim2 == rows && tf.dim1 == width;
  }
  if (transformed_dims(pre, expected) != ZDNN_OK) return false;
  return expected.dim4 == tf.dim4 && expected.dim3 == tf.dim3 && expected.dim2 == tf.dim2 && expected.dim1 == tf.dim1;
}

bool quantizable_layout(zdnn_data_layouts layout) {
  switch (layout) {
  case ZDNN_1D:
  case ZDNN_2D:
  case ZDNN_2DS:
  case ZDNN_3D:
  case ZDNN_3DS:
  case ZDNN_4D:
  case ZDNN_NHWC: return true;
  default: return false;
  }
}

}  // namespace tessera::zdnn

using namespace tessera::zdnn;

extern "C" {

void zdnn_init_pre_transformed_desc(zdnn_data_layouts layout, zdnn_data_types type, zdnn_tensor_desc* pre_tfrmd_desc,
                                    ...) {
  if (!pre_tfrmd_desc) return;
  uint32_t dims[4] = {1, 1, 1, 1};  // dim4..dim1
  const int count = dims_of_layout(layout);
  va_list args;
  va_start(args, pre_tfrmd_desc);
  for (int i = 0; i < count; ++i) dims[4 - count + i] = va_arg(args, uint32_t);
  va_end(args);
  pre_tfrmd_desc->layout = layout;
  pre_tfrmd_desc->format = layout == ZDNN_HWCK ? ZDNN_FORMAT_4DKERNEL : ZDNN_FORMAT_4DFEATURE;
  pre_tfrmd_desc->type = type;
  pre_tfrmd_desc->dim4 = dims[0];
  pre_tfrmd_desc->dim3 = dims[1];
  pre_tfrmd_desc->dim2 = dims[2];
  pre_tfrmd_desc->dim1 = dims[3];
}

zdnn_status zdnn_generate_transformed_desc(const zdnn_tensor_desc* pre, zdnn_tensor_desc* out) {
  static constexpr const char* where = "zdnn_generate_transformed_desc";
  if (!pre || !out) return report(ZDNN_INVALID_BUFFER, where, "NULL descriptor");
  if (!is_pre_transformed_layout(pre->layout)) return report(ZDNN_INVALID_LAYOUT, where);
  zdnn_data_types type;
  if (is_pre_transformed_float_type(pre->type))
    type = ZDNN_DLFLOAT16;
  else if (pre->type == INT32)
    type = ZDNN_BINARY_INT32;
  else
    return report(ZDNN_INVALID_TYPE, where);
  zdnn_tensor_desc result{};
  if (zdnn_status s = transformed_dims(*pre, result); s != ZDNN_OK) return report(s, where);
  result.type = type;
  *out = result;
  return ZDNN_OK;
}

zdnn_status zdnn_generate_quantized_transformed_desc(const zdnn_tensor_desc* pre,
                                                     zdnn_quantized_transform_types transform_type,
                                                     zdnn_tensor_desc* out) {
  static constexpr const char* where = "zdnn_generate_quantized_transformed_desc";
  if (!pre || !out) return report(ZDNN_INVALID_BUFFER, where, "NULL descriptor");
  if (!quantizable_layout(pre->layout)) return report(ZDNN_INVALID_LAYOUT, where);
  zdnn_tensor_desc result{};
  switch (transform_type) {
  case QUANTIZED_DLFLOAT16:
    if (!is_pre_transformed_float_type(pre->type)) return report(ZDNN_INVALID_TYPE, where);
    result.type = ZDNN_DLFLOAT16;
    break;
  case QUANTIZED_INT8:
    if (!is_pre_transformed_float_type(pre->type) && pre->type != INT8) return report(ZDNN_INVALID_TYPE, where);
    result.type = ZDNN_BINARY_INT8;
    break;
  case QUANTIZED_WEIGHTS_INT8:
    if (pre->type != INT8) return report(ZDNN_INVALID_TYPE, where);
    result.type = ZDNN_BINARY_INT8;
    break;
  default: return report(ZDNN_INVALID_TRANSFORM_TYPE, where);
  }
  transformed_dims(*pre, result);
  result.layout = ZDNN_NHWC;
  result.format = transform_type == QUANTIZED_WEIGHTS_INT8 ? ZDNN_FORMAT_4DWEIGHTS : ZDNN_FORMAT_4DFEATURE;
  *out = result;
  return ZDNN_OK;
}

zdnn_status zdnn_generate_transformed_desc_concatenated(const zdnn_tensor_desc* pre, zdnn_concat_info info,
                                                        zdnn_tensor_desc* out) {
  static constexpr const char* where = "zdnn_generate_transformed_desc_concatenated";
  if (!pre || !out) return report(ZDNN_INVALID_BUFFER, where, "NULL descriptor");
  const uint32_t rnn_type = CONCAT_RNN_TYPE(info);
  const uint32_t prev_layer = CONCAT_PREV_LAYER(info);
  const uint32_t usage = CONCAT_USAGE(info);
  if ((rnn_type != RNN_TYPE_LSTM && rnn_type != RNN_TYPE_GRU) ||
      (prev_layer != PREV_LAYER_UNI && prev_layer != PREV_LAYER_BIDIR) || usage > USAGE_HIDDEN_BIASES ||
      (info & 0xFFu) != 0)
    return report(ZDNN_INVALID_CONCAT_INFO, where);
  const bool is_bias = usage == USAGE_BIASES || usage == USAGE_HIDDEN_BIASES;
  if (is_bias ? pre->layout != ZDNN_2DS : pre->layout != ZDNN_3DS) return report(ZDNN_INVALID_LAYOUT, where);
  if (!is_pre_transformed_float_type(pre->type)) return report(ZDNN_INVALID_TYPE, where);
  const bool lstm = rnn_type == RNN_TYPE_LSTM;
  const uint32_t gates = lstm ? 4 : 3;
  zdnn_tensor_desc result{};
  result.type = ZDNN_DLFLOAT16;
  result.format = ZDNN_FORMAT_4DFEATURE;
  result.dim3 = 1;
  result.dim1 = gates * padded64(pre->dim1);
  if (is_bias) {
    result.dim4 = pre->dim2;
    result.dim2 = 1;
    result.layout = lstm ? ZDNN_FICO : ZDNN_ZRH;
  } else {
    result.dim4 = pre->dim3;
    // Only input weights see a previous bidirectional layer's concatenated output.
    if (prev_layer == PREV_LAYER_BIDIR && usage == USAGE_WEIGHTS) {
      if (pre->dim2 % 2 != 0) return report(ZDNN_INVALID_SHAPE, where, "bidirectional rows must be even");
      result.dim2 = 2 * padded64(pre->dim2 / 2);
      result.layout = lstm ? ZDNN_BIDIR_FICO : ZDNN_BIDIR_ZRH;
    } else {
      result.dim2 = pre->dim2;
      result.layout = lstm ? ZDNN_FICO : ZDNN_ZRH;
    }
  }
  *out = result;
  return ZDNN_OK;
}

}  // extern "C"
