// data_objects.hpp: the small core data objects the extension uses: scalar, LUT, image (a plane
// of a tensor) and object array.
#pragma once

#include <cstdint>
#include <vector>

#include "object.hpp"
#include "tensor.hpp"

struct _vx_scalar : _vx_reference {
    explicit _vx_scalar(vx_context owner) : _vx_reference(VX_TYPE_SCALAR, owner) {}
    vx_enum data_type = VX_TYPE_INVALID;
    std::uint8_t value[8] = {};
    /// The value as a double (numeric types).
    double as_double() const;
};

struct _vx_lut : _vx_reference {
    explicit _vx_lut(vx_context owner) : _vx_reference(VX_TYPE_LUT, owner) {}
    vx_enum data_type = VX_TYPE_INVALID;
    vx_size count = 0;
    vx_uint32 offset = 0;  // index of value 0: count/2 for VX_TYPE_INT16, 0 for VX_TYPE_UINT8
    std::vector<std::uint8_t> memory;
};

/// An image viewing one plane of a tensor (vxCreateImageObjectArrayFromTensor).
struct _vx_image : _vx_reference {
    explicit _vx_image(vx_context owner) : _vx_reference(VX_TYPE_IMAGE, owner) {}
    void release_children() override;
    vx_uint32 width = 0, height = 0;
    vx_df_image format = VX_DF_IMAGE_VIRT;
    _vx_tensor_t* tensor = nullptr;  // internal reference
    vx_size offset = 0;              // bytes from the tensor's first element
};

struct _vx_object_array : _vx_reference {
    explicit _vx_object_array(vx_context owner) : _vx_reference(VX_TYPE_OBJECT_ARRAY, owner) {}
    void release_children() override;
    vx_enum item_type = VX_TYPE_INVALID;
    std::vector<_vx_reference*> items;  // internal references
};
