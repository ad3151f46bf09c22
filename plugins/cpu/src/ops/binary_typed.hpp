// ops/binary_typed.hpp: the forms of op::binary the runtime's ElementwiseBinary lacks (every
// dtype but f32, scaled alpha / beta, the gamma * C term), in the plugin's own typed loops.
#pragma once

#include <memory>

#include "../program.hpp"

namespace tessera::plugins::cpu {

/// Whether the runtime's ElementwiseBinary computes `b` on `in` (unscaled f32 A op B).
bool runtime_binary_form(const op::binary& b, const descs& in);

/// The step computing `o` in the plugin's typed broadcast loops (any dtype and form).
std::unique_ptr<step> typed_binary_step(const op::binary& o, const build_context& b);

}  // namespace tessera::plugins::cpu
