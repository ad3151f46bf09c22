// tessera/reference/compute_common.hpp: helpers of the compute reference kernels: whole-tensor
// loads into doubles, policy-aware stores, fused activations and OpenVX fixed-point products.
#pragma once

#include "tessera/reference/activation_function.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/c/ops.h"
#include "tessera/numeric/convert.hpp"
#include "tessera/numeric/fixed_point.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference::compute_detail {

/// Address of the i-th element of a row-major tensor.
inline void* element(const tensor& t, std::int64_t i) {
    return static_cast<char*>(t.data()) + i * static_cast<std::int64_t>(size_of(t.type()));
}

/// Real (dequantised) values of a row-major tensor.
inline std::vector<double> real_values(const tensor& t) {
    std::vector<double> v(static_cast<std::size_t>(t.num_elements()));
    const quantization q = t.desc().quant();
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        v[static_cast<std::size_t>(i)] = numeric::load_real(t.type(), q, element(t, i));
    return v;
}

/// Real values of a row-major tensor in extended precision (exact for i64).
inline std::vector<long double> real_values_wide(const tensor& t) {
    std::vector<long double> v(static_cast<std::size_t>(t.num_elements()));
    const quantization q = t.desc().quant();
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        v[static_cast<std::size_t>(i)] = numeric::load_real_wide(t.type(), q, element(t, i));
    return v;
}

/// Stored values of a row-major tensor (integers not dequantised).
inline std::vector<double> raw_values(const tensor& t) {
    std::vector<double> v(static_cast<std::size_t>(t.num_elements()));
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        v[static_cast<std::size_t>(i)] = numeric::load_raw(t.type(), element(t, i));
    return v;
}

/// Stores a real value with the given policies (quantising for integer outputs).
inline void store_real(const tensor& t, std::int64_t i, double v,
                       rounding_policy rounding = rounding_policy::to_nearest_even,
                       overflow_policy overflow = overflow_policy::saturate) {
    numeric::store_real(t.type(), t.desc().quant(), element(t, i), v, rounding, overflow);
}

/// Stores a real value given in extended precision (i64 exact) with the given policies.
inline void store_real_wide(const tensor& t, std::int64_t i, long double v,
                            rounding_policy rounding = rounding_policy::to_nearest_even,
                            overflow_policy overflow = overflow_policy::saturate) {
    numeric::store_real_wide(t.type(), t.desc().quant(), element(t, i), v, rounding, overflow);
}

/// Real value of a raw (stored) value of `t`'s dtype and quantisation.
inline double real_of_raw(const tensor_desc& d, double raw) {
    switch (d.type()) {
        case dtype::i8:
        case dtype::u8:
            return static_cast<double>(d.quant().scale) * (raw - d.quant().zero_point);
        case dtype::i16:
            return std::ldexp(raw, -d.quant().fixed_point_pos);
        default:
            return raw;
    }
}

/// True when `a` and `b` store values the same way (dtype and quantisation).
inline bool same_encoding(const tensor_desc& a, const tensor_desc& b) {
    return a.type() == b.type() && a.quant().scale == b.quant().scale &&
           a.quant().zero_point == b.quant().zero_point &&
           a.quant().fixed_point_pos == b.quant().fixed_point_pos;
}

/// Stores a statistic (max, mean, ...) computed on src's raw values: directly (rounded with
/// `rounding`, saturated) when the output stores values like src, else through the real value.
inline void store_raw_statistic(const tensor_desc& src, const tensor& out, std::int64_t i,
                                double raw, rounding_policy rounding) {
    if (same_encoding(src, out.desc())) {
        numeric::store_raw(out.type(), element(out, i), raw, rounding, overflow_policy::saturate);
    } else {
        store_real(out, i, real_of_raw(src, raw), rounding);
    }
}

/// Fused activations use the activation op's own definition.
using tessera::reference::activate;

/// PReLU slope values ([C] or [1]) as a per-channel accessor.
struct slope_table {
    std::vector<double> values;
    double operator[](std::int64_t c) const {
        if (values.empty()) return 0.0;
        return values.size() == 1 ? values[0] : values[static_cast<std::size_t>(c)];
    }
};

/// OpenVX provisional fixed-point product: raw_x * raw_w carries `shift` more fraction bits than
/// the output; it is rescaled, rounded with `rounding` and narrowed to 16 bits with `overflow`.
inline std::int64_t fixed_product(std::int64_t raw_x, std::int64_t raw_w, int shift,
                                  rounding_policy rounding, overflow_policy overflow) {
    const double scaled = std::ldexp(static_cast<double>(raw_x * raw_w), -shift);
    return numeric::to_integer<std::int16_t>(scaled, rounding, overflow);
}

/// Converts a raw fixed-point value with `from` fraction bits to `to` fraction bits (rounded).
inline std::int64_t rescale_fixed(double raw, int from, int to, rounding_policy rounding) {
    return static_cast<std::int64_t>(numeric::round_with(std::ldexp(raw, to - from), rounding));
}

/// Writes an i16 fixed-point accumulator (at the output position `out_pos`): narrowed with
/// `overflow`, then, when an activation is fused, activated on its real value and stored again.
inline void store_fixed(const tensor& out, std::int64_t i, std::int64_t acc, int out_pos,
                        const activation_spec& act, double slope, rounding_policy rounding,
                        overflow_policy overflow) {
    const std::int16_t narrowed = numeric::narrow_with<std::int16_t>(acc, overflow);
    const double real = std::ldexp(static_cast<double>(narrowed), -out_pos);
    if (out.type() == dtype::i16 && out.desc().quant().fixed_point_pos == out_pos &&
        act.kind == activation_kind::none) {
        numeric::store_raw(dtype::i16, element(out, i), narrowed);
        return;
    }
    store_real(out, i, activate(act, real, slope), rounding, overflow);
}

}  // namespace tessera::reference::compute_detail
