// tensor.cpp: tensor, virtual tensor, view and addressing objects; vxQueryTensor and the
// release functions.
#include "tensor.hpp"

#include <algorithm>
#include <string>

#include "context.hpp"
#include "graph.hpp"

using namespace openvx;

namespace openvx {

vx_size element_size_of(vx_enum data_type) {
    switch (data_type) {
        case VX_TYPE_INT8:
        case VX_TYPE_UINT8:
            return 1;
        case VX_TYPE_INT16:
            return 2;
        default:
            return 0;
    }
}

bool overlaps(const _vx_tensor_t& a, const _vx_tensor_t& b) {
    if (a.root != b.root) return false;
    if (!a.shape_known() || !b.shape_known() || a.origin.size() != b.origin.size()) return true;
    for (std::size_t d = 0; d < a.origin.size(); ++d) {
        const vx_size a_end = a.origin[d] + a.dims[d], b_end = b.origin[d] + b.dims[d];
        if (a.origin[d] >= b_end || b.origin[d] >= a_end) return false;
    }
    return true;
}

}  // namespace openvx

bool _vx_tensor_t::shape_known() const {
    if (dims.empty()) return false;
    return std::none_of(dims.begin(), dims.end(), [](vx_size d) { return d == 0; });
}

vx_size _vx_tensor_t::num_elements() const {
    vx_size n = 1;
    for (vx_size d : dims) n *= d;
    return n;
}

void _vx_tensor_t::set_shape(const std::vector<vx_size>& new_dims) {
    dims = new_dims;
    strides.assign(dims.size(), 0);
    vx_size step = element_size;
    for (std::size_t d = 0; d < dims.size(); ++d) {
        strides[d] = step;
        step *= dims[d];
    }
    origin.assign(dims.size(), 0);
}

void _vx_tensor_t::allocate() {
    if (root == this && memory.empty() && !planned) {
        memory.assign(num_elements() * element_size, 0);
        mark_written();
    }
}

std::uint64_t openvx::fresh_generation() {
    static std::atomic<std::uint64_t> last{0};
    return ++last;
}

void _vx_tensor_t::release_children() {
    release_internal(parent);
    parent = nullptr;
}

namespace {

/// Checks type and fixed-point position; logs naming the parameter on failure.
vx_status check_format(_vx_reference* where, vx_enum data_format, vx_uint8 fixed_point_pos) {
    if (element_size_of(data_format) == 0) {
        log(where, VX_ERROR_INVALID_FORMAT,
            "data_format " + std::to_string(data_format) +
                " is not supported (VX_TYPE_INT16, VX_TYPE_INT8, VX_TYPE_UINT8)");
        return VX_ERROR_INVALID_FORMAT;
    }
    if (data_format != VX_TYPE_INT16 && fixed_point_pos != 0) {
        log(where, VX_ERROR_INVALID_FORMAT,
            "fixed_point_pos " + std::to_string(fixed_point_pos) +
                " must be 0 for VX_TYPE_INT8 and VX_TYPE_UINT8");
        return VX_ERROR_INVALID_FORMAT;
    }
    if (fixed_point_pos > 15) {
        log(where, VX_ERROR_INVALID_FORMAT,
            "fixed_point_pos " + std::to_string(fixed_point_pos) + " exceeds 15 for VX_TYPE_INT16");
        return VX_ERROR_INVALID_FORMAT;
    }
    return VX_SUCCESS;
}

_vx_tensor_t* new_tensor(vx_context context, vx_enum data_format, vx_uint8 fixed_point_pos) {
    auto* t = new _vx_tensor_t(context);
    t->data_type = data_format;
    t->fixed_point_pos = fixed_point_pos;
    t->element_size = element_size_of(data_format);
    register_object(t);
    return t;
}

}  // namespace

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensor(vx_context context, vx_uint32 num_of_dims,
                                                  vx_uint32* sizes, vx_enum data_format,
                                                  vx_uint8 fixed_point_pos) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return nullptr;
    if (num_of_dims < 1 || num_of_dims > max_tensor_dims) {
        log(context, VX_ERROR_INVALID_DIMENSION,
            "vxCreateTensor: num_of_dims " + std::to_string(num_of_dims) + " is outside 1.." +
                std::to_string(max_tensor_dims));
        return nullptr;
    }
    if (sizes == nullptr) {
        log(context, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensor: sizes is NULL");
        return nullptr;
    }
    std::vector<vx_size> dims(sizes, sizes + num_of_dims);
    for (vx_uint32 d = 0; d < num_of_dims; ++d) {
        if (dims[d] == 0) {
            log(context, VX_ERROR_INVALID_DIMENSION,
                "vxCreateTensor: sizes[" + std::to_string(d) + "] is 0");
            return nullptr;
        }
    }
    if (check_format(context, data_format, fixed_point_pos) != VX_SUCCESS) return nullptr;
    _vx_tensor_t* t = new_tensor(context, data_format, fixed_point_pos);
    t->set_shape(dims);
    t->allocate();
    return t;
}

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateVirtualTensor(vx_graph graph, vx_uint32 num_of_dims,
                                                         vx_uint32* sizes, vx_enum data_format,
                                                         vx_uint8 fixed_point_pos) {
    api_lock lock(api_mutex());
    if (!is_valid(graph, VX_TYPE_GRAPH)) return nullptr;
    if (num_of_dims > max_tensor_dims) {
        log(graph, VX_ERROR_INVALID_DIMENSION,
            "vxCreateVirtualTensor: num_of_dims " + std::to_string(num_of_dims) + " exceeds " +
                std::to_string(max_tensor_dims));
        return nullptr;
    }
    if (num_of_dims > 0 && sizes == nullptr) {
        log(graph, VX_ERROR_INVALID_PARAMETERS, "vxCreateVirtualTensor: sizes is NULL");
        return nullptr;
    }
    if (check_format(graph, data_format, fixed_point_pos) != VX_SUCCESS) return nullptr;
    _vx_tensor_t* t = new_tensor(graph->context, data_format, fixed_point_pos);
    t->is_virtual = true;
    t->scope = graph;
    std::vector<vx_size> dims;
    if (num_of_dims > 0) dims.assign(sizes, sizes + num_of_dims);
    t->declared_dims = dims;
    t->set_shape(dims);
    return t;
}

