// validate_tensor_ops.cpp: validation and output shape inference of the tensor nodes (add,
// subtract, multiply with broadcasting; table lookup; transpose).
#include <algorithm>
#include <cmath>
#include <string>

#include "data_objects.hpp"
#include "validate.hpp"

namespace openvx {

vx_status validate_elementwise(validator& v) {
    const bool multiply = v.node().kind == kernel_kind::tensor_multiply;
    const std::size_t out_index = multiply ? 3 : 2;
    const node_config& c = v.node().config;
    if (v.expect_enum(multiply ? "overflow_policy" : "policy", c.overflow_policy,
                      {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (multiply) {
        if (v.expect_enum("rounding_policy", c.rounding_policy,
                          {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) !=
            VX_SUCCESS) {
            return VX_ERROR_INVALID_PARAMETERS;
        }
        const auto* scale = static_cast<const _vx_scalar*>(v.node().params[2].ref);
        if (scale->data_type != VX_TYPE_FLOAT32) {
            return v.fail(VX_ERROR_INVALID_TYPE, "scale", "must be a VX_TYPE_FLOAT32 scalar");
        }
        const double s = scale->as_double();
        if (!std::isfinite(s) || s < 0) {
            return v.fail(VX_ERROR_INVALID_VALUE, "scale", "must be finite and not negative");
        }
    }
    const _vx_tensor_t* in1 = v.tensor(0);
    const _vx_tensor_t* in2 = v.tensor(1);
    const _vx_tensor_t* out = v.tensor(out_index);
    if (in2->data_type != in1->data_type) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "in2", "data type differs from in1's");
    }
    if (out->data_type != in1->data_type) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "out", "data type differs from in1's");
    }
    if (!multiply && (v.expect_same_format(1, 0) != VX_SUCCESS ||
                      v.expect_same_format(out_index, 0) != VX_SUCCESS)) {
        return VX_ERROR_INVALID_FORMAT;
    }
    if (!v.inputs_known()) return VX_SUCCESS;
    const std::size_t rank = std::max(in1->dims.size(), in2->dims.size());
    std::vector<vx_size> expected(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        const vx_size a = d < in1->dims.size() ? in1->dims[d] : 1;
        const vx_size b = d < in2->dims.size() ? in2->dims[d] : 1;
        if (a != b && a != 1 && b != 1) {
            return v.fail(VX_ERROR_INVALID_DIMENSION, "in2",
                          "dimension " + std::to_string(d) + " is " + std::to_string(b) +
                              ", in1's " + std::to_string(a) + " (neither is 1)");
        }
        expected[d] = std::max(a, b);
    }
    return v.expect_output(out_index, expected);
}

vx_status validate_table_lookup(validator& v) {
    const _vx_tensor_t* in = v.tensor(0);
    const auto* lut = static_cast<const _vx_lut*>(v.node().params[1].ref);
    const _vx_tensor_t* out = v.tensor(2);
    const bool int16 = in->data_type == VX_TYPE_INT16 && lut->data_type == VX_TYPE_INT16;
    const bool uint8 = in->data_type == VX_TYPE_UINT8 && lut->data_type == VX_TYPE_UINT8;
    if (!int16 && !uint8) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "lut",
                      "an VX_TYPE_INT16 input needs an VX_TYPE_INT16 LUT, an VX_TYPE_UINT8 input "
                      "an VX_TYPE_UINT8 LUT");
    }
    if (out->data_type != lut->data_type || out->fixed_point_pos != in->fixed_point_pos) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "out",
                      "must have the LUT's type and in1's position");
    }
    if (!v.inputs_known()) return VX_SUCCESS;
    return v.expect_output(2, in->dims);
}

vx_status validate_transpose(validator& v) {
    if (v.expect_same_format(1, 0) != VX_SUCCESS) return VX_ERROR_INVALID_FORMAT;
    const _vx_tensor_t* in = v.tensor(0);
    const node_config& c = v.node().config;
    if (!in->dims.empty() && (c.dim1 >= in->dims.size() || c.dim2 >= in->dims.size())) {
        return v.fail(
            VX_ERROR_INVALID_PARAMETERS, c.dim1 >= in->dims.size() ? "dim1" : "dim2",
            "is not below the input's " + std::to_string(in->dims.size()) + " dimensions");
    }
    if (!v.inputs_known()) return VX_SUCCESS;
    std::vector<vx_size> expected = in->dims;
    std::swap(expected[c.dim1], expected[c.dim2]);
    return v.expect_output(1, expected);
}

}  // namespace openvx
