// context.cpp: vxCreateContext / vxReleaseContext / vxQueryContext, the generic reference
// functions (retain, release, query, status, name) and the log.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "context.hpp"
#include "object.hpp"

using namespace openvx;

namespace {
constexpr char implementation_name[] = "tessera.openvx";
constexpr char extensions[] = OPENVX_KHR_CNN;
}  // namespace

VX_API_ENTRY vx_context VX_API_CALL vxCreateContext(void) {
    api_lock lock(api_mutex());
    auto* context = new _vx_context();
    register_object(context);
    return context;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseContext(vx_context* context) {
    api_lock lock(api_mutex());
    if (context == nullptr || !is_valid(*context, VX_TYPE_CONTEXT)) {
        return VX_ERROR_INVALID_REFERENCE;
    }
    vx_context c = *context;
    if (c->external_count > 1) {
        --c->external_count;
        *context = nullptr;
        return VX_SUCCESS;
    }
    destroy_all(c);
    vx_reference ref = c;
    *context = nullptr;
    return release_external(&ref, VX_TYPE_CONTEXT);
}

VX_API_ENTRY vx_context VX_API_CALL vxGetContext(vx_reference reference) {
    api_lock lock(api_mutex());
    if (!is_valid(reference)) return nullptr;
    if (reference->type == VX_TYPE_CONTEXT) return static_cast<vx_context>(reference);
    return reference->context;
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryContext(vx_context context, vx_enum attribute, void* ptr,
                                                  vx_size size) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_CONTEXT_VENDOR_ID:
            return put<vx_uint16>(ptr, size, VX_ID_KHRONOS);
        case VX_CONTEXT_VERSION:
            return put<vx_uint16>(ptr, size, VX_VERSION);
        case VX_CONTEXT_UNIQUE_KERNELS:
            return put<vx_uint32>(ptr, size, 11);
        case VX_CONTEXT_MODULES:
            return put<vx_uint32>(ptr, size, 0);
        case VX_CONTEXT_REFERENCES:
            return put<vx_uint32>(ptr, size, count_references(context));
        case VX_CONTEXT_IMPLEMENTATION:
            if (ptr == nullptr || size < sizeof(implementation_name)) {
                return VX_ERROR_INVALID_PARAMETERS;
            }
            std::memcpy(ptr, implementation_name, sizeof(implementation_name));
            return VX_SUCCESS;
        case VX_CONTEXT_EXTENSIONS_SIZE:
            return put<vx_size>(ptr, size, sizeof(extensions));
        case VX_CONTEXT_EXTENSIONS:
            if (ptr == nullptr || size < sizeof(extensions)) return VX_ERROR_INVALID_PARAMETERS;
            std::memcpy(ptr, extensions, sizeof(extensions));
            return VX_SUCCESS;
        case VX_CONTEXT_MAX_TENSOR_DIMENSIONS:
            return put<vx_size>(ptr, size, max_tensor_dims);
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_status VX_API_CALL vxGetStatus(vx_reference reference) {
    if (reference == nullptr) return VX_ERROR_NO_RESOURCES;
    return is_valid(reference) ? VX_SUCCESS : VX_ERROR_INVALID_REFERENCE;
}

VX_API_ENTRY vx_status VX_API_CALL vxRetainReference(vx_reference ref) {
    api_lock lock(api_mutex());
    if (!is_valid(ref)) return VX_ERROR_INVALID_REFERENCE;
    ++ref->external_count;
    return VX_SUCCESS;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseReference(vx_reference* ref_ptr) {
    api_lock lock(api_mutex());
    if (ref_ptr == nullptr || !is_valid(*ref_ptr)) return VX_ERROR_INVALID_REFERENCE;
    if ((*ref_ptr)->type == VX_TYPE_CONTEXT) {
        auto* context = static_cast<vx_context>(*ref_ptr);
        const vx_status s = vxReleaseContext(&context);
        if (s == VX_SUCCESS) *ref_ptr = nullptr;
        return s;
    }
    return release_external(ref_ptr, (*ref_ptr)->type);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryReference(vx_reference ref, vx_enum attribute, void* ptr,
                                                    vx_size size) {
    api_lock lock(api_mutex());
    if (!is_valid(ref)) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_REFERENCE_COUNT:
            return put<vx_uint32>(ptr, size, ref->external_count);
        case VX_REFERENCE_TYPE:
            return put<vx_enum>(ptr, size, ref->type);
        case VX_REFERENCE_NAME:
            return put<const vx_char*>(ptr, size, ref->name.c_str());
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_status VX_API_CALL vxSetReferenceName(vx_reference ref, const vx_char* name) {
    api_lock lock(api_mutex());
    if (!is_valid(ref)) return VX_ERROR_INVALID_REFERENCE;
    ref->name = name ? std::string(name).substr(0, VX_MAX_REFERENCE_NAME - 1) : std::string();
    return VX_SUCCESS;
}

VX_API_ENTRY void VX_API_CALL vxRegisterLogCallback(vx_context context, vx_log_callback_f callback,
                                                    vx_bool reentrant) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return;
    context->log_callback = callback;
    context->log_reentrant = reentrant == vx_true_e;
}

VX_API_ENTRY void VX_API_CALL vxAddLogEntry(vx_reference ref, vx_status status, const char* message,
                                            ...) {
    api_lock lock(api_mutex());
    if (!is_valid(ref) || message == nullptr || status == VX_SUCCESS) return;
    char text[VX_MAX_LOG_MESSAGE_LEN];
    va_list args;
    va_start(args, message);
    std::vsnprintf(text, sizeof(text), message, args);
    va_end(args);
    log(ref, status, text);
}
