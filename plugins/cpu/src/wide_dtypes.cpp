// wide_dtypes.cpp: the cpu backend's route for ops on i64, f64, u16, u32 and u64
// tensors.
#include "wide_dtypes.hpp"

#include <string>
#include <variant>

#include <tessera/sdk/wide_dtypes.hpp>

namespace tessera::plugins::cpu {

std::optional<route_choice> wide_dtype_route(const op_desc& o, const descs& in, const descs& out) {
    const std::string wide = sdk::first_wide_tensor(in, out);
    if (wide.empty()) return std::nullopt;
    const auto& v = o.variant();
    // Element moves by size (ops/data_movement.cpp, ops/gather_elements.cpp) and the custom
    // op's own rule.
    if (std::holds_alternative<op::reshape>(v) || std::holds_alternative<op::permute>(v) ||
        std::holds_alternative<op::gather_elements>(v) || std::holds_alternative<op::custom>(v))
        return std::nullopt;
    // Element-wise ops typed on every element type (ops/binary.cpp, unary.cpp, compare.cpp,
    // logical.cpp, where.cpp, activation.cpp, fill.cpp).
    if (std::holds_alternative<op::binary>(v) || std::holds_alternative<op::unary>(v) ||
        std::holds_alternative<op::compare>(v) || std::holds_alternative<op::logical>(v) ||
        std::holds_alternative<op::where>(v) || std::holds_alternative<op::activation>(v) ||
        std::holds_alternative<op::fill>(v))
        return std::nullopt;
    // Reductions, scans and top-k computed in the reference's precision (ops/reduce.cpp,
    // cumsum.cpp, topk.cpp).
    if (std::holds_alternative<op::reduce>(v) || std::holds_alternative<op::cumsum>(v) ||
        std::holds_alternative<op::topk>(v))
        return std::nullopt;
    if (std::holds_alternative<op::matmul>(v)) return std::nullopt;  // in double (ops/matmul.cpp)
    // Data movement and dtype conversions, by element size or exactly as the reference converts
    // (ops/reorder.cpp, slice.cpp, gather.cpp, concat.cpp, expand_tile.cpp, pad.cpp,
    // depth_to_space.cpp, data_movement.cpp).
    if (std::holds_alternative<op::reorder>(v) || std::holds_alternative<op::slice>(v) ||
        std::holds_alternative<op::gather>(v) || std::holds_alternative<op::concat>(v) ||
        std::holds_alternative<op::expand>(v) || std::holds_alternative<op::tile>(v) ||
        std::holds_alternative<op::pad>(v) || std::holds_alternative<op::depth_to_space>(v) ||
        std::holds_alternative<op::transpose>(v) || std::holds_alternative<op::resize_bilinear>(v))
        return std::nullopt;
    return route_choice{route::reference, TSR_REASON_DTYPE, wide + " has no runtime type"};
}

}  // namespace tessera::plugins::cpu
