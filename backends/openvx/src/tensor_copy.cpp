// tensor_copy.cpp: vxCopyTensorPatch, a strided copy between a tensor patch and user memory.
#include <cstring>
#include <string>

#include "tensor.hpp"

using namespace openvx;

namespace {

vx_status fail(_vx_reference* where, vx_status status, const std::string& message) {
    log(where, status, "vxCopyTensorPatch: " + message);
    return status;
}

}  // namespace

VX_API_ENTRY vx_status VX_API_CALL vxCopyTensorPatch(vx_tensor tensor, vx_tensor_view view,
                                                     vx_tensor_addressing user_addr, void* user_ptr,
                                                     vx_enum usage, vx_enum user_mem_type) {
    api_lock lock(api_mutex());
    auto* t = checked<_vx_tensor_t>(tensor, VX_TYPE_TENSOR);
    if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
    if (t->is_virtual) {
        return fail(t, VX_ERROR_OPTIMIZED_AWAY, "tensor is virtual: no access from outside");
    }
    const std::size_t rank = t->dims.size();
    std::vector<vx_size> start(rank, 0), extent = t->dims;
    if (view != nullptr) {
        auto* v = checked<_vx_tensor_view_t>(view, VX_TYPE_TENSOR_VIEW);
        if (v == nullptr) return fail(t, VX_ERROR_INVALID_PARAMETERS, "view is not a tensor view");
        if (v->start.size() != rank) {
            return fail(t, VX_ERROR_INVALID_PARAMETERS,
                        "view has " + std::to_string(v->start.size()) + " dimensions, the tensor " +
                            std::to_string(rank));
        }
        for (std::size_t d = 0; d < rank; ++d) {
            if (v->end[d] > t->dims[d]) {
                return fail(t, VX_ERROR_INVALID_PARAMETERS,
                            "view end of dim " + std::to_string(d) + " exceeds the tensor");
            }
            start[d] = v->start[d];
            extent[d] = v->end[d] - v->start[d];
        }
    }
    auto* a = checked<_vx_tensor_addressing_t>(user_addr, VX_TYPE_TENSOR_ADDRESSING);
    if (a == nullptr) {
        return fail(t, VX_ERROR_INVALID_PARAMETERS, "user_addr is not a tensor addressing");
    }
    if (a->dims.size() != rank) {
        return fail(t, VX_ERROR_INVALID_PARAMETERS,
                    "user_addr has " + std::to_string(a->dims.size()) + " dimensions, the patch " +
                        std::to_string(rank));
    }
    for (std::size_t d = 0; d < rank; ++d) {
        if (a->dims[d] != extent[d]) {
            return fail(t, VX_ERROR_INVALID_PARAMETERS,
                        "user_addr dimension " + std::to_string(d) + " is " +
                            std::to_string(a->dims[d]) + ", the patch " +
                            std::to_string(extent[d]));
        }
    }
    if (user_ptr == nullptr) return fail(t, VX_ERROR_INVALID_PARAMETERS, "user_ptr is NULL");
    if (usage != VX_READ_ONLY && usage != VX_WRITE_ONLY) {
        return fail(t, VX_ERROR_INVALID_PARAMETERS, "usage must be VX_READ_ONLY or VX_WRITE_ONLY");
    }
    if (user_mem_type != VX_MEMORY_TYPE_HOST) {
        return fail(t, VX_ERROR_INVALID_PARAMETERS, "user_mem_type must be VX_MEMORY_TYPE_HOST");
    }
    const vx_size esize = t->element_size;
    std::uint8_t* base = t->data();
    for (std::size_t d = 0; d < rank; ++d) base += start[d] * t->strides[d];
    auto* user = static_cast<std::uint8_t*>(user_ptr);
    const bool inner_contiguous = t->strides[0] == esize && a->strides[0] == esize;
    const vx_size run = inner_contiguous ? extent[0] : 1;
    std::vector<vx_size> idx(rank, 0);
    for (;;) {
        std::size_t tensor_off = 0, user_off = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            tensor_off += idx[d] * t->strides[d];
            user_off += idx[d] * a->strides[d];
        }
        if (usage == VX_READ_ONLY) {
            std::memcpy(user + user_off, base + tensor_off, run * esize);
        } else {
            std::memcpy(base + tensor_off, user + user_off, run * esize);
        }
        // Odometer step over the dimensions `run` does not cover.
        std::size_t d = 1;
        if (!inner_contiguous) {
            if (++idx[0] < extent[0]) continue;
            idx[0] = 0;
        }
        for (; d < rank; ++d) {
            if (++idx[d] < extent[d]) break;
            idx[d] = 0;
        }
        if (d == rank) break;
    }
    if (usage == VX_WRITE_ONLY) t->mark_written();
    return VX_SUCCESS;
}
