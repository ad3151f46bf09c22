// zdnn_quantized_matmul_op: int8 (or on-the-fly quantised DLFLOAT16) A times int8 4DWEIGHTS B with
// an int8 (or pre-computed DLFLOAT16) bias, fused addition or comparison, output rounding and
// clipping, optional dequantisation. Quantised values x_q relate to real ones as
// x = S * (x_q - Z), S = 1 / rec_scale, Z = offset.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "dlfloat16.hpp"
#include "matmul_common.hpp"
#include "op_support.hpp"
#include "stick_layout.hpp"

#undef zdnn_quantized_matmul_op

using namespace tessera::zdnn;

namespace {

zdnn_status check_quantized_operand(const zdnn_ztensor* t, zdnn_data_types type, zdnn_data_formats format) {
  if (!has_descriptors(t)) return ZDNN_INVALID_BUFFER;
  const zdnn_tensor_desc& d = *t->transformed_desc;
  if (!is_transformed_type(d.type)) return ZDNN_INVALID_TYPE;
  if (!is_known_format(d.format)) return ZDNN_INVALID_FORMAT;
  if (d.type != type || d.format != format) return ZDNN_FUNC_RC_F001;
  if (zdnn_status s = check_transformed_desc(&d); s != ZDNN_OK) return s;
  return check_buffer(t);
}

bool valid_scale(float rec_scale) {
  const float scale = 1.0f / rec_scale;
  return std::isfinite(scale) && scale != 0.0f && std::fabs(scale) <= kDlfMax;
}
bool valid_offset(float offset) {
  return std::isfinite(offset) && std::fabs(offset) <= kDlfMax;
}

// Reads every cell of an int8 4DFEATURE or 4DWEIGHTS tensor into dense floats.
std::vector<float> load_int8(const zdnn_ztensor& t) {
  const zdnn_tensor_desc& d = *t.transformed_desc;
  const auto* base = static_cast<const int8_t*>(t.buffer);
  const bool weights = d.format == ZDNN_FORMAT_4DWEIGHTS;
  const FeatureGeometry g = feature_geometry(d);
  std::vector<float> out(static_cast<size_t>(d.dim4) * d.dim3 * d.dim2 * d.dim1);
  size_t i = 0;
  for (uint32_t n = 0; n < d.dim4; ++n)
    for (uint32_t h = 0; h < d.dim3; ++h)
      for (uint32_t w = 0; w < d.dim2; ++w)
        for (uint32_t c = 0; c < d.dim1; ++c)
          out[i++] = base[weights ? weights_offset(d, n, h, w, c) : g.offset(n, h, w, c)];
  return out;
}

}  // namespace

