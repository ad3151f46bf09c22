// row_major.hpp: the geometry of a row-major tensor that the op steps set up from: an axis
// resolved against the rank, the element strides, and the dims split around one axis (outer,
// the axis, inner).
#pragma once

#include <array>
#include <cstdint>

#include "program.hpp"

namespace tessera::plugins::cpu {

/// `axis` (negative counts from the end) resolved against `rank`.
inline int resolved_axis(int axis, int rank) {
    return axis < 0 ? axis + rank : axis;
}

/// Row-major strides of `d`, in elements.
inline std::array<std::int64_t, TSR_MAX_DIMS> row_major_strides(const tensor_desc& d) {
    std::array<std::int64_t, TSR_MAX_DIMS> s{};
    std::int64_t step = 1;
    for (int k = d.rank() - 1; k >= 0; --k) {
        s[static_cast<std::size_t>(k)] = step;
        step *= d.dim(k);
    }
    return s;
}

/// A row-major tensor seen as [outer, length, inner] around one axis: the product of the dims
/// before it, its extent and the product of the dims after it.
struct axis_split {
    std::int64_t outer = 1, length = 1, inner = 1;

    std::int64_t count() const { return outer * length * inner; }
};

/// `d` split around `axis` (negative counts from the end).
inline axis_split split_at_axis(const tensor_desc& d, int axis) {
    const int a = resolved_axis(axis, d.rank());
    axis_split s;
    for (int k = 0; k < d.rank(); ++k) (k < a ? s.outer : k == a ? s.length : s.inner) *= d.dim(k);
    return s;
}

}  // namespace tessera::plugins::cpu