VX_API_ENTRY vx_tensor_view VX_API_CALL vxCreateTensorView(vx_context context,
                                                           vx_uint32* view_array_start,
                                                           vx_uint32* view_array_end,
                                                           vx_uint8 numViewDimensions) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return nullptr;
    if (numViewDimensions < 1 || numViewDimensions > max_tensor_dims || !view_array_start ||
        !view_array_end) {
        log(context, VX_ERROR_INVALID_PARAMETERS,
            "vxCreateTensorView: numViewDimensions must be 1.." + std::to_string(max_tensor_dims) +
                " with non-NULL view_array_start and view_array_end");
        return nullptr;
    }
    for (vx_uint8 d = 0; d < numViewDimensions; ++d) {
        if (view_array_start[d] >= view_array_end[d]) {
            log(context, VX_ERROR_INVALID_PARAMETERS,
                "vxCreateTensorView: view_array_start[" + std::to_string(d) +
                    "] is not below view_array_end");
            return nullptr;
        }
    }
    auto* v = new _vx_tensor_view_t(context);
    v->start.assign(view_array_start, view_array_start + numViewDimensions);
    v->end.assign(view_array_end, view_array_end + numViewDimensions);
    register_object(v);
    return v;
}

VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensorFromView(vx_tensor tensor, vx_tensor_view view) {
    api_lock lock(api_mutex());
    auto* parent = checked<_vx_tensor_t>(tensor, VX_TYPE_TENSOR);
    auto* v = checked<_vx_tensor_view_t>(view, VX_TYPE_TENSOR_VIEW);
    if (parent == nullptr) return nullptr;
    if (v == nullptr) {
        log(parent, VX_ERROR_INVALID_REFERENCE, "vxCreateTensorFromView: view is not a view");
        return nullptr;
    }
    if (!parent->shape_known() || v->start.size() != parent->dims.size()) {
        log(parent, VX_ERROR_INVALID_DIMENSION,
            "vxCreateTensorFromView: view has " + std::to_string(v->start.size()) +
                " dimensions, the tensor " + std::to_string(parent->dims.size()) +
                " (or unknown sizes)");
        return nullptr;
    }
    for (std::size_t d = 0; d < v->start.size(); ++d) {
        if (v->end[d] > parent->dims[d]) {
            log(parent, VX_ERROR_INVALID_DIMENSION,
                "vxCreateTensorFromView: view end " + std::to_string(v->end[d]) + " of dim " +
                    std::to_string(d) + " exceeds the tensor's size " +
                    std::to_string(parent->dims[d]));
            return nullptr;
        }
    }
    _vx_tensor_t* t = new_tensor(parent->context, parent->data_type, parent->fixed_point_pos);
    t->is_virtual = parent->is_virtual;
    t->scope = parent->scope;
    t->root = parent->root;
    t->parent = parent;
    retain_internal(parent);
    t->strides = parent->strides;
    t->offset = parent->offset;
    t->dims.resize(v->start.size());
    t->origin.resize(v->start.size());
    for (std::size_t d = 0; d < v->start.size(); ++d) {
        t->dims[d] = v->end[d] - v->start[d];
        t->origin[d] = parent->origin[d] + v->start[d];
        t->offset += v->start[d] * parent->strides[d];
    }
    return t;
}

