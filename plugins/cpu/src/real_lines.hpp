// real_lines.hpp: element values of any dtype as the reference kernels see them (real values:
// quantised and fixed-point integers dequantised, 16-bit floats decoded), loaded and stored a run
// of elements at a time for the plugin's own reduction, scan and softmax loops. The values are
// held in the reference's precision (real_of: long double for i64 and u64, double otherwise) and
// stored with the reference's rounding, so the loops that add and compare them in the same
// order give the reference's results bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include <tessera/numeric/convert.hpp>
#include <tessera/tensor_desc.hpp>

namespace tessera::plugins::cpu {

/// The element type and encoding of a tensor, and the address of its first element.
struct element_run {
    dtype type = dtype::f32;
    quantization quant;

    std::int64_t element_size() const { return static_cast<std::int64_t>(size_of(type)); }
};

inline element_run run_of(const tensor_desc& d) {
    return {d.type(), d.quant()};
}

/// Whether the reference computes on `t`'s values in long double (i64 and u64: exact).
inline bool wide_reals(dtype t) {
    return is_int64_class(t);
}

/// Returns f(Real{}) with Real the type the reference computes `t`'s values in: long double
/// where wide_reals(t), else double.
template <typename F>
decltype(auto) with_reals_of(dtype t, F&& f) {
    if (wide_reals(t)) return f(static_cast<long double>(0));
    return f(0.0);
}

namespace real_lines_detail {

template <typename Stored, typename Real, typename Decode>
void gather(const void* base, std::int64_t first, std::int64_t count, std::int64_t stride,
            Real* out, Decode decode) {
    const Stored* p = static_cast<const Stored*>(base) + first;
    if (stride == 1) {
        for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<Real>(decode(p[i]));
    } else {
        for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<Real>(decode(p[i * stride]));
    }
}

template <typename T>
T same(T v) {
    return v;
}

}  // namespace real_lines_detail

/// Loads `count` real values of the tensor at `base`, elements first, first + stride, ... into
/// `out` (Real: double, or long double for i64 and u64), as numeric::load_real(_wide) does.
template <typename Real>
void load_reals(const element_run& e, const void* base, std::int64_t first, std::int64_t count,
                std::int64_t stride, Real* out) {
    namespace d = real_lines_detail;
    const auto scaled = [&](double raw) {
        return static_cast<double>(e.quant.scale) * (raw - e.quant.zero_point);
    };
    switch (e.type) {
        case dtype::f32:
            return d::gather<float>(base, first, count, stride, out, d::same<float>);
        case dtype::f64:
            return d::gather<double>(base, first, count, stride, out, d::same<double>);
        case dtype::i32:
            return d::gather<std::int32_t>(base, first, count, stride, out, d::same<std::int32_t>);
        case dtype::i8:
            return d::gather<std::int8_t>(base, first, count, stride, out,
                                          [&](std::int8_t v) { return scaled(v); });
        case dtype::u8:
            return d::gather<std::uint8_t>(base, first, count, stride, out,
                                           [&](std::uint8_t v) { return scaled(v); });
        case dtype::i16: {
            const int pos = e.quant.fixed_point_pos;
            return d::gather<std::int16_t>(base, first, count, stride, out, [pos](std::int16_t v) {
                return std::ldexp(static_cast<double>(v), -pos);
            });
        }
        case dtype::u16:
            return d::gather<std::uint16_t>(base, first, count, stride, out,
                                            d::same<std::uint16_t>);
        case dtype::u32:
            return d::gather<std::uint32_t>(base, first, count, stride, out,
                                            d::same<std::uint32_t>);
        case dtype::f16:
            return d::gather<std::uint16_t>(base, first, count, stride, out, numeric::f16_to_f32);
        case dtype::bf16:
            return d::gather<std::uint16_t>(base, first, count, stride, out, numeric::bf16_to_f32);
        case dtype::dlfloat16:
            return d::gather<std::uint16_t>(base, first, count, stride, out,
                                            numeric::dlfloat16_to_f32);
        default:  // i64, u64 (exact in long double), bool
            for (std::int64_t i = 0; i < count; ++i) {
                const void* p =
                    static_cast<const char*>(base) + (first + i * stride) * e.element_size();
                out[i] = static_cast<Real>(numeric::load_real_wide(e.type, e.quant, p));
            }
            return;
    }
}

/// Stores `count` real values from `in` into elements first, first + stride, ... of the tensor
/// at `base`, rounded once as numeric::store_real_wide does (integers with `rounding`,
/// saturating).
template <typename Real>
void store_reals(const element_run& e, void* base, std::int64_t first, std::int64_t count,
                 std::int64_t stride, const Real* in,
                 rounding_policy rounding = rounding_policy::to_nearest_even) {
    if constexpr (std::is_same_v<Real, double>) {
        if (e.type == dtype::f32) {  // a double rounds to f32 once: store_real_wide's result
            float* p = static_cast<float*>(base) + first;
            for (std::int64_t i = 0; i < count; ++i) p[i * stride] = static_cast<float>(in[i]);
            return;
        }
        if (e.type == dtype::f64) {
            double* p = static_cast<double*>(base) + first;
            for (std::int64_t i = 0; i < count; ++i) p[i * stride] = in[i];
            return;
        }
    }
    for (std::int64_t i = 0; i < count; ++i) {
        void* p = static_cast<char*>(base) + (first + i * stride) * e.element_size();
        numeric::store_real_wide(e.type, e.quant, p, static_cast<long double>(in[i]), rounding);
    }
}

}  // namespace tessera::plugins::cpu
