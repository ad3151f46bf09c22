// tessera/reference/compare.hpp: reference kernels of op::compare, op::logical and op::where
// (numpy broadcasting through broadcast_reader; comparisons on real values in extended
// precision, so i64 compares exactly).
#pragma once

#include <cstring>
#include <vector>

#include "tessera/ops/compare.hpp"
#include "tessera/reference/element_access.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

/// a op b; any comparison with NaN is false.
inline bool compare_apply(compare_kind op, long double a, long double b) {
    switch (op) {
        case compare_kind::equal:
            return a == b;
        case compare_kind::less:
            return a < b;
        case compare_kind::less_equal:
            return a <= b;
        case compare_kind::greater:
            return a > b;
        case compare_kind::greater_equal:
            return a >= b;
    }
    return false;
}

namespace detail {
inline void store_bool(const tensor& t, const index_t& idx, bool v) {
    const std::uint8_t b = v ? 1 : 0;
    std::memcpy(t.address_of(idx), &b, 1);
}
}  // namespace detail

inline void run(const op::compare& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& dst = out[0];
    const int rank = dst.desc().rank();
    const compare_kind kind = op.kind();
    const detail::broadcast_reader a(in[0], rank), b(in[1], rank);
    tessera::detail::for_each_index(dst.dims(), [&](const detail::index_t& idx) {
        detail::store_bool(dst, idx, compare_apply(kind, a.load(idx), b.load(idx)));
    });
}

inline void run(const op::logical& op, const std::vector<tensor>& in,
                const std::vector<tensor>& out) {
    const tensor& dst = out[0];
    const int rank = dst.desc().rank();
    const logical_kind kind = op.kind();
    const detail::broadcast_reader a(in[0], rank), b(in.size() > 1 ? in[1] : in[0], rank);
    tessera::detail::for_each_index(dst.dims(), [&](const detail::index_t& idx) {
        const bool x = a.load(idx) != 0.0L;
        bool r = !x;
        if (kind == logical_kind::and_) r = x && b.load(idx) != 0.0L;
        if (kind == logical_kind::or_) r = x || b.load(idx) != 0.0L;
        if (kind == logical_kind::xor_) r = x != (b.load(idx) != 0.0L);
        detail::store_bool(dst, idx, r);
    });
}

inline void run(const op::where&, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    const tensor& dst = out[0];
    const int rank = dst.desc().rank();
    const detail::broadcast_reader c(in[0], rank), x(in[1], rank), y(in[2], rank);
    const std::size_t size = size_of(dst.type());
    const bool raw = detail::same_storage(in[1], dst) && detail::same_storage(in[2], dst);
    tessera::detail::for_each_index(dst.dims(), [&](const detail::index_t& idx) {
        const detail::broadcast_reader& pick = c.load(idx) != 0.0L ? x : y;
        if (raw) {
            std::memcpy(dst.address_of(idx), pick.address(idx), size);
        } else {
            detail::store(dst, idx, pick.load(idx));
        }
    });
}

}  // namespace tessera::reference