VX_API_ENTRY vx_tensor_addressing VX_API_CALL
vxCreateTensorAddressing(vx_context context, vx_uint32* addressing_array_dimension,
                         vx_uint32* addressing_array_stride, vx_uint8 numViewDimensions) {
    api_lock lock(api_mutex());
    if (!is_valid(context, VX_TYPE_CONTEXT)) return nullptr;
    if (numViewDimensions < 1 || numViewDimensions > max_tensor_dims ||
        !addressing_array_dimension || !addressing_array_stride) {
        log(context, VX_ERROR_INVALID_PARAMETERS,
            "vxCreateTensorAddressing: numViewDimensions must be 1.." +
                std::to_string(max_tensor_dims) +
                " with non-NULL addressing_array_dimension and addressing_array_stride");
        return nullptr;
    }
    for (vx_uint8 d = 0; d < numViewDimensions; ++d) {
        if (addressing_array_dimension[d] == 0 || addressing_array_stride[d] == 0) {
            log(context, VX_ERROR_INVALID_PARAMETERS,
                "vxCreateTensorAddressing: addressing_array_dimension or addressing_array_stride[" +
                    std::to_string(d) + "] is 0");
            return nullptr;
        }
    }
    auto* a = new _vx_tensor_addressing_t(context);
    a->dims.assign(addressing_array_dimension, addressing_array_dimension + numViewDimensions);
    a->strides.assign(addressing_array_stride, addressing_array_stride + numViewDimensions);
    register_object(a);
    return a;
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryTensor(vx_tensor tensor, vx_enum attribute, void* ptr,
                                                 vx_size size) {
    api_lock lock(api_mutex());
    auto* t = checked<_vx_tensor_t>(tensor, VX_TYPE_TENSOR);
    if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
    switch (attribute) {
        case VX_TENSOR_NUM_OF_DIMS:
            return put<vx_size>(ptr, size, t->dims.size());
        case VX_TENSOR_DIMS:
            if (ptr == nullptr || size < t->dims.size() * sizeof(vx_size) ||
                size % sizeof(vx_size) != 0) {
                return VX_ERROR_INVALID_PARAMETERS;
            }
            std::copy(t->dims.begin(), t->dims.end(), static_cast<vx_size*>(ptr));
            return VX_SUCCESS;
        case VX_TENSOR_DATA_TYPE:
            return put<vx_enum>(ptr, size, t->data_type);
        case VX_TENSOR_FIXED_POINT_POS:
            return put<vx_uint8>(ptr, size, t->fixed_point_pos);
        default:
            return VX_ERROR_NOT_SUPPORTED;
    }
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensor(vx_tensor* tensor) {
    return release_external(reinterpret_cast<_vx_reference**>(tensor), VX_TYPE_TENSOR);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensorView(vx_tensor_view* tensor_view) {
    return release_external(reinterpret_cast<_vx_reference**>(tensor_view), VX_TYPE_TENSOR_VIEW);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensorAddressing(vx_tensor_addressing* tensor_addr) {
    return release_external(reinterpret_cast<_vx_reference**>(tensor_addr),
                            VX_TYPE_TENSOR_ADDRESSING);
}
