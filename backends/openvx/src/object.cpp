// object.cpp: the object registry, reference counting and logging.
#include "object.hpp"

#include <unordered_set>
#include <vector>

#include "context.hpp"

namespace openvx {
namespace {

std::unordered_set<const void*>& registry() {
    static std::unordered_set<const void*> live;
    return live;
}

void destroy(_vx_reference* ref) {
    ref->release_children();
    registry().erase(ref);
    if (ref->context) ref->context->objects.erase(ref);
    delete ref;
}

void maybe_destroy(_vx_reference* ref) {
    if (ref->external_count == 0 && ref->internal_count == 0) destroy(ref);
}

}  // namespace

std::recursive_mutex& api_mutex() {
    static std::recursive_mutex m;
    return m;
}

void register_object(_vx_reference* ref) {
    registry().insert(ref);
    if (ref->context) ref->context->objects.insert(ref);
}

bool is_valid(const void* ref, vx_enum type) {
    if (ref == nullptr) return false;
    api_lock lock(api_mutex());
    if (registry().count(ref) == 0) return false;
    const auto* r = static_cast<const _vx_reference*>(ref);
    return type == VX_TYPE_REFERENCE || r->type == type;
}

void retain_internal(_vx_reference* ref) {
    if (ref) ++ref->internal_count;
}

void release_internal(_vx_reference* ref) {
    if (!ref || registry().count(ref) == 0 || ref->internal_count == 0) return;
    --ref->internal_count;
    maybe_destroy(ref);
}

vx_status release_external(_vx_reference** ref_ptr, vx_enum type) {
    api_lock lock(api_mutex());
    if (ref_ptr == nullptr || !is_valid(*ref_ptr, type)) return VX_ERROR_INVALID_REFERENCE;
    _vx_reference* ref = *ref_ptr;
    if (ref->external_count == 0) return VX_ERROR_INVALID_REFERENCE;
    --ref->external_count;
    *ref_ptr = nullptr;
    maybe_destroy(ref);
    return VX_SUCCESS;
}

vx_uint32 count_references(vx_context context) {
    return static_cast<vx_uint32>(context->objects.size());
}

void destroy_all(vx_context context) {
    // Children first would be ideal; releasing the children of each object before deleting it
    // keeps every pointer valid, so delete in any order, dropping the internal links first.
    std::vector<_vx_reference*> all(context->objects.begin(), context->objects.end());
    for (_vx_reference* ref : all) {
        if (registry().count(ref)) ref->internal_count += 1;  // pin while unlinking
    }
    for (_vx_reference* ref : all) ref->release_children();
    for (_vx_reference* ref : all) {
        registry().erase(ref);
        context->objects.erase(ref);
        delete ref;
    }
}

void log(_vx_reference* ref, vx_status status, const std::string& message) {
    vx_context context = ref == nullptr                 ? nullptr
                         : ref->type == VX_TYPE_CONTEXT ? static_cast<vx_context>(ref)
                                                        : ref->context;
    if (context == nullptr || context->log_callback == nullptr) return;
    std::string text = message.substr(0, VX_MAX_LOG_MESSAGE_LEN - 1);
    context->log_callback(context, ref, status, text.c_str());
}

}  // namespace openvx

_vx_reference::_vx_reference(vx_enum object_type, vx_context owner)
    : type(object_type), context(owner) {}
