// tessera/xtensor.hpp: zero-copy interop with xtensor (0.24+), both ways.
//   as_xtensor<T>(t)   an xt::xarray_adaptor over a dense t's memory, shape and strides (no copy)
//   as_xtensor_strided<T>(t)  the same as an xt::strided_view, for slices with gaps too (no copy)
//   borrow(container)  a tessera::tensor over an xtensor container's memory (no copy; dense only)
//   to_tensor(expr)    evaluates any xtensor expression into a new owning tensor (a copy)
// Only code that includes this header needs xtensor; tessera::tessera itself does not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xexpression.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xutils.hpp>

#include "tessera/error.hpp"
#include "tessera/tensor.hpp"

namespace tessera {

namespace detail {

/// The dtype that stores C++ type T, or undef: float, int8/uint8/int16/int32 and bool.
template <typename T>
constexpr dtype xtensor_dtype() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, float>)
        return dtype::f32;
    else if constexpr (std::is_same_v<U, std::int8_t>)
        return dtype::i8;
    else if constexpr (std::is_same_v<U, std::uint8_t>)
        return dtype::u8;
    else if constexpr (std::is_same_v<U, std::int16_t>)
        return dtype::i16;
    else if constexpr (std::is_same_v<U, std::int32_t>)
        return dtype::i32;
    else if constexpr (std::is_same_v<U, std::int64_t>)
        return dtype::i64;
    else if constexpr (std::is_same_v<U, double>)
        return dtype::f64;
    else if constexpr (std::is_same_v<U, std::uint32_t>)
        return dtype::u32;
    else if constexpr (std::is_same_v<U, std::uint64_t>)
        return dtype::u64;
    else if constexpr (std::is_same_v<U, bool>)
        return dtype::boolean;
    else
        return dtype::undef;
}

/// Shape of an xtensor expression as a tessera shape (rank checked).
template <typename Shape>
shape to_shape(const Shape& xs) {
    if (xs.size() > static_cast<std::size_t>(max_dims)) {
        throw error(status::invalid_argument, "xtensor rank " + std::to_string(xs.size()) +
                                                  " exceeds " + std::to_string(max_dims));
    }
    return shape(xs.begin(), xs.end());
}

}  // namespace detail

/// A zero-copy xtensor view of `t`: an xt::xarray_adaptor with t's memory, shape and strides;
/// writes are visible both ways. T must be t's storage type (float for f32, std::uint16_t for
/// the 16-bit floats, ...); const T gives a read-only view. t must be dense (any dimension
/// order, e.g. NHWC, and any offset): xtensor treats a container's storage as exactly its
/// elements. For slices with gaps use as_xtensor_strided. t's memory must outlive the view.
template <typename T>
auto as_xtensor(const tensor& t) {
    T* data = t.data_as<T>();  // throws on a type mismatch
    const tensor_desc& d = t.desc();
    if (!d.is_dense()) {
        throw error(status::invalid_argument,
                    "as_xtensor needs a dense tensor, got " + d.to_string() +
                        "; use as_xtensor_strided for slices with gaps, or clone() first");
    }
    std::vector<std::size_t> extents;
    std::vector<std::ptrdiff_t> strides;
    for (int i = 0; i < d.rank(); ++i) {
        extents.push_back(static_cast<std::size_t>(d.dim(i)));
        strides.push_back(static_cast<std::ptrdiff_t>(d.stride(i)));
    }
    const auto count = static_cast<std::size_t>(d.num_elements());
    // An rvalue pointer: the adaptor keeps it by value (an lvalue would be kept by reference).
    return xt::adapt(std::move(data), count, xt::no_ownership(), std::move(extents),
                     std::move(strides));
}

