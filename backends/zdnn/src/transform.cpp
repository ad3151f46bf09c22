// zdnn_transform_ztensor, zdnn_transform_ztensor_with_saturation and zdnn_transform_origtensor:
// stickify caller data (FP32/FP16/BFLOAT -> DLFLOAT16, INT32 -> INT32 cells) in every layout, and
// back.
#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstring>
#include <vector>

#include "common.hpp"
#include "descriptors.hpp"
#include "dlfloat_rows.hpp"
#include "element_io.hpp"
#include "layout_mapping.hpp"
#include "parallel_rows.hpp"
#include "status.hpp"
#include "stick_layout.hpp"
#include "tensor_checks.hpp"

namespace tessera::zdnn {
namespace {

// Fast paths for FP32 data whose transformed rows are contiguous in the caller's buffer. Work is
// split by pages of 32 W positions; each W position's source row (all C values) is read once,
// sequentially, and spread over its C-block sticks. Large tensors run in parallel (oneTBB).
struct PageRow {
  uint32_t n, h, w0, w1;  // W positions [w0, w1) of one (n, h) page
};

PageRow page_row(const FeatureGeometry& g, size_t index) {
  const size_t pages = g.w_pages();
  const uint32_t page = static_cast<uint32_t>(index % pages);
  const size_t nh = index / pages;
  return {static_cast<uint32_t>(nh / g.h), static_cast<uint32_t>(nh % g.h), page * kSticksPerPage,
          std::min<uint32_t>(g.w, (page + 1) * kSticksPerPage)};
}

bool stickify_contiguous_fp32(const float* src, const FeatureGeometry& g, unsigned char* base, bool saturate) {
  std::atomic<bool> violation{false};
  const size_t c_blocks = g.c_blocks();
  const size_t page_rows = size_t(g.n) * g.h * g.w_pages();
  // Few channels in a large tensor: whole sticks written with non-temporal stores.
  const bool streaming = c_blocks == 1 && g.c < 64 && g.size_bytes() > (size_t{4} << 20);
  for_rows(page_rows, page_rows * kSticksPerPage * c_blocks * 64, [&](size_t begin, size_t end) {
    bool local = false;
    for (size_t index = begin; index < end; ++index) {
      const PageRow r = page_row(g, index);
      const float* row = src + ((static_cast<uint64_t>(r.n) * g.h + r.h) * g.w + r.w0) * g.c;
      for (size_t cb = 0; cb < c_blocks; ++cb) {
        const uint32_t c0 = static_cast<uint32_t>(cb * 64), count = std::min<uint32_t>(64, g.c - c0);
        auto* stick = reinterpret_cast<uint16_t*>(base + g.stick_offset(r.n, r.h, r.w0, c0));
        const size_t used = r.w1 - r.w0;
        if (streaming) {
          local |= fp32_rows_to_sticks_streaming(row + c0, g.c, stick, used, kSticksPerPage, count, saturate);
          continue;
        } else {
          if (count < 64) std::memset(stick, 0, used * kStickBytes);
          local |= fp32_rows_to_sticks(row + c0, g.c, stick, used, count, saturate);
        }
        if (used < kSticksPerPage) std::memset(stick + used * 64, 0, (kSticksPerPage - used) * kStickBytes);
      }
    }
    if (streaming) store_fence();
    if (local) violation = true;
  });
  return violation;
}

// Returns true when a cell held NINF (written as NaN).
bool unstickify_contiguous_fp32(const unsigned char* base, const FeatureGeometry& g, float* dst) {
  std::atomic<bool> ninf{false};
  const size_t c_blocks = g.c_blocks();
  const size_t page_rows = size_t(g.n) * g.h * g.w_pages();
  for_rows(page_rows, page_rows * kSticksPerPage * c_blocks * 64, [&](size_t begin, size_t end) {
    bool local = false;
    for (size_t index = begin; index < end; ++index) {
      const PageRow r = page_row(g, index);
      float* row = dst + ((static_cast<uint64_t>(r.n) * g.h + r.h) * g.w + r.w0) * g.c;
      for (size_t cb = 0; cb < c_blocks; ++cb) {
        const uint32_t c0 = static_cast<uint32_t>(cb * 64), count = std::min<uint32_t>(64, g.c - c0);
        const auto* stick = reinterpret_cast<const uint16_t*>(base + g.stick_offset(r.n, r.h, r.w0, c0));
        local |= sticks_to_fp32_rows(stick, row + c0, g.c, r.w1 - r.w0, count);
      }
    }
    if (local) ninf = true;
  });
  return ninf;
}

// General path: gather each transformed row into fp32 scratch, then convert into its sticks.
bool stickify_general(const void* const* sources, zdnn_data_types src_type, const LayoutMapping& map,
                      const zdnn_tensor_desc& tfrmd, unsigned char* base, uint64_t size, bool saturate) {
  std::memset(base, 0, size);
  const FeatureGeometry& g = map.geometry();
  std::vector<float> row(g.c);
  std::vector<RowSegment> segments;
  bool violation = false;
  const bool int32_cells = tfrmd.type == ZDNN_BINARY_INT32;
  for (uint32_t n = 0; n < g.n; ++n)
    for (uint32_t h = 0; h < g.h; ++h)
      for (uint32_t w = 0; w < g.w; ++w) {
        map.row_segments(n, h, w, segments);
        if (segments.empty()) continue;
        if (int32_cells) {
          for (const RowSegment& s : segments)
            for (uint32_t i = 0; i < s.count; ++i) {
              int32_t v;
              std::memcpy(&v, static_cast<const char*>(sources[s.source]) + (s.src_index + i * s.stride) * 4, 4);
              std::memcpy(base + g.offset(n, h, w, s.dst_c + i), &v, 4);
            }
          continue;
        }
        std::fill(row.begin(), row.end(), 0.0f);
        for (const RowSegment& s : segments)
          for (uint32_t i = 0; i < s.count; ++i)
            row[s.dst_c + i] = load_element(sources[s.source], s.src_index + i * s.stride, src_type);
        for (uint32_t c0 = 0; c0 < g.c; c0 += 64) {
          const uint32_t count = std::min<uint32_t>(64, g.c - c0);
          violation |= fp32_row_to_dlf16(
              row.data() + c0, reinterpret_cast<uint16_t*>(base + g.stick_offset(n, h, w, c0)), count, saturate);
        }
      }
  return violation;
}

zdnn_status transform(zdnn_ztensor* t, va_list args, bool saturate, const char* where) {
  if (!has_descriptors(t)) return report(ZDNN_INVALID_BUFFER, where, "NULL ztensor or descriptor");
  const zdnn_tensor_desc& pre = *t->pre_transformed_desc;
  const zdnn_tensor_desc& tf = *t->transformed_desc;
  if (t->is_transformed) return report(ZDNN_INVALID_STATE, where, "already transformed");
  if (!is_known_format(tf.format) || tf.format == ZDNN_FORMAT_4DGENERIC ||
      (saturate && tf.format != ZDNN_FORMAT_4DFEATURE))
    return report(ZDNN_INVALID_FORMAT, where);
  if (!is_pre_transformed_layout(pre.layout) || !is_transformed_layout(tf.layout))
    return report(ZDNN_INVALID_LAYOUT, where);
  const bool float_path = is_pre_transformed_float_type(pre.type) && tf.type == ZDNN_DLFLOAT16;
  const bool int32_path = !saturate && pre.type == INT32 && tf.type == ZDNN_BINARY_INT32;
  if (!float_path && !int32_path) return report(ZDNN_INVALID_TYPE, where);
  if (tf.format == ZDNN_FORMAT_4DWEIGHTS) return report(ZDNN_INVALID_FORMAT, where);
  if ((tf.format == ZDNN_FORMAT_4DKERNEL) != (pre.layout == ZDNN_HWCK)) return report(ZDNN_INVALID_LAYOUT, where);
  if (zdnn_status s = check_transformed_desc(&tf); s != ZDNN_OK) return report(s, where);
  if (!dims_consistent(pre, tf)) return report(ZDNN_INVALID_SHAPE, where, "descriptors disagree");
  if (zdnn_status s = check_buffer(t); s != ZDNN_OK) return report(s, where);
  const LayoutMapping map(pre, tf);
  if (!map.ok()) return report(ZDNN_INVALID_LAYOUT, where);
  if (saturate && map.sources() != 1) return report(ZDNN_INVALID_LAYOUT, where, "concatenated tensors unsupported");
  const void* sources[4] = {};
  for (uint32_t i = 0; i < map.sources(); ++i) {
    sources[i] = va_arg(args, const void*);
    if (!sources[i]) return report(ZDNN_INVALID_BUFFER, where, "NULL data pointer");
  }
  auto* base = static_cast<unsigned char*>(t->buffer);
  bool violation;
  if (map.contiguous() && pre.type == FP32 && tf.type == ZDNN_DLFLOAT16)
    violation = stickify_contiguous_fp32(static_cast<const float*>(sources[0]), map.geometry(), base, saturate);
  else
    violation = stickify_general(sources, pre.type, map, tf, base, transformed_size_bytes(tf), saturate);
  // Saturation clamps finite values; binary16 NaN/infinity cannot be converted at all (the
  // library's software path fails on them, while FP32 and BFLOAT NaN/infinity become NINF).
  if (violation && (!saturate || pre.type == FP16)) {
    t->is_transformed = false;
    return report(ZDNN_CONVERT_FAILURE, where, "NaN, infinity or value beyond DLFLOAT16 range");
  }
  t->is_transformed = true;
  return violation ? report(ZDNN_ELEMENT_RANGE_VIOLATION, where) : ZDNN_OK;
}

zdnn_status unstickify(const zdnn_ztensor* t, void* out, const char* where) {
  if (!has_descriptors(t)) return report(ZDNN_INVALID_BUFFER, where, "NULL ztensor or descriptor");
  const zdnn_tensor_desc& pre = *t->pre_transformed_desc;
  const zdnn_tensor_desc& tf = *t->transformed_desc;
  if (tf.format != ZDNN_FORMAT_4DFEATURE) return report(ZDNN_INVALID_FORMAT, where);
  if (!is_pre_transformed_layout(pre.layout) || pre.layout == ZDNN_HWCK || tf.layout != ZDNN_NHWC)
    return report(ZDNN_INVALID_LAYOUT, where);
  const bool ok_type = (tf.type == ZDNN_DLFLOAT16 && is_pre_transformed_float_type(pre.type)) ||
                       (tf.type == ZDNN_BINARY_INT32 && pre.type == INT32) ||
                       (tf.type == ZDNN_BINARY_INT8 && (pre.type == INT8 || is_pre_transformed_float_type(pre.type)));
  if (!ok_type) return report(ZDNN_INVALID_TYPE, where);
  if (zdnn_status s = check_transformed_desc(&tf); s != ZDNN_OK) return report(s, where);
  if (!dims_consistent(pre, tf)) return report(ZDNN_INVALID_SHAPE, where, "descriptors disagree");
  if (zdnn_status s = check_buffer(t); s != ZDNN_OK) return report(s, where);
  if (!t->is_transformed) return report(ZDNN_INVALID_STATE, where, "not transformed");
  if (!out) return report(ZDNN_INVALID_BUFFER, where, "NULL output buffer");
  const LayoutMapping map(pre, tf);
  const FeatureGeometry& g = map.geometry();
  const auto* base = static_cast<const unsigned char*>(t->buffer);
  // A NINF cell is written as NaN and the call fails with ZDNN_CONVERT_FAILURE, like the
  // library's software conversion path.
  static constexpr const char* kNinf = "tensor holds NINF (NaN, infinity or overflow)";
  if (map.contiguous() && pre.type == FP32 && tf.type == ZDNN_DLFLOAT16)
    return unstickify_contiguous_fp32(base, g, static_cast<float*>(out)) ? report(ZDNN_CONVERT_FAILURE, where, kNinf)
                                                                         : ZDNN_OK;
  std::vector<float> row(g.c);
  std::vector<RowSegment> segments;
  bool fits = true, ninf = false;
  const float scale = t->rec_scale != 0.0f ? t->rec_scale : 1.0f;
  for (uint32_t n = 0; n < g.n; ++n)
    for (uint32_t h = 0; h < g.h; ++h)
      for (uint32_t w = 0; w < g.w; ++w) {
        map.row_segments(n, h, w, segments);
        for (const RowSegment& s : segments)
          for (uint32_t i = 0; i < s.count; ++i) {
            const uint64_t at = g.offset(n, h, w, s.dst_c + i);
            const uint64_t dst_index = s.src_index + i * s.stride;
            if (tf.type == ZDNN_BINARY_INT32) {
              std::memcpy(static_cast<char*>(out) + dst_index * 4, base + at, 4);
            } else if (tf.type == ZDNN_BINARY_INT8) {
              const auto q = static_cast<int8_t>(base[at]);
              const float v = pre.type == INT8 ? q : (q - t->offset) / scale;
              fits &= store_element(out, dst_index, pre.type, v);
            } else {
              uint16_t cell;
              std::memcpy(&cell, base + at, 2);
              ninf |= (cell & 0x7FFFu) == 0x7FFFu;
              fits &= store_element(out, dst_index, pre.type, dlf16_to_fp32(cell));
            }
          }
      }
  if (ninf) return report(ZDNN_CONVERT_FAILURE, where, kNinf);
  return fits ? ZDNN_OK : report(ZDNN_CONVERT_FAILURE, where, "value beyond target type range");
}

}  // namespace
}  // namespace tessera::zdnn

using namespace tessera::zdnn;

extern "C" {

zdnn_status zdnn_transform_ztensor(zdnn_ztensor* ztensor, ...) {
  va_list args;
  va_start(args, ztensor);
  const zdnn_status s =
      guarded("zdnn_transform_ztensor", [&] { return transform(ztensor, args, false, "zdnn_transform_ztensor"); });
  va_end(args);
  return s;
}

zdnn_status zdnn_transform_ztensor_with_saturation(zdnn_ztensor* ztensor, ...) {
  va_list args;
  va_start(args, ztensor);
  const zdnn_status s = guarded("zdnn_transform_ztensor_with_saturation", [&] {
    return transform(ztensor, args, true, "zdnn_transform_ztensor_with_saturation");
  });
  va_end(args);
  return s;
}

zdnn_status zdnn_transform_origtensor(const zdnn_ztensor* ztensor, void* out_buf) {
  return guarded("zdnn_transform_origtensor",
                 [&] { return unstickify(ztensor, out_buf, "zdnn_transform_origtensor"); });
}

}  // extern "C"
