// scalar_lut.cpp: vx_scalar and vx_lut.
#include <cstring>
#include <string>

#include "context.hpp"
#include "data_objects.hpp"

using namespace openvx;

namespace {

vx_size scalar_size(vx_enum type) {
    switch (type) {
        case VX_TYPE_CHAR:
        case VX_TYPE_INT8:
        case VX_TYPE_UINT8:
            return 1;
        case VX_TYPE_INT16:
        case VX_TYPE_UINT16:
            return 2;
        case VX_TYPE_INT32:
        case VX_TYPE_UINT32:
        case VX_TYPE_FLOAT32:
        case VX_TYPE_ENUM:
        case VX_TYPE_DF_IMAGE:
        case VX_TYPE_BOOL:
            return 4;
        case VX_TYPE_INT64:
        case VX_TYPE_UINT64:
        case VX_TYPE_FLOAT64:
        case VX_TYPE_SIZE:
            return 8;
        default:
            return 0;
    }
}

template <typename T>
double read_as(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return static_cast<double>(v);
}

}  // namespace

double _vx_scalar::as_double() const {
    switch (data_type) {
        case VX_TYPE_INT8:
            return read_as<vx_int8>(value);
        case VX_TYPE_UINT8:
            return read_as<vx_uint8>(value);
        case VX_TYPE_INT16:
            return read_as<vx_int16>(value);
        case VX_TYPE_UINT16:
            return read_as<vx_uint16>(value);
        case VX_TYPE_INT32:
            return read_as<vx_int32>(value);
        case VX_TYPE_UINT32:
            return read_as<vx_uint32>(value);
        case VX_TYPE_FLOAT32:
            return read_as<vx_float32>(value);
        case VX_TYPE_FLOAT64:
            return read_as<vx_float64>(value);
        default:
            return 0.0;
    }
}

VX_API_ENTRY vx_scalar VX_API_CALL vxCreateScalar(vx_context context, vx_enum data_type,
                                                  const void* ptr) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return nullptr;
    const vx_size size = scalar_size(data_type);
    if (size == 0) {
        log(context, VX_ERROR_INVALID_TYPE,
            "vxCreateScalar: data_type " + std::to_string(data_type) + " is not a scalar type");
        return nullptr;
    }
    auto* s = new _vx_scalar(context);
    s->data_type = data_type;
    if (ptr) std::memcpy(s->value, ptr, size);
    register_object(s);
    return s;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseScalar(vx_scalar* scalar) {
    return release_external(reinterpret_cast<_vx_reference**>(scalar), VX_TYPE_SCALAR);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryScalar(vx_scalar scalar, vx_enum attribute, void* ptr,
                                                 vx_size size) {
    api_lock lock(api_mutex());
    auto* s = checked<_vx_scalar>(scalar, VX_TYPE_SCALAR);
    if (s == nullptr) return VX_ERROR_INVALID_REFERENCE;
    if (attribute != VX_SCALAR_TYPE) return VX_ERROR_NOT_SUPPORTED;
    return put<vx_enum>(ptr, size, s->data_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyScalar(vx_scalar scalar, void* user_ptr, vx_enum usage,
                                                vx_enum user_mem_type) {
    api_lock lock(api_mutex());
    auto* s = checked<_vx_scalar>(scalar, VX_TYPE_SCALAR);
    if (s == nullptr) return VX_ERROR_INVALID_REFERENCE;
    if (user_ptr == nullptr || user_mem_type != VX_MEMORY_TYPE_HOST) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    const vx_size size = scalar_size(s->data_type);
    if (usage == VX_READ_ONLY) {
        std::memcpy(user_ptr, s->value, size);
    } else if (usage == VX_WRITE_ONLY) {
        std::memcpy(s->value, user_ptr, size);
    } else {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    return VX_SUCCESS;
}

VX_API_ENTRY vx_lut VX_API_CALL vxCreateLUT(vx_context context, vx_enum data_type, vx_size count) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return nullptr;
    const vx_size max_count = data_type == VX_TYPE_INT16 ? 65536 : 256;
    if (data_type != VX_TYPE_INT16 && data_type != VX_TYPE_UINT8) {
        log(context, VX_ERROR_INVALID_TYPE,
            "vxCreateLUT: data_type must be VX_TYPE_UINT8 or VX_TYPE_INT16");
        return nullptr;
    }
    if (count == 0 || count > max_count) {
        log(context, VX_ERROR_INVALID_PARAMETERS,
            "vxCreateLUT: count " + std::to_string(count) + " is outside 1.." +
                std::to_string(max_count));
        return nullptr;
    }
    auto* l = new _vx_lut(context);
    l->data_type = data_type;
    l->count = count;
    l->offset = data_type == VX_TYPE_INT16 ? static_cast<vx_uint32>(count / 2) : 0;
    l->memory.assign(count * (data_type == VX_TYPE_INT16 ? 2 : 1), 0);
    register_object(l);
    return l;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseLUT(vx_lut* lut) {
    return release_external(reinterpret_cast<_vx_reference**>(lut), VX_TYPE_LUT);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryLUT(vx_lut lut, vx_enum attribute, void* ptr,
                                              vx_size size) {
    api_lock lock(api_mutex());
    auto* l = checked<_vx_lut>(lut, VX_TYPE_LUT);
    if (l == nullptr) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_LUT_TYPE:
            return put<vx_enum>(ptr, size, l->data_type);
        case VX_LUT_COUNT:
            return put<vx_size>(ptr, size, l->count);
        case VX_LUT_SIZE:
            return put<vx_size>(ptr, size, l->memory.size());
        case VX_LUT_OFFSET:
            return put<vx_uint32>(ptr, size, l->offset);
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyLUT(vx_lut lut, void* user_ptr, vx_enum usage,
                                             vx_enum user_mem_type) {
    api_lock lock(api_mutex());
    auto* l = checked<_vx_lut>(lut, VX_TYPE_LUT);
    if (l == nullptr) return VX_ERROR_INVALID_REFERENCE;
    if (user_ptr == nullptr || user_mem_type != VX_MEMORY_TYPE_HOST) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (usage == VX_READ_ONLY) {
        std::memcpy(user_ptr, l->memory.data(), l->memory.size());
    } else if (usage == VX_WRITE_ONLY) {
        std::memcpy(l->memory.data(), user_ptr, l->memory.size());
    } else {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    return VX_SUCCESS;
}
