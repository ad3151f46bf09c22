// validate_layers.cpp: validation and output shape inference of the convolutional network layers.
#include <cmath>
#include <string>

#include "validate.hpp"

namespace openvx {

namespace {

constexpr std::size_t in_index = 0, weights_index = 1, bias_index = 2, layer_out_index = 3;

vx_status check_policies(validator& v) {
    const node_config& c = v.node().config;
    if (v.expect_enum("overflow_policy", c.overflow_policy,
                      {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) != VX_SUCCESS ||
        v.expect_enum("rounding_policy", c.rounding_policy,
                      {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) != VX_SUCCESS ||
        v.expect_enum("down_scale_size_rounding", c.size_rounding,
                      {VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                       VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING}) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    const vx_size element_bits = v.tensor(in_index)->element_size * 8;
    const vx_uint8 bits = c.accumulator_bits;
    if (bits != 0 && (bits < element_bits || bits > 64)) {
        return v.fail(VX_ERROR_INVALID_PARAMETERS, "accumulator_bits",
                      std::to_string(bits) + " is outside " + std::to_string(element_bits) +
                          "..64 (0 selects 64)");
    }
    return VX_SUCCESS;
}

/// Types of a weighted layer: weights like inputs; biases like outputs; the product's scale
/// (fixed_point_pos of inputs + weights - outputs) not negative.
vx_status check_weighted_formats(validator& v) {
    _vx_tensor_t* in = v.tensor(in_index);
    _vx_tensor_t* w = v.tensor(weights_index);
    _vx_tensor_t* out = v.tensor(layer_out_index);
    if (w->data_type != in->data_type) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "weights", "data type differs from inputs'");
    }
    if (out->data_type != in->data_type) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "outputs", "data type differs from inputs'");
    }
    if (in->fixed_point_pos + w->fixed_point_pos < out->fixed_point_pos) {
        return v.fail(VX_ERROR_INVALID_FORMAT, "outputs",
                      "fixed_point_pos exceeds inputs' plus weights' (a product cannot gain "
                      "fraction bits)");
    }
    if (_vx_tensor_t* b = v.tensor(bias_index)) {
        if (v.expect_same_format(bias_index, layer_out_index) != VX_SUCCESS) {
            return VX_ERROR_INVALID_FORMAT;
        }
        (void)b;
    }
    return VX_SUCCESS;
}

}  // namespace

