// tessera/detail/index.hpp: multi-index iteration over a shape, used by host reorders and the
// reference backend.
#pragma once

#include <array>
#include <cstdint>

#include "tessera/shape.hpp"

namespace tessera::detail {

using index_t = std::array<std::int64_t, max_dims>;

/// Calls fn(index) for every multi-index of `dims` in row-major order.
template <typename Fn>
void for_each_index(const shape& dims, Fn&& fn) {
    const int r = dims.rank();
    if (dims.num_elements() == 0) return;
    index_t idx{};
    for (;;) {
        fn(static_cast<const index_t&>(idx));
        int d = r - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

}  // namespace tessera::detail
