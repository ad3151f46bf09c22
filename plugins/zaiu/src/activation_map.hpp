// activation_map.hpp: which Tessera activations the zAIU computes, and the zDNN call for each
// (relu with optional clipping, leaky relu, tanh, sigmoid, gelu in its tanh form).
#pragma once

#include <optional>
#include <string>

#include <zdnn.h>

#include "tessera/c/ops.h"
#include "tessera/ops/activation.hpp"

namespace tessera::plugins::zaiu {

struct zdnn_activation {
    enum class fn { relu, leaky_relu, tanh, sigmoid, gelu } kind = fn::relu;
    float clip = 0.0f;    ///< relu / leaky relu clipping value; 0 = none
    float factor = 0.0f;  ///< leaky relu adjustment factor
};

/// The zDNN form of `spec`, or nothing with the reason in `why`. activation_kind::none maps to
/// nothing with an empty reason.
std::optional<zdnn_activation> map_activation(const activation_spec& spec, std::string& why);

/// The zDNN form of an activation op: its spec with the op's clipping_value folded into the
/// relu / leaky relu clipping (other kinds with a clipping value: nothing, reason in `why`).
/// propagate_nan is handled by the step (activation_step in steps_elementwise.cpp).
std::optional<zdnn_activation> map_activation_op(const tessera::op::activation& a,
                                                 std::string& why);

/// Runs the activation from `in` to `out` (same transformed shape).
zdnn_status apply_activation(const zdnn_activation& a, const zdnn_ztensor* in, zdnn_ztensor* out);

}  // namespace tessera::plugins::zaiu
