// zdnn_reduce: minimum / maximum (DLFLOAT16 result) or their first index (INT32 result) along dim1.
#include <cmath>
#include <cstring>

#include "op_support.hpp"
#include "stick_layout.hpp"

using namespace tessera::zdnn;

static zdnn_status zdnn_reduce_impl(const zdnn_ztensor* input, void* save_area, zdnn_reduce_ops op_type,
                                    zdnn_ztensor* output) {
  static constexpr const char* where = "zdnn_reduce";
  if (zdnn_status s = check_operands({input}); s != ZDNN_OK) return report(s, where);
  if (!has_descriptors(output)) return report(ZDNN_INVALID_BUFFER, where);
  if (misaligned(save_area)) return report(ZDNN_MISALIGNED_SAVEAREA, where);
  if (op_type < REDUCE_OP_MINIMUM || op_type > REDUCE_OP_MAXIMUM_IDX) return report(ZDNN_FUNC_RC_F000, where);
  const bool want_index = op_type == REDUCE_OP_MINIMUM_IDX || op_type == REDUCE_OP_MAXIMUM_IDX;
  const bool want_max = op_type == REDUCE_OP_MAXIMUM || op_type == REDUCE_OP_MAXIMUM_IDX;
  const zdnn_tensor_desc& od = *output->transformed_desc;
  if (od.format != ZDNN_FORMAT_4DFEATURE) return report(ZDNN_INVALID_FORMAT, where);
  if (od.type != (want_index ? ZDNN_BINARY_INT32 : ZDNN_DLFLOAT16)) return report(ZDNN_INVALID_TYPE, where);
  if (zdnn_status s = check_transformed_desc(&od); s != ZDNN_OK) return report(s, where);
  if (zdnn_status s = check_buffer(output); s != ZDNN_OK) return report(s, where);
  const zdnn_tensor_desc& d = *input->transformed_desc;
  if (!has_dims(output, d.dim4, d.dim3, d.dim2, 1)) return report(ZDNN_INVALID_SHAPE, where);
  const DenseTensor x = load_dense(*input);
  DenseTensor best(d.dim4, d.dim3, d.dim2, 1);
  std::vector<int32_t> index(best.data.size());
  bool nonnumeric = false;
  for (size_t row = 0; row < best.data.size(); ++row) {
    const float* v = x.data.data() + row * d.dim1;
    float b = v[0];
    int32_t at = 0;
    for (uint32_t i = 0; i < d.dim1; ++i) {
      nonnumeric |= std::isnan(v[i]);
      if (want_max ? v[i] > b : v[i] < b) {
        b = v[i];
        at = static_cast<int32_t>(i);
      }
    }
    best.data[row] = b;
    index[row] = at;
  }
  if (!want_index) {
    const zdnn_status s = finish(output, best, where);
    return nonnumeric ? report(ZDNN_ELEMENT_RANGE_VIOLATION, where) : s;
  }
  const FeatureGeometry g = feature_geometry(od);
  auto* base = static_cast<unsigned char*>(output->buffer);
  std::memset(base, 0, g.size_bytes());
  for (uint32_t n = 0; n < od.dim4; ++n)
    for (uint32_t h = 0; h < od.dim3; ++h)
      for (uint32_t w = 0; w < od.dim2; ++w)
        std::memcpy(base + g.offset(n, h, w, 0), &index[(static_cast<size_t>(n) * od.dim3 + h) * od.dim2 + w], 4);
  output->is_transformed = true;
  return nonnumeric ? report(ZDNN_ELEMENT_RANGE_VIOLATION, where) : ZDNN_OK;
}

extern "C" zdnn_status zdnn_reduce(const zdnn_ztensor* input, void* save_area, zdnn_reduce_ops op_type,
                                   zdnn_ztensor* output) {
  return guarded("zdnn_reduce", [&] { return zdnn_reduce_impl(input, save_area, op_type, output); });
}
