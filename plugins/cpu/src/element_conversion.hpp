// element_conversion.hpp: converting runs of elements between dtypes and quantisations exactly
// as tessera::reference's reorder does (numeric/convert.hpp: rounding, saturation or wrapping,
// NaN to 0 in integers, 16-bit floats rounded once). Sources of 32 bits or fewer go through a
// double, which holds each of their values exactly, so the result equals the reference's
// extended-precision path; i64 and u64 sources go through a long double, as the reference does.
#pragma once

#include <cstdint>

#include <tessera/numeric/fixed_point.hpp>
#include <tessera/tensor_desc.hpp>

namespace tessera::plugins::cpu {

/// Loads `count` real values (dequantised) read every `step` bytes from `src` into `out`.
template <typename Value>
using load_values_fn = void (*)(const char* src, std::int64_t step, std::int64_t count,
                                const quantization& q, Value* out);

/// Stores `count` real values (quantised, rounded, narrowed) every `step` bytes from `dst`.
template <typename Value>
using store_values_fn = void (*)(const Value* in, char* dst, std::int64_t step, std::int64_t count,
                                 const quantization& q, rounding_policy rounding,
                                 overflow_policy overflow);

class element_conversion {
  public:
    element_conversion(const tensor_desc& from, const tensor_desc& to, rounding_policy rounding,
                       overflow_policy overflow);

    /// Converts `count` elements read every `src_step` elements from `src` into every
    /// `dst_step` elements from `dst` (steps of any sign).
    void run(const void* src, std::int64_t src_step, void* dst, std::int64_t dst_step,
             std::int64_t count) const;

  private:
    template <typename Value>
    void run_through(load_values_fn<Value> load, store_values_fn<Value> store, const char* src,
                     std::int64_t src_step, char* dst, std::int64_t dst_step,
                     std::int64_t count) const;

    quantization from_q_, to_q_;
    rounding_policy rounding_;
    overflow_policy overflow_;
    std::int64_t from_size_, to_size_;
    bool wide_;  // an i64 or u64 source: through long double
    load_values_fn<double> load_ = nullptr;
    store_values_fn<double> store_ = nullptr;
    load_values_fn<long double> load_wide_ = nullptr;
    store_values_fn<long double> store_wide_ = nullptr;
};

}  // namespace tessera::plugins::cpu
