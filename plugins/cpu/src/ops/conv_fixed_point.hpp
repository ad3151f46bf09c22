// ops/conv_fixed_point.hpp: conv2d on i16 fixed-point tensors in the plugin's own integer loops
// (OpenVX per-product rounding, as the reference computes it), routed from the conv2d rules.
#pragma once

#include <memory>

#include "ops.hpp"

namespace tessera::plugins::cpu {

/// The step of a direct (not transposed) conv2d whose input is i16, on row-major tensors.
std::unique_ptr<step> make_fixed_point_conv_step(const build_context& b, const op::conv2d& c);

}  // namespace tessera::plugins::cpu
