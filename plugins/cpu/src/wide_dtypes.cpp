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
    return route_choice{route::reference, TSR_REASON_DTYPE, wide + " has no runtime type"};
}

}  // namespace tessera::plugins::cpu
