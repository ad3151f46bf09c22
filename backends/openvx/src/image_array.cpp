// image_array.cpp: images viewing tensor planes, object arrays and
// vxCreateImageObjectArrayFromTensor.
#include <string>

#include "data_objects.hpp"

using namespace openvx;

void _vx_image::release_children() {
    release_internal(tensor);
    tensor = nullptr;
}

void _vx_object_array::release_children() {
    for (_vx_reference* item : items) release_internal(item);
    items.clear();
}

VX_API_ENTRY vx_object_array VX_API_CALL
vxCreateImageObjectArrayFromTensor(vx_tensor tensor, vx_rectangle_t rect, vx_uint32 array_size,
                                   vx_uint32 stride, vx_df_image image_format) {
    api_lock lock(api_mutex());
    auto* t = checked<_vx_tensor_t>(tensor, VX_TYPE_TENSOR);
    if (t == nullptr) return nullptr;
    const auto fail = [&](vx_status status, const std::string& message) -> vx_object_array {
        log(t, status, "vxCreateImageObjectArrayFromTensor: " + message);
        return nullptr;
    };
    if (t->dims.size() != 3 || !t->shape_known()) {
        return fail(VX_ERROR_INVALID_DIMENSION, "tensor must have 3 known dimensions");
    }
    const vx_df_image expected = t->data_type == VX_TYPE_UINT8   ? VX_DF_IMAGE_U8
                                 : t->data_type == VX_TYPE_INT16 ? VX_DF_IMAGE_S16
                                                                 : VX_DF_IMAGE_VIRT;
    if (image_format != expected) {
        return fail(VX_ERROR_INVALID_FORMAT,
                    "image_format does not match the tensor's data type (VX_DF_IMAGE_U8 for "
                    "VX_TYPE_UINT8, VX_DF_IMAGE_S16 for VX_TYPE_INT16)");
    }
    if (rect.start_x >= rect.end_x || rect.start_y >= rect.end_y || rect.end_x > t->dims[0] ||
        rect.end_y > t->dims[1]) {
        return fail(VX_ERROR_INVALID_PARAMETERS, "rect is empty or outside the tensor's W x H");
    }
    if (array_size == 0 || stride == 0 ||
        static_cast<vx_size>(array_size - 1) * stride >= t->dims[2]) {
        return fail(VX_ERROR_INVALID_PARAMETERS, "array_size " + std::to_string(array_size) +
                                                     " with stride " + std::to_string(stride) +
                                                     " does not fit the tensor's " +
                                                     std::to_string(t->dims[2]) + " planes");
    }
    auto* array = new _vx_object_array(t->context);
    array->item_type = VX_TYPE_IMAGE;
    register_object(array);
    array->external_count = 1;
    for (vx_uint32 i = 0; i < array_size; ++i) {
        auto* image = new _vx_image(t->context);
        image->width = rect.end_x - rect.start_x;
        image->height = rect.end_y - rect.start_y;
        image->format = image_format;
        image->tensor = t;
        retain_internal(t);
        image->offset = rect.start_x * t->strides[0] + rect.start_y * t->strides[1] +
                        static_cast<vx_size>(i) * stride * t->strides[2];
        image->external_count = 0;
        image->internal_count = 1;
        register_object(image);
        array->items.push_back(image);
    }
    return array;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseImage(vx_image* image) {
    return release_external(reinterpret_cast<_vx_reference**>(image), VX_TYPE_IMAGE);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryImage(vx_image image, vx_enum attribute, void* ptr,
                                                vx_size size) {
    api_lock lock(api_mutex());
    auto* im = checked<_vx_image>(image, VX_TYPE_IMAGE);
    if (im == nullptr) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_IMAGE_WIDTH:
            return put<vx_uint32>(ptr, size, im->width);
        case VX_IMAGE_HEIGHT:
            return put<vx_uint32>(ptr, size, im->height);
        case VX_IMAGE_FORMAT:
            return put<vx_df_image>(ptr, size, im->format);
        case VX_IMAGE_PLANES:
            return put<vx_size>(ptr, size, 1);
        case VX_IMAGE_SIZE:
            return put<vx_size>(
                ptr, size, static_cast<vx_size>(im->width) * im->height * im->tensor->element_size);
        case VX_IMAGE_MEMORY_TYPE:
            return put<vx_enum>(ptr, size, VX_MEMORY_TYPE_NONE);
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_reference VX_API_CALL vxGetObjectArrayItem(vx_object_array arr, vx_uint32 index) {
    api_lock lock(api_mutex());
    auto* a = checked<_vx_object_array>(arr, VX_TYPE_OBJECT_ARRAY);
    if (a == nullptr || index >= a->items.size()) return nullptr;
    _vx_reference* item = a->items[index];
    ++item->external_count;
    return item;
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseObjectArray(vx_object_array* arr) {
    return release_external(reinterpret_cast<_vx_reference**>(arr), VX_TYPE_OBJECT_ARRAY);
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryObjectArray(vx_object_array arr, vx_enum attribute,
                                                      void* ptr, vx_size size) {
    api_lock lock(api_mutex());
    auto* a = checked<_vx_object_array>(arr, VX_TYPE_OBJECT_ARRAY);
    if (a == nullptr) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_OBJECT_ARRAY_ITEMTYPE:
            return put<vx_enum>(ptr, size, a->item_type);
        case VX_OBJECT_ARRAY_NUMITEMS:
            return put<vx_size>(ptr, size, a->items.size());
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}
