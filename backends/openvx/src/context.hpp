// context.hpp: the context object: its objects, log callback and limits.
#pragma once

#include <unordered_set>

#include "object.hpp"

namespace openvx {
/// Largest number of tensor dimensions (VX_CONTEXT_MAX_TENSOR_DIMENSIONS).
constexpr vx_size max_tensor_dims = 6;
}  // namespace openvx

struct _vx_context : _vx_reference {
    _vx_context() : _vx_reference(VX_TYPE_CONTEXT, nullptr) {}
    std::unordered_set<_vx_reference*> objects;
    vx_log_callback_f log_callback = nullptr;
    bool log_reentrant = false;
};
