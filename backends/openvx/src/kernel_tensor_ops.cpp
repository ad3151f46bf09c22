// kernel_tensor_ops.cpp: element-wise add, subtract and multiply with broadcasting, table lookup
// and transpose.
#include <cmath>

#include "data_objects.hpp"
#include "fixed_point.hpp"
#include "kernels.hpp"

namespace openvx {

void run_elementwise(const _vx_node& node) {
    const bool multiply = node.kind == kernel_kind::tensor_multiply;
    const tensor_span a(tensor_param(node, 0)), b(tensor_param(node, 1)),
        out(tensor_param(node, multiply ? 3 : 2));
    const node_config& c = node.config;
    const bool subtract = node.kind == kernel_kind::tensor_subtract;
    float scale_value = 1.0f;
    if (multiply) {
        const auto* s = static_cast<const _vx_scalar*>(node.params[2].ref);
        scale_value = static_cast<float>(s->as_double());
    }
    const exact_scale scale(scale_value);
    // a * b * scale carries fa + fb fraction bits; the output has fo.
    const int shift = a.fixed_point_pos + b.fixed_point_pos - out.fixed_point_pos - scale.exponent;
    for (vx_size i = 0; i < out.num_elements(); ++i) {
        const std::int64_t x = a.load(broadcast_offset(a, out, i));
        const std::int64_t y = b.load(broadcast_offset(b, out, i));
        std::int64_t r = 0;
        if (multiply) {
            r = scale.mantissa == 0
                    ? 0
                    : fixed::round_shift(x * y * scale.mantissa, shift, c.rounding_policy);
        } else {
            r = subtract ? x - y : x + y;
        }
        out.store(out.offset_of(i), fixed::narrow_to(r, out.type, c.overflow_policy));
    }
}

void run_table_lookup(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 2));
    const auto* lut = static_cast<const _vx_lut*>(node.params[1].ref);
    const auto count = static_cast<std::int64_t>(lut->count);
    for (vx_size i = 0; i < in.num_elements(); ++i) {
        const std::int64_t v = in.load(in.offset_of(i));
        const std::int64_t k = v + lut->offset;
        std::int64_t r = v;  // an index outside the LUT passes the value through
        if (k >= 0 && k < count) {
            if (lut->data_type == VX_TYPE_INT16) {
                std::int16_t e;
                std::memcpy(&e, lut->memory.data() + 2 * k, sizeof e);
                r = e;
            } else {
                r = lut->memory[static_cast<std::size_t>(k)];
            }
        }
        out.store(out.offset_of(i), r);
    }
}

void run_transpose(const _vx_node& node) {
    const tensor_span in(tensor_param(node, 0));
    tensor_span out(tensor_param(node, 1));
    // Walk the output in order; its element at index i reads the input with dim1/dim2 swapped.
    tensor_span in_as_out = in;
    std::swap(in_as_out.dims[node.config.dim1], in_as_out.dims[node.config.dim2]);
    std::swap(in_as_out.strides[node.config.dim1], in_as_out.strides[node.config.dim2]);
    for (vx_size i = 0; i < out.num_elements(); ++i) {
        out.store(out.offset_of(i), in_as_out.load(in_as_out.offset_of(i)));
    }
}

const char* run_node(const _vx_node& node) {
    switch (node.kind) {
        case kernel_kind::convolution:
        case kernel_kind::fully_connected: {
            // The int16 kernels compute a fused activation themselves; the others leave the
            // layer's output in its (virtual) tensor for the activation kernel.
            const bool convolution = node.kind == kernel_kind::convolution;
            const kernel_paths paths = enabled_kernel_paths();
            if (paths == kernel_paths::all) {
                const char* name =
                    convolution ? run_convolution_q78(node) : run_fully_connected_q78(node);
                if (name != nullptr) return name;
            }
            const char* name = "scalar";
            if (convolution && paths != kernel_paths::scalar && run_convolution_fast(node)) {
                name = "int32 SIMD";
            } else if (convolution) {
                run_convolution(node);
            } else if (paths != kernel_paths::scalar && run_fully_connected_fast(node)) {
                name = "int32 SIMD";
            } else {
                run_fully_connected(node);
            }
            if (node.fused_activation != nullptr) run_activation(*node.fused_activation);
            return name;
        }
        case kernel_kind::normalization:
            run_normalization(node);
            break;
        case kernel_kind::pooling:
            if (enabled_kernel_paths() == kernel_paths::all) {
                if (const char* name = run_pooling_simd(node)) return name;
            }
            run_pooling(node);
            break;
        case kernel_kind::softmax:
            run_softmax(node);
            break;
        case kernel_kind::activation:
            run_activation(node);
            break;
        case kernel_kind::tensor_add:
        case kernel_kind::tensor_subtract:
        case kernel_kind::tensor_multiply:
            if (enabled_kernel_paths() == kernel_paths::all) {
                if (const char* name = run_elementwise_simd(node)) return name;
            }
            run_elementwise(node);
            break;
        case kernel_kind::table_lookup:
            run_table_lookup(node);
            break;
        case kernel_kind::transpose:
            run_transpose(node);
            break;
    }
    return "scalar";
}

}  // namespace openvx
