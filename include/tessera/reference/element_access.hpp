// tessera/reference/element_access.hpp: helpers of the reference kernels of the element-wise
// and data-movement ops: broadcast indexing, raw element copies, integer stores with explicit
// rounding and overflow policies in extended precision.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "tessera/detail/index.hpp"
#include "tessera/numeric/convert.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference::detail {

using tessera::detail::index_t;

/// Reads the element of `t` that broadcasts (numpy rules: dims aligned from the right, extent-1
/// dims repeat) to a multi-index of a rank-`out_rank` result. Built once per kernel call.
class broadcast_reader {
  public:
    broadcast_reader(const tensor& t, int out_rank)
        : base_(static_cast<const char*>(t.data())),
          type_(t.type()),
          quant_(t.desc().quant()),
          size_(static_cast<std::int64_t>(size_of(t.type()))),
          rank_(out_rank) {
        const shape dims = t.dims();
        const int off = out_rank - dims.rank();
        for (int i = 0; i < dims.rank(); ++i)
            strides_[i + off] = dims[i] == 1 ? 0 : t.desc().stride(i);
    }
    const void* address(const index_t& out_idx) const {
        std::int64_t e = 0;
        for (int i = 0; i < rank_; ++i) e += out_idx[i] * strides_[i];
        return base_ + e * size_;
    }
    /// Real value in extended precision (exact for i64).
    long double load(const index_t& out_idx) const {
        return numeric::load_real_wide(type_, quant_, address(out_idx));
    }

  private:
    const char* base_;
    dtype type_;
    quantization quant_;
    std::int64_t size_;
    int rank_;
    index_t strides_{};  // element strides per output dim, 0 where broadcast
};

/// Whether two tensors store values identically (dtype and quantisation).
inline bool same_storage(const tensor& a, const tensor& b) {
    const quantization qa = a.desc().quant(), qb = b.desc().quant();
    return a.type() == b.type() && qa.scale == qb.scale && qa.zero_point == qb.zero_point &&
           qa.fixed_point_pos == qb.fixed_point_pos;
}

/// Copies one element: raw bytes when both store values alike, else through its real value.
inline void copy_element(const tensor& src, const index_t& si, const tensor& dst,
                         const index_t& di) {
    if (same_storage(src, dst)) {
        std::memcpy(dst.address_of(di), src.address_of(si), size_of(src.type()));
    } else {
        numeric::store_real_wide(
            dst.type(), dst.desc().quant(), dst.address_of(di),
            numeric::load_real_wide(src.type(), src.desc().quant(), src.address_of(si)));
    }
}

/// Real value of one element.
inline double load(const tensor& t, const index_t& idx) {
    return numeric::load_real(t.type(), t.desc().quant(), t.address_of(idx));
}

/// Real value of one element in extended precision (exact for i64).
inline long double load_wide(const tensor& t, const index_t& idx) {
    return numeric::load_real_wide(t.type(), t.desc().quant(), t.address_of(idx));
}

/// An element of an i32 or i64 index tensor.
inline std::int64_t load_index(const tensor& t, const index_t& idx) {
    if (t.type() == dtype::i64) {
        std::int64_t v;
        std::memcpy(&v, t.address_of(idx), sizeof v);
        return v;
    }
    std::int32_t v;
    std::memcpy(&v, t.address_of(idx), sizeof v);
    return v;
}

/// Narrows an integer-valued long double to Int with the overflow policy.
template <typename Int>
Int narrow(long double r, overflow_policy overflow) {
    constexpr long double two63 = 9223372036854775808.0L, two64 = 2.0L * two63;
    if (overflow == overflow_policy::wrap && std::isfinite(r)) {
        // Reduced modulo 2^64 first (exact), which keeps the residue modulo 2^n of every Int.
        r = std::fmod(r, two64);
        if (r >= two63) r -= two64;
        if (r < -two63) r += two64;
        return numeric::narrow_with<Int>(static_cast<std::int64_t>(r), overflow);
    }
    constexpr long double big = 9.0e18L;
    const auto wide = static_cast<std::int64_t>(r < -big ? -big : (r > big ? big : r));
    return numeric::narrow_with<Int>(wide, overflow);
}

/// Stores a real value computed in extended precision: floating dtypes as f32/f16/...,
/// i64 and u64 exactly, the other integer dtypes quantised (i8/u8 scale and zero point, i16 fixed
/// point), rounded with `rounding` and narrowed with `overflow`; NaN stores 0 into integers.
inline void store(const tensor& t, const index_t& idx, long double real,
                  rounding_policy rounding = rounding_policy::to_nearest_even,
                  overflow_policy overflow = overflow_policy::saturate) {
    const dtype type = t.type();
    void* p = t.address_of(idx);
    if (!is_integer(type) || is_int64_class(type)) {
        numeric::store_real_wide(type, t.desc().quant(), p, real, rounding, overflow);
        return;
    }
    const quantization q = t.desc().quant();
    long double raw = real;
    if (type == dtype::i8 || type == dtype::u8) raw = real / q.scale + q.zero_point;
    if (type == dtype::i16) raw = std::ldexp(real, q.fixed_point_pos);
    if (std::isnan(raw)) raw = 0;
    raw = rounding == rounding_policy::to_zero ? std::trunc(raw) : std::nearbyint(raw);
    switch (type) {
        case dtype::i8: {
            auto v = narrow<std::int8_t>(raw, overflow);
            std::memcpy(p, &v, 1);
            return;
        }
        case dtype::u8: {
            auto v = narrow<std::uint8_t>(raw, overflow);
            std::memcpy(p, &v, 1);
            return;
        }
        case dtype::i16: {
            auto v = narrow<std::int16_t>(raw, overflow);
            std::memcpy(p, &v, 2);
            return;
        }
        case dtype::i32: {
            auto v = narrow<std::int32_t>(raw, overflow);
            std::memcpy(p, &v, 4);
            return;
        }
        case dtype::u16: {
            auto v = narrow<std::uint16_t>(raw, overflow);
            std::memcpy(p, &v, 2);
            return;
        }
        case dtype::u32: {
            auto v = narrow<std::uint32_t>(raw, overflow);
            std::memcpy(p, &v, 4);
            return;
        }
        default:
            return;
    }
}

}  // namespace tessera::reference::detail
