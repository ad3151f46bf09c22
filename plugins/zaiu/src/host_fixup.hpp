// host_fixup.hpp: element-wise corrections the zAIU cannot compute, applied to a result in
// sticks through the public transforms (zdnn_transform_origtensor to fp32, edit, transform
// back): requantisation (round half to even, clip) of quantized_matmul outputs and the NaN
// policy of activations with propagate_nan = 0. Exact: the edited values are DLFLOAT16 values,
// integers in [-128, 127] or zero.
#pragma once

#include <cstdint>
#include <functional>

#include "tessera/sdk/backend.hpp"
#include "tessera/tensor.hpp"

namespace tessera::plugins::zaiu {

/// Reads the sticks of `b` (described by `desc`) as f32 values in logical row-major order.
tessera::tensor read_sticks(tessera::sdk::buffer& b, const tessera::tensor_desc& desc);

/// Reads the sticks of `b`, applies `edit` to each f32 value (with its row-major index) and
/// writes them back.
void edit_sticks(tessera::sdk::buffer& b, const tessera::tensor_desc& desc,
                 const std::function<float(float, std::int64_t)>& edit);

}  // namespace tessera::plugins::zaiu
