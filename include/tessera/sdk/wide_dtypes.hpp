// tessera/sdk/wide_dtypes.hpp: the decline a backend gives for ops on the dtypes no device runtime
// has (the 64-bit i64 and f64, the unsigned u16, u32 and u64; tessera::is_wide), so no plugin runs
// such a tensor as if it were another dtype.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/dtype.hpp"
#include "tessera/sdk/backend.hpp"
#include "tessera/tensor_desc.hpp"

namespace tessera::sdk {

/// The first tensor of a wide dtype (i64, f64, u16, u32, u64) among `inputs` and `outputs`, as
/// "input 1 (i64)"; empty when none.
inline std::string first_wide_tensor(const std::vector<tensor_desc>& inputs,
                                     const std::vector<tensor_desc>& outputs) {
    const auto find = [](const std::vector<tensor_desc>& ds, const char* role) -> std::string {
        for (std::size_t i = 0; i < ds.size(); ++i)
            if (is_wide(ds[i].type()))
                return std::string(role) + " " + std::to_string(i) + " (" +
                       std::string(to_string(ds[i].type())) + ")";
        return {};
    };
    std::string found = find(inputs, "input");
    return found.empty() ? find(outputs, "output") : found;
}

/// A TSR_REASON_DTYPE decline when the query names a tensor of a wide dtype; nothing otherwise.
inline std::optional<support> decline_wide_dtypes(const op_query& q, std::string_view backend) {
    const std::string wide = first_wide_tensor(q.inputs, q.outputs);
    if (wide.empty()) return std::nullopt;
    return support::declined(TSR_REASON_DTYPE, std::string(q.op.name()) + ": " + wide +
                                                   " is not supported by the " +
                                                   std::string(backend) + " backend");
}

}  // namespace tessera::sdk