/// A zero-copy xtensor view of any host tensor, slices with gaps included: an xt::strided_view
/// with t's shape, strides and offset over an adaptor of the memory it spans. Same rules as
/// as_xtensor otherwise.
template <typename T>
auto as_xtensor_strided(const tensor& t) {
    T* data = t.data_as<T>();  // throws on a type mismatch
    const tensor_desc& d = t.desc();
    std::vector<std::size_t> extents;
    std::vector<std::ptrdiff_t> strides;
    std::size_t span = d.num_elements() > 0 ? 1 : 0;
    for (int i = 0; i < d.rank(); ++i) {
        if (d.stride(i) < 0)
            throw error(status::invalid_argument, "as_xtensor_strided: negative strides");
        extents.push_back(static_cast<std::size_t>(d.dim(i)));
        strides.push_back(static_cast<std::ptrdiff_t>(d.stride(i)));
        if (d.dim(i) > 0) span += static_cast<std::size_t>((d.dim(i) - 1) * d.stride(i));
    }
    auto memory =
        xt::adapt(std::move(data), span, xt::no_ownership(), std::vector<std::size_t>{span});
    return xt::strided_view(std::move(memory), std::move(extents), std::move(strides),
                            std::size_t{0}, xt::layout_type::dynamic);
}

/// A tensor over the memory of an xtensor container (or strided view of one) without copying;
/// the container must outlive the tensor and must not be resized meanwhile. Any dense layout
/// (row-major, column-major, permuted) is accepted; gaps, overlaps and negative strides are not:
/// copy those with to_tensor. `type` is deduced from the element type (float -> f32, int8 ->
/// i8, ...); pass it for std::uint16_t bit patterns (f16, bf16, dlfloat16) or uint8 bools.
template <typename E>
tensor borrow(xt::xexpression<E>& expression, dtype type = dtype::undef,
              const quantization& q = {}) {
    static_assert(xt::has_data_interface<E>::value && xt::has_strides<E>::value,
                  "tessera::borrow needs an xtensor container or strided view; use "
                  "tessera::to_tensor to copy");
    E& e = expression.derived_cast();
    using value_type = std::remove_reference_t<decltype(*e.data())>;
    if (type == dtype::undef) type = detail::xtensor_dtype<value_type>();
    if (type == dtype::undef) {
        throw error(status::invalid_argument,
                    "no tessera dtype is deduced from this element type; pass one");
    }
    const shape dims = detail::to_shape(e.shape());
    const std::vector<std::int64_t> strides(e.strides().begin(), e.strides().end());
    for (const auto s : strides) {
        if (s < 0) {
            throw error(status::invalid_argument,
                        "cannot borrow an xtensor expression with negative strides; copy it with "
                        "tessera::to_tensor");
        }
    }
    const tensor_desc desc(dims, type, layout::strided(strides.data(), strides.size()), q);
    if (!desc.is_dense()) {
        throw error(status::invalid_argument,
                    "cannot borrow a non-contiguous xtensor expression (" + desc.to_string() +
                        "); copy it with tessera::to_tensor");
    }
    tensor t = tensor::borrow(
        desc, const_cast<std::remove_const_t<value_type>*>(e.data() + e.data_offset()));
    (void)t.data_as<std::remove_const_t<value_type>>();  // throws when `type` is not stored as
                                                         // value_type
    return t;
}

/// Evaluates an xtensor expression into a new, owning, row-major tensor: always a copy. The
/// element type is T, or the expression's value type when T is void.
template <typename T = void, typename E>
tensor to_tensor(const xt::xexpression<E>& expression, const quantization& q = {}) {
    const E& e = expression.derived_cast();
    using value_type =
        std::conditional_t<std::is_void_v<T>, std::remove_cv_t<typename E::value_type>, T>;
    constexpr dtype type = detail::xtensor_dtype<value_type>();
    static_assert(type != dtype::undef,
                  "tessera::to_tensor: element type has no tessera dtype; use "
                  "to_tensor<float>(expr) or similar");
    tensor out(tensor_desc(detail::to_shape(e.shape()), type, layout::row_major(), q));
    auto target = as_xtensor<value_type>(out);
    xt::noalias(target) = xt::cast<value_type>(e);
    return out;
}

}  // namespace tessera