static zdnn_status zdnn_quantized_matmul_op_impl(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c,
                                                 zdnn_matmul_ops op_type, const int8_t clip_min, const int8_t clip_max,
                                                 const bool disable_clipping, const bool dequantize,
                                                 const bool pre_computed, void* work_area, zdnn_ztensor* output) {
  static constexpr const char* where = "zdnn_quantized_matmul_op";
  if (!has_descriptors(a) || !has_descriptors(b) || !has_descriptors(c) || !has_descriptors(output))
    return report(ZDNN_INVALID_BUFFER, where, "NULL ztensor or descriptor");
  // A pre-computed bias folds every zero-point term that does not depend on A's rows; Zb's term
  // (Zb * sum of A's row) does, so the library requires Zb = 0 there.
  if (pre_computed && b->offset != 0.0f)
    return report(ZDNN_INVALID_OFFSET, where, "input_b offset must be 0 with pre_computed");
  const bool on_the_fly = a->transformed_desc->type == ZDNN_DLFLOAT16;
  zdnn_status s = check_quantized_operand(a, on_the_fly ? ZDNN_DLFLOAT16 : ZDNN_BINARY_INT8, ZDNN_FORMAT_4DFEATURE);
  if (s == ZDNN_OK) s = check_quantized_operand(b, ZDNN_BINARY_INT8, ZDNN_FORMAT_4DWEIGHTS);
  if (s == ZDNN_OK)
    s = check_quantized_operand(c, pre_computed ? ZDNN_DLFLOAT16 : ZDNN_BINARY_INT8, ZDNN_FORMAT_4DFEATURE);
  if (s == ZDNN_OK) s = check_quantized_operand(output, ZDNN_DLFLOAT16, ZDNN_FORMAT_4DFEATURE);
  if (s != ZDNN_OK) return report(s, where);
  MatmulShape shape;
  if ((s = matmul_shape(*a->transformed_desc, *b->transformed_desc, *c->transformed_desc, *output->transformed_desc,
                        false, false, true, shape)) != ZDNN_OK)
    return report(s, where);
  if (!valid_matmul_op(op_type)) return report(ZDNN_FUNC_RC_F000, where, "invalid op_type");
  if (clip_min >= clip_max) return report(ZDNN_INVALID_CLIPPING_VALUE, where);
  for (const zdnn_ztensor* t : {a, b, c, static_cast<const zdnn_ztensor*>(output)}) {
    if (!valid_scale(t->rec_scale)) return report(ZDNN_INVALID_SCALE, where);
    if (!valid_offset(t->offset)) return report(ZDNN_INVALID_OFFSET, where);
  }
  if (misaligned(work_area)) return report(ZDNN_MISALIGNED_SAVEAREA, where);

  const double sa = 1.0 / a->rec_scale, sb = 1.0 / b->rec_scale, sc = 1.0 / c->rec_scale, sy = 1.0 / output->rec_scale;
  const double za = a->offset, zb = b->offset, zc = c->offset, zy = output->offset;
  std::vector<float> aq;
  const float lo = clip_min, hi = clip_max;
  if (on_the_fly) {  // the zAIU quantizes A itself: round half to even, clip to [clip_min, clip_max]
    aq = load_dense(*a).data;
    for (float& v : aq) v = std::clamp(std::nearbyint(v * a->rec_scale + a->offset), lo, hi);
  } else {
    aq = load_int8(*a);
  }
  const std::vector<float> bq = load_int8(*b);
  const std::vector<float> cv = pre_computed ? load_dense(*c).data : load_int8(*c);
  const uint32_t m = shape.m, n = shape.n, p = shape.p;
  DenseTensor y(shape.stacks, 1, m, p);
  for (uint32_t st = 0; st < shape.stacks; ++st) {
    const float* as = aq.data() + (shape.a_stacked ? st : 0) * static_cast<size_t>(m) * n;
    const float* bs = bq.data() + (shape.b_stacked ? st : 0) * static_cast<size_t>(n) * p;
    const float* cs = cv.data() + (shape.c_stacked ? st : 0) * static_cast<size_t>(p);
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < p; ++j) {
        double dot = 0.0, centred = 0.0;
        for (uint32_t k = 0; k < n; ++k) {
          const double av = as[static_cast<size_t>(i) * n + k], bv = bs[static_cast<size_t>(k) * p + j];
          dot += av * bv;
          centred += (av - za) * (bv - zb);
        }
        double result;
        if (op_type == MATMUL_OP_ADDITION) {
          // y_q leaves the zAIU as DLFLOAT16; unless clipping is disabled it is then rounded (half
          // to even) and clipped to [clip_min, clip_max]; dequantizing gives Sy * (y_q - Zy).
          const double mult = sa * sb / sy;
          const double exact = pre_computed ? mult * dot + cs[j] : mult * centred + (sc / sy) * (cs[j] - zc) + zy;
          float yq = dlf16_round(static_cast<float>(exact));
          if (!disable_clipping) yq = std::clamp(std::nearbyint(yq), lo, hi);
          result = dequantize ? sy * (yq - zy) : yq;
        } else {
          // Pre-computed comparisons compare sum(a_q * b_q) with the bias in that domain; a negative
          // Sa * Sb / Sc turns the inequality round (both sides negated).
          const double sign = pre_computed && sa * sb / sc < 0 ? -1.0 : 1.0;
          const double lhs = pre_computed ? sign * dot : sa * sb * centred;
          const double rhs = pre_computed ? sign * cs[j] : sc * (cs[j] - zc);
          bool truth = false;
          switch (op_type) {
          case MATMUL_OP_GREATER: truth = lhs > rhs; break;
          case MATMUL_OP_GREATER_EQUAL: truth = lhs >= rhs; break;
          case MATMUL_OP_EQUAL: truth = lhs == rhs; break;
          case MATMUL_OP_NOT_EQUAL: truth = lhs != rhs; break;
          case MATMUL_OP_LESSER_EQUAL: truth = lhs <= rhs; break;
          case MATMUL_OP_LESSER: truth = lhs < rhs; break;
          default: break;
          }
          result = truth ? 1.0 : 0.0;
        }
        y.at(st, 0, i, j) = static_cast<float>(result);
      }
  }
  return finish(output, y, where);
}

extern "C" zdnn_status zdnn_quantized_matmul_op(const zdnn_ztensor* a, const zdnn_ztensor* b, const zdnn_ztensor* c,
                                                zdnn_matmul_ops op_type, const int8_t clip_min, const int8_t clip_max,
                                                const bool disable_clipping, const bool dequantize,
                                                const bool pre_computed, void* work_area, zdnn_ztensor* output) {
  return guarded("zdnn_quantized_matmul_op", [&] {
    return zdnn_quantized_matmul_op_impl(a, b, c, op_type, clip_min, clip_max, disable_clipping, dequantize,
                                         pre_computed, work_area, output);
  });
}
