// element_moves.hpp: elements moved as unsigned integers of their size (1, 2, 4 or 8 bytes),
// whatever their dtype, as the data-movement and indexing steps move them: the test for such an
// element, the route of an op that needs nothing more, and the dispatch from an element size to
// the unsigned integer that carries it.
#pragma once

#include <cstdint>

#include "program.hpp"

namespace tessera::plugins::cpu {

/// Whether elements of `d` can be moved as unsigned integers of their size.
inline bool movable_by_size(const tensor_desc& d) {
    const std::size_t s = size_of(d.type());
    return s == 1 || s == 2 || s == 4 || s == 8;
}

/// The route of an op moving elements of `d` by their size: native when they can be, otherwise
/// the reference kernel.
inline route_choice element_size_route(const tensor_desc& d) {
    if (!movable_by_size(d)) return {route::reference, TSR_REASON_ATTRIBUTE, "element size"};
    return {route::native_plain, TSR_REASON_NONE, {}};
}

/// Returns f(Bits{}) with Bits the unsigned integer of `size` bytes (1, 2, 4, else 8), which
/// carries any element of that size.
template <typename F>
decltype(auto) with_element_bits(std::size_t size, F&& f) {
    switch (size) {
        case 1:
            return f(std::uint8_t{});
        case 2:
            return f(std::uint16_t{});
        case 4:
            return f(std::uint32_t{});
        default:
            return f(std::uint64_t{});
    }
}

}  // namespace tessera::plugins::cpu
