// validate_common.cpp: the validator's shared checks, output shape inference and the skip
// derivation of convolution and pooling.
#include <algorithm>
#include <string>

#include "graph.hpp"
#include "validate.hpp"

namespace openvx {

namespace {

std::string dims_text(const std::vector<vx_size>& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        s += (i ? ", " : "") + (dims[i] ? std::to_string(dims[i]) : std::string("?"));
    }
    return s + "]";
}

}  // namespace

const char* kernel_name(kernel_kind kind) {
    switch (kind) {
        case kernel_kind::convolution:
            return "vxConvolutionLayer";
        case kernel_kind::fully_connected:
            return "vxFullyConnectedLayer";
        case kernel_kind::normalization:
            return "vxNormalizationLayer";
        case kernel_kind::pooling:
            return "vxPoolingLayer";
        case kernel_kind::softmax:
            return "vxSoftmaxLayer";
        case kernel_kind::activation:
            return "vxActivationLayer";
        case kernel_kind::tensor_add:
            return "vxTensorAddNode";
        case kernel_kind::tensor_subtract:
            return "vxTensorSubtractNode";
        case kernel_kind::tensor_multiply:
            return "vxTensorMultiplyNode";
        case kernel_kind::table_lookup:
            return "vxTensorTableLookupNode";
        case kernel_kind::transpose:
            return "vxTensorTransposeNode";
    }
    return "node";
}

vx_status validator::run() {
    for (std::size_t i = 0; i < node_.params.size(); ++i) {
        const node_parameter& p = node_.params[i];
        if (p.ref == nullptr) {
            if (!p.optional) return fail(VX_ERROR_INVALID_REFERENCE, p.name, "is NULL");
            continue;
        }
        if (!is_valid(p.ref, p.type)) {
            return fail(VX_ERROR_INVALID_REFERENCE, p.name, "is not a valid reference of its type");
        }
        if (p.type == VX_TYPE_TENSOR) {
            auto* t = static_cast<_vx_tensor_t*>(p.ref);
            if (t->is_virtual && t->scope != node_.graph) {
                return fail(VX_ERROR_INVALID_SCOPE, p.name, "is a virtual tensor of another graph");
            }
        }
    }
    switch (node_.kind) {
        case kernel_kind::convolution:
            return validate_convolution(*this);
        case kernel_kind::fully_connected:
            return validate_fully_connected(*this);
        case kernel_kind::normalization:
            return validate_normalization(*this);
        case kernel_kind::pooling:
            return validate_pooling(*this);
        case kernel_kind::softmax:
            return validate_softmax(*this);
        case kernel_kind::activation:
            return validate_activation(*this);
        case kernel_kind::tensor_add:
        case kernel_kind::tensor_subtract:
        case kernel_kind::tensor_multiply:
            return validate_elementwise(*this);
        case kernel_kind::table_lookup:
            return validate_table_lookup(*this);
        case kernel_kind::transpose:
            return validate_transpose(*this);
    }
    return VX_ERROR_INVALID_NODE;
}

vx_status validator::fail(vx_status status, const std::string& parameter,
                          const std::string& reason) {
    if (status_ == VX_SUCCESS) {
        status_ = status;
        log(node_.graph, status,
            std::string(kernel_name(node_.kind)) + ": " + parameter + ": " + reason);
    }
    return status_;
}

_vx_tensor_t* validator::tensor(std::size_t index) const {
    const node_parameter& p = node_.params.at(index);
    return p.type == VX_TYPE_TENSOR ? static_cast<_vx_tensor_t*>(p.ref) : nullptr;
}

bool validator::inputs_known() const {
    for (const node_parameter& p : node_.params) {
        if (p.type != VX_TYPE_TENSOR || p.ref == nullptr) continue;
        if (at_verify_ && p.direction == VX_OUTPUT) continue;
        if (!static_cast<_vx_tensor_t*>(p.ref)->shape_known()) return false;
    }
    return true;
}

vx_status validator::expect_output(std::size_t index, const std::vector<vx_size>& expected) {
    _vx_tensor_t* out = tensor(index);
    const char* name = node_.params[index].name;
    if (out->shape_known()) {
        if (out->dims != expected) {
            return fail(
                VX_ERROR_INVALID_DIMENSION, name,
                "dimensions are " + dims_text(out->dims) + ", expected " + dims_text(expected));
        }
        return VX_SUCCESS;
    }
    if (!at_verify_) return VX_SUCCESS;
    bool compatible = out->dims.empty() || out->dims.size() == expected.size();
    for (std::size_t d = 0; compatible && d < out->dims.size(); ++d) {
        compatible = out->dims[d] == 0 || out->dims[d] == expected[d];
    }
    if (!compatible) {
        return fail(VX_ERROR_INVALID_DIMENSION, name,
                    "virtual tensor dimensions " + dims_text(out->dims) +
                        " do not fit the inferred " + dims_text(expected));
    }
    out->set_shape(expected);
    return VX_SUCCESS;
}

vx_status validator::expect_enum(const std::string& parameter, vx_enum value,
                                 std::initializer_list<vx_enum> allowed) {
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
        return fail(VX_ERROR_INVALID_PARAMETERS, parameter,
                    "value " + std::to_string(value) + " is not one of the allowed enumerators");
    }
    return VX_SUCCESS;
}

vx_status validator::expect_same_format(std::size_t index, std::size_t reference_index) {
    const _vx_tensor_t* t = tensor(index);
    const _vx_tensor_t* r = tensor(reference_index);
    if (t->data_type != r->data_type || t->fixed_point_pos != r->fixed_point_pos) {
        return fail(VX_ERROR_INVALID_FORMAT, node_.params[index].name,
                    "data type " + std::to_string(t->data_type) + " / fixed_point_pos " +
                        std::to_string(t->fixed_point_pos) + " differs from " +
                        node_.params[reference_index].name + "'s " + std::to_string(r->data_type) +
                        " / " + std::to_string(r->fixed_point_pos));
    }
    return VX_SUCCESS;
}

vx_status validator::expect_rank(std::size_t index, std::size_t lo, std::size_t hi) {
    const _vx_tensor_t* t = tensor(index);
    if (t->dims.empty() && !at_verify_) return VX_SUCCESS;  // a virtual tensor of unknown rank
    if (t->dims.size() < lo || t->dims.size() > hi) {
        return fail(VX_ERROR_INVALID_DIMENSION, node_.params[index].name,
                    "has " + std::to_string(t->dims.size()) + " dimensions, expected " +
                        std::to_string(lo) + (lo == hi ? "" : ".." + std::to_string(hi)));
    }
    return VX_SUCCESS;
}

vx_size window_output(vx_size in, vx_size pad, vx_size kernel, vx_size skip,
                      vx_enum size_rounding) {
    if (in + 2 * pad < kernel || skip == 0) return 0;
    const vx_size span = in + 2 * pad - kernel;
    if (size_rounding == VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING) {
        return (span + skip - 1) / skip + 1;
    }
    return span / skip + 1;
}

vx_uint32 derive_skip(vx_size in, vx_size pad, vx_size kernel, vx_size out, vx_enum size_rounding) {
    if (in + 2 * pad < kernel || out == 0) return 0;
    const vx_size span = in + 2 * pad - kernel;
    for (vx_size skip = 1; skip <= span + 1; ++skip) {  // beyond span + 1 nothing changes
        if (window_output(in, pad, kernel, skip, size_rounding) == out) {
            return static_cast<vx_uint32>(skip);
        }
    }
    return 0;
}

}  // namespace openvx
