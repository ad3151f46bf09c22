// case_support.hpp: what one conformance case is (an op, a named form and inputs), the random
// shapes and values the case generators draw from, and the generators. Values are
// DLFLOAT16-exact so every backend sees the same numbers the reference does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <tessera/numeric/dlfloat16.hpp>
#include <tessera/tessera.hpp>
#include <tessera/plugin/backend.hpp>
#include <tessera/reference/execute.hpp>

namespace conformance {

using namespace tessera;

struct conformance_case {
    std::string op;    ///< the op family, e.g. "gemm", "binary add"
    std::string form;  ///< the broadcast form, e.g. "C [N] (row)"
    op_desc desc;
    std::vector<tensor> inputs;
    int roundings = 1;  ///< rounded steps on a low-precision backend (tolerance multiplier)
};

using case_list = std::vector<conformance_case>;

/// The random source of one generator run (fixed seeds: failures reproduce).
class draw {
  public:
    explicit draw(std::uint32_t seed) : rng_(seed) {}

    std::int64_t dim(std::int64_t lo = 2, std::int64_t hi = 7) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
    }
    int pick(int count) { return std::uniform_int_distribution<int>(0, count - 1)(rng_); }
    shape dims(int rank, std::int64_t lo = 2, std::int64_t hi = 7) {
        std::vector<std::int64_t> v;
        for (int i = 0; i < rank; ++i) v.push_back(dim(lo, hi));
        return shape(v.begin(), v.end());
    }

    /// f32 values uniform in [lo, hi], rounded through DLFLOAT16.
    tensor values(const shape& s, float lo = -1.0f, float hi = 1.0f) {
        tensor t(tensor_desc(s, dtype::f32));
        std::uniform_real_distribution<float> u(lo, hi);
        for (std::int64_t i = 0; i < t.num_elements(); ++i)
            t.data_as<float>()[i] = numeric::dlfloat16_to_f32(numeric::f32_to_dlfloat16(u(rng_)));
        return t;
    }

    /// f32 values of magnitude in [lo, hi] with a random sign per element.
    tensor signed_values(const shape& s, float lo, float hi) {
        tensor t = values(s, lo, hi);
        for (std::int64_t i = 0; i < t.num_elements(); ++i)
            if (pick(2)) t.data_as<float>()[i] = -t.data_as<float>()[i];
        return t;
    }

    /// Stored u8 or i8 values in [lo, hi] (with optional quantisation parameters).
    tensor integers(const shape& s, dtype type, int lo, int hi, const quantization& q = {}) {
        tensor t(tensor_desc(s, type, layout::row_major(), q));
        std::uniform_int_distribution<int> u(lo, hi);
        for (std::int64_t i = 0; i < t.num_elements(); ++i) {
            if (type == dtype::u8)
                t.data_as<std::uint8_t>()[i] = static_cast<std::uint8_t>(u(rng_));
            else
                t.data_as<std::int8_t>()[i] = static_cast<std::int8_t>(u(rng_));
        }
        return t;
    }

    /// f32 multiples of `step` with integer factors in [lo, hi].
    tensor multiples(const shape& s, float step, int lo, int hi) {
        tensor t(tensor_desc(s, dtype::f32));
        std::uniform_int_distribution<int> u(lo, hi);
        for (std::int64_t i = 0; i < t.num_elements(); ++i)
            t.data_as<float>()[i] = step * static_cast<float>(u(rng_));
        return t;
    }

  private:
    std::mt19937 rng_;
};

/// "[2, 3, 4]".
inline std::string text(const shape& s) {
    return s.to_string();
}

/// `s` with dim `i` replaced by `v`.
inline shape with_dim(const shape& s, int i, std::int64_t v) {
    std::vector<std::int64_t> d(s.begin(), s.end());
    d[static_cast<std::size_t>(i)] = v;
    return shape(d.begin(), d.end());
}

/// `t`'s values stored as `type` with `q` (converted as the reference converts).
inline tensor retyped(const tensor& t, dtype type, const quantization& q = {}) {
    tensor out(tensor_desc(t.dims(), type, layout::row_major(), q));
    tensor::copy_elements(t, out);
    return out;
}

/// The last `n` dims of `s`.
inline shape trailing(const shape& s, int n) {
    std::vector<std::int64_t> d(s.end() - n, s.end());
    return shape(d.begin(), d.end());
}

/// `base` once per non-f32 dtype its op admits (f16, bf16, quantised i8 and u8, Q8 i16, i32):
/// every f32 input is converted, and the dtypes the op's descriptor rejects are left out.
void add_dtype_forms(case_list& cases, const conformance_case& base);

// Generators, one per op family (cases_*.cpp). Each returns every form (broadcast, geometry,
// mode, dtype) the op's descriptor admits, `repeats` random shapes per form.
case_list binary_cases(draw& d, int repeats);
case_list prelu_cases(draw& d, int repeats);
case_list data_cases(draw& d, int repeats);  // concat, table_lookup, norm
case_list gemm_cases(draw& d, int repeats);
case_list matmul_cases(draw& d, int repeats);
case_list quantized_matmul_cases(draw& d, int repeats);
case_list fully_connected_cases(draw& d, int repeats);
case_list conv2d_cases(draw& d, int repeats);
case_list batchnorm_cases(draw& d, int repeats);
case_list layer_norm_cases(draw& d, int repeats);
case_list conv2d_geometry_cases(draw& d, int repeats);  // strides, padding, dilation, groups
case_list pooling_cases(draw& d, int repeats);
case_list lrn_cases(draw& d, int repeats);         // and mean_reduce2d
case_list activation_cases(draw& d, int repeats);  // every kind, unary, clipping, NaN
case_list softmax_cases(draw& d, int repeats);
case_list reduction_cases(draw& d, int repeats);  // reduce, moments
case_list layout_cases(draw& d, int repeats);     // permute, transpose, reshape, depth_to_space
case_list resize_pad_fill_cases(draw& d, int repeats);  // resize_bilinear, pad, fill, reorder
case_list rnn_cases(draw& d, int repeats);              // lstm, gru
case_list dtype_cases(draw& d, int repeats);            // every family in every admitted dtype
case_list selection_cases(draw& d, int repeats);        // compare, logical, where
case_list indexing_cases(draw& d, int repeats);         // slice, gather, expand, tile
case_list scan_cases(draw& d, int repeats);  // cumsum, topk, index reductions' select_last_index

}  // namespace conformance
