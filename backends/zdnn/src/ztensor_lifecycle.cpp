// zTensor lifecycle: init (plain and quantized), allocation helpers, reset, free, getsize.
#include <cmath>
#include <cstring>

#include "aligned_buffer.hpp"
#include "common.hpp"
#include "status.hpp"
#include "stick_layout.hpp"
#include "tensor_checks.hpp"

using namespace tessera::zdnn;

namespace {

void init_fields(zdnn_tensor_desc* pre, zdnn_tensor_desc* tfrmd, zdnn_ztensor* out) {
  std::memset(out, 0, sizeof *out);
  out->pre_transformed_desc = pre;
  out->transformed_desc = tfrmd;
}

zdnn_status allocate_for(zdnn_ztensor* t, const char* where) {
  if (!t || !t->transformed_desc) return report(ZDNN_INVALID_BUFFER, where, "NULL ztensor");
  if (zdnn_status s = check_transformed_desc(t->transformed_desc); s != ZDNN_OK) return report(s, where);
  const uint64_t size = transformed_size_bytes(*t->transformed_desc);
  void* buffer = allocate_4k(size);
  if (!buffer) return report(ZDNN_ALLOCATION_FAILURE, where);
  std::memset(buffer, 0, size);
  t->buffer = buffer;
  t->buffer_size = size;
  return ZDNN_OK;
}

}  // namespace

extern "C" {

uint64_t zdnn_getsize_ztensor(const zdnn_tensor_desc* tfrmd_desc) {
  return tfrmd_desc ? transformed_size_bytes(*tfrmd_desc) : 0;
}

void zdnn_init_ztensor(zdnn_tensor_desc* pre, zdnn_tensor_desc* tfrmd, zdnn_ztensor* output) {
  if (output) init_fields(pre, tfrmd, output);
}

zdnn_status zdnn_init_ztensor_with_malloc(zdnn_tensor_desc* pre, zdnn_tensor_desc* tfrmd, zdnn_ztensor* output) {
  if (!output) return report(ZDNN_INVALID_BUFFER, "zdnn_init_ztensor_with_malloc", "NULL ztensor");
  init_fields(pre, tfrmd, output);
  return allocate_for(output, "zdnn_init_ztensor_with_malloc");
}

void zdnn_init_quantized_ztensor(zdnn_tensor_desc* pre, zdnn_tensor_desc* tfrmd, float scale, float offset,
                                 zdnn_ztensor* output) {
  if (!output) return;
  init_fields(pre, tfrmd, output);
  output->rec_scale = 1.0f / scale;
  output->offset = offset;
}

zdnn_status zdnn_init_quantized_ztensor_with_malloc(zdnn_tensor_desc* pre, zdnn_tensor_desc* tfrmd, float scale,
                                                    float offset, zdnn_ztensor* output) {
  if (!output) return report(ZDNN_INVALID_BUFFER, "zdnn_init_quantized_ztensor_with_malloc", "NULL ztensor");
  zdnn_init_quantized_ztensor(pre, tfrmd, scale, offset, output);
  return allocate_for(output, "zdnn_init_quantized_ztensor_with_malloc");
}

bool zdnn_is_quantized_ztensor(zdnn_ztensor* ztensor) {
  return ztensor && ztensor->rec_scale != 0.0f;
}

void zdnn_reset_ztensor(zdnn_ztensor* ztensor) {
  if (!ztensor) return;
  ztensor->is_transformed = false;
  std::memset(ztensor->reserved, 0, sizeof ztensor->reserved);
  ztensor->rec_scale = 0.0f;
  ztensor->offset = 0.0f;
  std::memset(ztensor->reserved2, 0, sizeof ztensor->reserved2);
}

zdnn_status zdnn_allochelper_ztensor(zdnn_ztensor* ztensor) {
  return allocate_for(ztensor, "zdnn_allochelper_ztensor");
}

zdnn_status zdnn_free_ztensor_buffer(const zdnn_ztensor* ztensor) {
  if (!ztensor || !ztensor->buffer) return report(ZDNN_INVALID_BUFFER, "zdnn_free_ztensor_buffer", "NULL buffer");
  std::free(ztensor->buffer);
  return ZDNN_OK;
}

}  // extern "C"