vx_status validate_convolution(validator& v) {
    if (check_policies(v) != VX_SUCCESS || check_weighted_formats(v) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (v.expect_rank(in_index, 3, 4) != VX_SUCCESS ||
        v.expect_rank(weights_index, 4, 4) != VX_SUCCESS) {
        return VX_ERROR_INVALID_DIMENSION;
    }
    if (!v.inputs_known()) return VX_SUCCESS;
    node_config& c = v.node().config;
    const _vx_tensor_t* in = v.tensor(in_index);
    const _vx_tensor_t* w = v.tensor(weights_index);
    _vx_tensor_t* out = v.tensor(layer_out_index);
    if (w->dims[2] != in->dims[2]) {
        return v.fail(VX_ERROR_INVALID_DIMENSION, "weights",
                      "dim 2 (IFM) is " + std::to_string(w->dims[2]) + ", inputs have " +
                          std::to_string(in->dims[2]) + " feature maps");
    }
    const vx_size kx = w->dims[0], ky = w->dims[1];
    if (in->dims[0] + 2 * c.pad_x < kx || in->dims[1] + 2 * c.pad_y < ky) {
        return v.fail(VX_ERROR_INVALID_DIMENSION, "weights",
                      "kernel is larger than the padded input");
    }
    vx_size ow = window_output(in->dims[0], c.pad_x, kx, 1, c.size_rounding);
    vx_size oh = window_output(in->dims[1], c.pad_y, ky, 1, c.size_rounding);
    c.skip_x = c.skip_y = 1;
    if (out->dims.size() >= 2 && out->dims[0] != 0 && out->dims[1] != 0) {
        c.skip_x = derive_skip(in->dims[0], c.pad_x, kx, out->dims[0], c.size_rounding);
        c.skip_y = derive_skip(in->dims[1], c.pad_y, ky, out->dims[1], c.size_rounding);
        if (c.skip_x == 0 || c.skip_y == 0) {
            return v.fail(VX_ERROR_INVALID_DIMENSION, "outputs",
                          "width/height " + std::to_string(out->dims[0]) + "x" +
                              std::to_string(out->dims[1]) +
                              " is reached by no integer stride from the input, kernel and pad");
        }
        ow = out->dims[0];
        oh = out->dims[1];
    }
    std::vector<vx_size> expected{ow, oh, w->dims[3]};
    if (in->dims.size() == 4) expected.push_back(in->dims[3]);
    if (v.expect_output(layer_out_index, expected) != VX_SUCCESS) return VX_ERROR_INVALID_DIMENSION;
    if (const _vx_tensor_t* b = v.tensor(bias_index)) {
        const bool shared = b->dims.size() == 1 && b->dims[0] == w->dims[3];
        const bool per_location =
            b->dims.size() == 3 && b->dims[0] == ow && b->dims[1] == oh && b->dims[2] == w->dims[3];
        if (!shared && !per_location) {
            return v.fail(VX_ERROR_INVALID_DIMENSION, "biases",
                          "must be [OFM] or [output W, output H, OFM]");
        }
    }
    return VX_SUCCESS;
}

vx_status validate_fully_connected(validator& v) {
    if (check_policies(v) != VX_SUCCESS || check_weighted_formats(v) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (v.node().config.pad_x != 0) {
        return v.fail(VX_ERROR_INVALID_PARAMETERS, "pad",
                      "must be 0 (a fully connected product has no padding)");
    }
    if (v.expect_rank(weights_index, 2, 4) != VX_SUCCESS) return VX_ERROR_INVALID_DIMENSION;
    if (!v.inputs_known()) return VX_SUCCESS;
    const _vx_tensor_t* in = v.tensor(in_index);
    const _vx_tensor_t* w = v.tensor(weights_index);
    vx_size inner = 1;
    for (std::size_t d = 0; d + 1 < w->dims.size(); ++d) inner *= w->dims[d];
    const vx_size ofm = w->dims.back();
    // The input's core (one item) dims: those the output does not repeat as batch dims when the
    // output's shape is known, else the fewest leading dims whose product is the weights' size.
    const _vx_tensor_t* out = v.tensor(layer_out_index);
    std::size_t core = 1;
    vx_size product = in->dims[0];
    if (out->shape_known() && out->dims.size() <= in->dims.size()) {
        core = in->dims.size() + 1 - out->dims.size();
        product = 1;
        for (std::size_t d = 0; d < core; ++d) product *= in->dims[d];
    } else {
        while (product < inner && core < in->dims.size()) product *= in->dims[core++];
    }
    if (product != inner || core > 3) {
        return v.fail(VX_ERROR_INVALID_DIMENSION, "weights",
                      "the input size " + std::to_string(inner) +
                          " (product of all but the last weights dimension) matches no leading "
                          "1..3 dimensions of inputs (the rest being the output's batch)");
    }
    v.node().config.core_dims = static_cast<vx_uint32>(core);
    std::vector<vx_size> expected{ofm};
    for (std::size_t d = core; d < in->dims.size(); ++d) expected.push_back(in->dims[d]);
    if (v.expect_output(layer_out_index, expected) != VX_SUCCESS) return VX_ERROR_INVALID_DIMENSION;
    if (const _vx_tensor_t* b = v.tensor(bias_index)) {
        if (b->dims.size() != 1 || b->dims[0] != ofm) {
            return v.fail(VX_ERROR_INVALID_DIMENSION, "biases", "must be [OFM]");
        }
    }
    return VX_SUCCESS;
}

vx_status validate_normalization(validator& v) {
    const node_config& c = v.node().config;
    if (v.expect_enum("type", c.norm_type,
                      {VX_CONVOLUTIONAL_NETWORK_NORM_SAME_MAP,
                       VX_CONVOLUTIONAL_NETWORK_NORM_ACROSS_MAPS}) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (c.norm_size == 0 || c.norm_size % 2 == 0) {
        return v.fail(VX_ERROR_INVALID_PARAMETERS, "norm_size",
                      std::to_string(c.norm_size) + " is not a positive odd number");
    }
    if (!std::isfinite(c.alpha) || !std::isfinite(c.beta)) {
        return v.fail(VX_ERROR_INVALID_PARAMETERS, "alpha", "alpha and beta must be finite");
    }
    if (v.expect_same_format(1, 0) != VX_SUCCESS) return VX_ERROR_INVALID_FORMAT;
    if (v.expect_rank(0, 3, 4) != VX_SUCCESS) return VX_ERROR_INVALID_DIMENSION;
    if (!v.inputs_known()) return VX_SUCCESS;
    return v.expect_output(1, v.tensor(0)->dims);
}

vx_status validate_pooling(validator& v) {
    node_config& c = v.node().config;
    if (v.expect_enum("pool_type", c.pool_type,
                      {VX_CONVOLUTIONAL_NETWORK_POOLING_MAX,
                       VX_CONVOLUTIONAL_NETWORK_POOLING_AVG}) != VX_SUCCESS ||
        v.expect_enum("rounding", c.size_rounding,
                      {VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                       VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING}) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (c.pool_size_x == 0 || c.pool_size_y == 0) {
        return v.fail(VX_ERROR_INVALID_PARAMETERS, "pool_size_x",
                      "pool_size_x and pool_size_y must be positive");
    }
    if (c.pad_x >= c.pool_size_x || c.pad_y >= c.pool_size_y) {
        return v.fail(VX_ERROR_INVALID_PARAMETERS, "pool_pad_x",
                      "pool_pad_x / pool_pad_y must be smaller than the pool size");
    }
    if (v.expect_same_format(1, 0) != VX_SUCCESS) return VX_ERROR_INVALID_FORMAT;
    if (v.expect_rank(0, 3, 4) != VX_SUCCESS) return VX_ERROR_INVALID_DIMENSION;
    if (!v.inputs_known()) return VX_SUCCESS;
    const _vx_tensor_t* in = v.tensor(0);
    _vx_tensor_t* out = v.tensor(1);
    if (in->dims[0] + 2 * c.pad_x < c.pool_size_x || in->dims[1] + 2 * c.pad_y < c.pool_size_y) {
        return v.fail(VX_ERROR_INVALID_DIMENSION, "inputs",
                      "the padded input is smaller than the pool");
    }
    vx_size ow = window_output(in->dims[0], c.pad_x, c.pool_size_x, 1, c.size_rounding);
    vx_size oh = window_output(in->dims[1], c.pad_y, c.pool_size_y, 1, c.size_rounding);
    c.skip_x = c.skip_y = 1;
    if (out->dims.size() >= 2 && out->dims[0] != 0 && out->dims[1] != 0) {
        c.skip_x = derive_skip(in->dims[0], c.pad_x, c.pool_size_x, out->dims[0], c.size_rounding);
        c.skip_y = derive_skip(in->dims[1], c.pad_y, c.pool_size_y, out->dims[1], c.size_rounding);
        if (c.skip_x == 0 || c.skip_y == 0) {
            return v.fail(VX_ERROR_INVALID_DIMENSION, "outputs",
                          "width/height is reached by no integer stride from the input and pool");
        }
        ow = out->dims[0];
        oh = out->dims[1];
    }
    std::vector<vx_size> expected = in->dims;
    expected[0] = ow;
    expected[1] = oh;
    return v.expect_output(1, expected);
}

vx_status validate_softmax(validator& v) {
    if (v.expect_same_format(1, 0) != VX_SUCCESS) return VX_ERROR_INVALID_FORMAT;
    if (!v.inputs_known()) return VX_SUCCESS;
    return v.expect_output(1, v.tensor(0)->dims);
}

vx_status validate_activation(validator& v) {
    if (v.expect_enum(
            "func", v.node().config.function,
            {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC,
             VX_CONVOLUTIONAL_NETWORK_ACTIVATION_HYPERBOLIC_TAN,
             VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU,
             VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SOFTRELU, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS,
             VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQUARE, VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQRT,
             VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR}) != VX_SUCCESS) {
        return VX_ERROR_INVALID_PARAMETERS;
    }
    if (v.expect_same_format(1, 0) != VX_SUCCESS) return VX_ERROR_INVALID_FORMAT;
    if (!v.inputs_known()) return VX_SUCCESS;
    return v.expect_output(1, v.tensor(0)->dims);
}

}  // namespace openvx
