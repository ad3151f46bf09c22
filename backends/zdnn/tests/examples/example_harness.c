/*
 * Test harness linked beside the unchanged spec examples (via ld --wrap, the sources are not
 * touched): malloc returns over-sized blocks filled with a deterministic pattern of small floats
 * (the examples transform uninitialised malloc'd data, and the bidirectional ones read twice what
 * they allocate), and every transform / untransform call records its data as JSON lines in the file
 * named by ZDNN_EXAMPLE_TRACE, so a checker can recompute the results independently.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zdnn.h"

void* __real_malloc(size_t size);
zdnn_status __real_zdnn_transform_ztensor(zdnn_ztensor* ztensor, ...);
zdnn_status __real_zdnn_transform_quantized_ztensor(zdnn_ztensor* ztensor, bool saturation_control, int8_t clip_min,
                                                    int8_t clip_max, const void* data);
zdnn_status __real_zdnn_transform_origtensor(const zdnn_ztensor* ztensor, void* out_buf);

static unsigned malloc_calls;

void* __wrap_malloc(size_t size) {
  size_t floats = (2 * size + 256) / 4;
  float* block = __real_malloc(floats * 4);
  if (!block) return NULL;
  unsigned call = ++malloc_calls;
  for (size_t k = 0; k < floats; ++k) block[k] = (float)((int)((k * 7919u + call * 104729u) % 2001u) - 1000) / 1000.0f;
  return block;
}

static FILE* trace(void) {
  static FILE* file;
  const char* path = getenv("ZDNN_EXAMPLE_TRACE");
  if (!file && path) file = fopen(path, "w");
  return file;
}

static uint64_t pre_elements(const zdnn_tensor_desc* d) {
  switch (d->layout) {
  case ZDNN_1D: return d->dim1;
  case ZDNN_2D:
  case ZDNN_2DS: return (uint64_t)d->dim2 * d->dim1;
  case ZDNN_3D:
  case ZDNN_3DS: return (uint64_t)d->dim3 * d->dim2 * d->dim1;
  default: return (uint64_t)d->dim4 * d->dim3 * d->dim2 * d->dim1;
  }
}

static void dump(const char* fn, const zdnn_ztensor* t, const void* const* data, int count) {
  FILE* f = trace();
  if (!f) return;
  const zdnn_tensor_desc* d = t->pre_transformed_desc;
  fprintf(f,
          "{\"fn\":\"%s\",\"layout\":%d,\"type\":%d,\"dims\":[%u,%u,%u,%u],\"scale\":%.9g,\"offset\":%.9g,\"data\":[",
          fn, (int)d->layout, (int)d->type, d->dim4, d->dim3, d->dim2, d->dim1,
          t->rec_scale != 0.0f ? 1.0f / t->rec_scale : 0.0f, t->offset);
  uint64_t n = pre_elements(d);
  for (int g = 0; g < count; ++g) {
    fprintf(f, "%s[", g ? "," : "");
    for (uint64_t i = 0; i < n; ++i) {
      if (d->type == INT8)
        fprintf(f, "%s%d", i ? "," : "", ((const int8_t*)data[g])[i]);
      else
        fprintf(f, "%s%.9g", i ? "," : "", ((const float*)data[g])[i]);
    }
    fprintf(f, "]");
  }
  fprintf(f, "]}\n");
  fflush(f);
}

zdnn_status __wrap_zdnn_transform_ztensor(zdnn_ztensor* ztensor, ...) {
  const void* data[4] = {0};
  int count = 1;
  zdnn_data_layouts l = ztensor->transformed_desc->layout;
  if (l == ZDNN_FICO || l == ZDNN_BIDIR_FICO) count = 4;
  if (l == ZDNN_ZRH || l == ZDNN_BIDIR_ZRH) count = 3;
  va_list args;
  va_start(args, ztensor);
  for (int i = 0; i < count; ++i) data[i] = va_arg(args, const void*);
  va_end(args);
  dump("transform", ztensor, data, count);
  if (count == 4) return __real_zdnn_transform_ztensor(ztensor, data[0], data[1], data[2], data[3]);
  if (count == 3) return __real_zdnn_transform_ztensor(ztensor, data[0], data[1], data[2]);
  return __real_zdnn_transform_ztensor(ztensor, data[0]);
}

zdnn_status __wrap_zdnn_transform_quantized_ztensor(zdnn_ztensor* ztensor, bool saturation_control, int8_t clip_min,
                                                    int8_t clip_max, const void* data) {
  dump("transform_quantized", ztensor, &data, 1);
  return __real_zdnn_transform_quantized_ztensor(ztensor, saturation_control, clip_min, clip_max, data);
}

zdnn_status __wrap_zdnn_transform_origtensor(const zdnn_ztensor* ztensor, void* out_buf) {
  zdnn_status status = __real_zdnn_transform_origtensor(ztensor, out_buf);
  const void* data[1] = {out_buf};
  if (status == ZDNN_OK) dump("origtensor", ztensor, data, 1);
  return status;
}
