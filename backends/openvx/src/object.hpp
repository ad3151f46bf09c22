// object.hpp: the base of every OpenVX object (vx_reference): type, owning context, external and
// internal reference counts, and the registry that validates handles and counts the objects of a
// context (VX_CONTEXT_REFERENCES). Every API entry holds the one library lock while it touches
// objects (graph execution runs outside it).
#pragma once

#include <VX/vx_khr_cnn.h>

#include <mutex>
#include <string>

struct _vx_reference {
    _vx_reference(vx_enum object_type, vx_context owner);
    virtual ~_vx_reference() = default;
    _vx_reference(const _vx_reference&) = delete;
    _vx_reference& operator=(const _vx_reference&) = delete;

    /// Drops the internal references this object holds on others (called once, before deletion).
    virtual void release_children() {}

    vx_enum type;
    vx_context context;  // nullptr for a context itself
    std::string name;
    vx_uint32 external_count = 1;
    vx_uint32 internal_count = 0;
};

namespace openvx {

/// The library lock every API entry takes (recursive: releases cascade).
std::recursive_mutex& api_mutex();
using api_lock = std::lock_guard<std::recursive_mutex>;

/// Registers a newly created object in the registry and its context.
void register_object(_vx_reference* ref);

/// True when `ref` is a live object (of `type` unless type is VX_TYPE_REFERENCE).
bool is_valid(const void* ref, vx_enum type = VX_TYPE_REFERENCE);

/// Casts a handle to its object type after checking it; nullptr when invalid.
template <typename Object>
Object* checked(const void* handle, vx_enum type) {
    return is_valid(handle, type)
               ? static_cast<Object*>(static_cast<_vx_reference*>(const_cast<void*>(handle)))
               : nullptr;
}

void retain_internal(_vx_reference* ref);
void release_internal(_vx_reference* ref);
/// Releases one external reference of *ref_ptr (of `type`) and zeroes the handle.
vx_status release_external(_vx_reference** ref_ptr, vx_enum type);

/// Number of live objects of `context` (VX_CONTEXT_REFERENCES).
vx_uint32 count_references(vx_context context);

/// Destroys every object of `context` still alive (vxReleaseContext).
void destroy_all(vx_context context);

/// Sends a log entry to the context's callback.
void log(_vx_reference* ref, vx_status status, const std::string& message);

/// Copies a fixed-size attribute value into (ptr, size); VX_ERROR_INVALID_PARAMETERS on a size
/// mismatch or null ptr.
template <typename T>
vx_status put(void* ptr, vx_size size, const T& value) {
    if (ptr == nullptr || size != sizeof(T)) return VX_ERROR_INVALID_PARAMETERS;
    *static_cast<T*>(ptr) = value;
    return VX_SUCCESS;
}

}  // namespace openvx
