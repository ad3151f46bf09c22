// tessera/ops/shape_rules.hpp: shape helpers shared by the element-wise and data-movement ops:
// numpy broadcasting, negative axes, dtype and quantisation agreement.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "tessera/ops/validate.hpp"

namespace tessera::op {

/// Numpy broadcast of two shapes (dims aligned from the right; each pair equal or one is 1).
/// Labels come from whichever operand has the dim. Fails naming `tensor_b` and the dim.
inline shape broadcast_shapes(const checker& check, const shape& a, const shape& b,
                              std::string_view tensor_b) {
    const int r = a.rank() > b.rank() ? a.rank() : b.rank();
    shape out;
    for (int i = 0; i < r; ++i) {
        const int ia = i - (r - a.rank());
        const int ib = i - (r - b.rank());
        const std::int64_t da = ia >= 0 ? a[ia] : 1;
        const std::int64_t db = ib >= 0 ? b[ib] : 1;
        if (da != db && da != 1 && db != 1) {
            check.fail(tensor_b, "dim " + std::to_string(ib) + " is " + std::to_string(db) +
                                     ", not broadcastable against " + std::to_string(da) +
                                     " (shapes " + a.to_string() + " and " + b.to_string() + ")");
        }
        const dim_label la = ia >= 0 ? a.label(ia) : dim_label::any;
        const dim_label lb = ib >= 0 ? b.label(ib) : dim_label::any;
        out.push_back(da == 1 ? db : da, la != dim_label::any ? la : lb);
    }
    return out;
}

/// Checks that `d` broadcasts to `target` without changing it (unidirectional broadcast).
inline void check_broadcasts_to(const checker& check, std::string_view tensor, const shape& d,
                                const shape& target) {
    if (d.rank() > target.rank()) {
        check.fail(tensor, "rank is " + std::to_string(d.rank()) +
                               ", must be <= " + std::to_string(target.rank()) +
                               " to broadcast to " + target.to_string());
    }
    const int off = target.rank() - d.rank();
    for (int i = 0; i < d.rank(); ++i) {
        if (d[i] != 1 && d[i] != target[i + off]) {
            check.fail(tensor, "dim " + std::to_string(i) + " is " + std::to_string(d[i]) +
                                   ", must be 1 or " + std::to_string(target[i + off]) +
                                   " to broadcast to " + target.to_string());
        }
    }
}

/// Resolves a possibly negative axis against `rank`; fails when out of range.
inline int normalize_axis(const checker& check, std::string_view what, int axis, int rank) {
    if (axis < -rank || axis >= rank) {
        check.fail("", std::string(what) + " " + std::to_string(axis) +
                           " is out of range for rank " + std::to_string(rank));
    }
    return axis < 0 ? axis + rank : axis;
}

/// Checks that `d` has a known dtype (rejects undef and out-of-range values) and, for i8 and u8,
/// a finite positive quantisation scale.
inline void check_valid_type(const checker& check, std::string_view tensor, const tensor_desc& d) {
    if (!is_valid(d.type())) {
        check.fail(tensor,
                   "dtype value " + std::to_string(static_cast<int>(d.type())) + " is not valid");
    }
    const float scale = d.quant().scale;
    if ((d.type() == dtype::i8 || d.type() == dtype::u8) &&
        !(std::isfinite(scale) && scale > 0.0f)) {
        check.fail(tensor,
                   "quantisation scale " + std::to_string(scale) + " must be finite and > 0");
    }
}

/// Checks that `d` has the dtype and quantisation of `like` (raw element moves need both).
inline void check_same_storage(const checker& check, std::string_view tensor, const tensor_desc& d,
                               const tensor_desc& like) {
    check.same_type(tensor, d, like);
    const quantization a = d.quant(), b = like.quant();
    const bool relevant = d.type() == dtype::i8 || d.type() == dtype::u8 || d.type() == dtype::i16;
    if (relevant && (a.scale != b.scale || a.zero_point != b.zero_point ||
                     a.fixed_point_pos != b.fixed_point_pos)) {
        check.fail(tensor, "quantisation differs from the first input's");
    }
}

/// Checks that every dim of `d` is >= 0.
inline void check_non_negative_dims(const checker& check, std::string_view tensor,
                                    const tensor_desc& d) {
    for (int i = 0; i < d.rank(); ++i) {
        if (d.dim(i) < 0) {
            check.fail(tensor, "dim " + std::to_string(i) + " is " + std::to_string(d.dim(i)) +
                                   ", must be >= 0");
        }
    }
}

/// Checks a bool field holds 0 or 1.
inline void check_flag(const checker& check, std::string_view what, std::int32_t value) {
    if (value != 0 && value != 1) {
        check.fail("", std::string(what) + " is " + std::to_string(value) + ", must be 0 or 1");
    }
}

}  // namespace tessera::op
