// wide_dtypes.hpp: how the cpu backend runs ops on the wide dtypes (i64, f64, u16, u32,
// u64), which its runtime has no type for. Data movement moves elements by size; element-wise
// ops, reductions, scans, top-k, matmul, fill and resize_bilinear compute in the reference's
// precision in the plugin's own loops; custom ops keep their own rule. The other compute ops
// (convolution, pooling, softmax, the normalisations) on such tensors run on the reference
// kernels inside the plugin (reported emulated, reason TSR_REASON_DTYPE).
#pragma once

#include <optional>

#include "program.hpp"

namespace tessera::plugins::cpu {

/// The route for op `o` on tensors `in` -> `out` when one of them has a wide dtype; nothing when
/// none is or when the op's own rule handles them (reshape, permute, custom).
std::optional<route_choice> wide_dtype_route(const op_desc& o, const descs& in, const descs& out);

}  // namespace tessera::plugins::cpu
