// kernels.hpp: the execution of each node kind on verified tensors, and the element access the
// kernels share.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "node.hpp"
#include "tensor.hpp"

namespace openvx {

/// Runs one verified node; returns the name of the kernel that ran ("scalar", "int32 SIMD",
/// "int16 SIMD avx512", ...), which the graph logs whenever a node's kernel changes.
const char* run_node(const _vx_node& node);

void run_convolution(const _vx_node& node);
/// The int32-lane convolution and fully connected layers; false (nothing done) when the node is
/// outside their exact domain.
bool run_convolution_fast(const _vx_node& node);
bool run_fully_connected_fast(const _vx_node& node);
/// The int16 SIMD convolution and fully connected layers (kernel_weighted_q78.cpp): the kernel's
/// name, or nullptr (output untouched) when the node or this run's data is outside their exact
/// domain.
const char* run_convolution_q78(const _vx_node& node);
const char* run_fully_connected_q78(const _vx_node& node);
/// Packs a verified convolution's or fully connected layer's weights for the int16 path ahead of
/// its first run (nothing for other nodes or outside the path).
void prepare_weighted_q78(const _vx_node& node);

/// Which kernels may run, from the environment variable TESSERA_OPENVX_KERNELS: unset = all,
/// `int32` = no int16 SIMD path, `scalar` = the scalar kernels only (tests compare the paths).
enum class kernel_paths { all, no_int16, scalar };
kernel_paths enabled_kernel_paths();
void run_fully_connected(const _vx_node& node);
void run_normalization(const _vx_node& node);
void run_pooling(const _vx_node& node);
void run_softmax(const _vx_node& node);
void run_activation(const _vx_node& node);
/// The activation node's output for one raw input value (what run_activation stores).
std::int64_t activation_raw(const _vx_node& node, std::int64_t raw);
void run_elementwise(const _vx_node& node);
/// The int16 SIMD pooling and element-wise kernels (kernel_rows_simd.cpp): the kernel's name, or
/// nullptr (output untouched) when the node is outside their domain.
const char* run_pooling_simd(const _vx_node& node);
const char* run_elementwise_simd(const _vx_node& node);
void run_table_lookup(const _vx_node& node);
void run_transpose(const _vx_node& node);

/// A tensor's elements as raw integers, addressed by byte offsets from its first element.
struct tensor_span {
    explicit tensor_span(const _vx_tensor_t* t)
        : base(t->data()),
          type(t->data_type),
          fixed_point_pos(t->fixed_point_pos),
          dims(t->dims),
          strides(t->strides) {}

    std::int64_t load(vx_size offset) const {
        const std::uint8_t* p = base + offset;
        switch (type) {
            case VX_TYPE_INT16: {
                std::int16_t v;
                std::memcpy(&v, p, sizeof v);
                return v;
            }
            case VX_TYPE_INT8:
                return static_cast<std::int8_t>(*p);
            default:
                return *p;
        }
    }
    /// Stores a value already in the element type's range.
    void store(vx_size offset, std::int64_t value) const {
        std::uint8_t* p = base + offset;
        if (type == VX_TYPE_INT16) {
            const auto v = static_cast<std::int16_t>(value);
            std::memcpy(p, &v, sizeof v);
        } else {
            *p = static_cast<std::uint8_t>(value);
        }
    }
    /// Extent and stride of dimension d (1 and 0 beyond the rank).
    vx_size dim(std::size_t d) const { return d < dims.size() ? dims[d] : 1; }
    vx_size stride(std::size_t d) const { return d < strides.size() ? strides[d] : 0; }
    vx_size num_elements() const {
        vx_size n = 1;
        for (vx_size d : dims) n *= d;
        return n;
    }
    /// Byte offset of the i-th element in dim-0-fastest order.
    vx_size offset_of(vx_size linear) const {
        vx_size off = 0;
        for (std::size_t d = 0; d < dims.size(); ++d) {
            off += (linear % dims[d]) * strides[d];
            linear /= dims[d];
        }
        return off;
    }

    std::uint8_t* base;
    vx_enum type;
    int fixed_point_pos;
    std::vector<vx_size> dims, strides;
};

/// Byte offset in `t` of element `linear` of `out`, dimensions of extent 1 in `t` broadcasting.
inline vx_size broadcast_offset(const tensor_span& t, const tensor_span& out, vx_size linear) {
    vx_size off = 0;
    for (std::size_t d = 0; d < out.dims.size(); ++d) {
        const vx_size i = linear % out.dims[d];
        linear /= out.dims[d];
        if (t.dim(d) != 1) off += i * t.stride(d);
    }
    return off;
}

/// A float32 scale as mantissa * 2^exponent with an integer mantissa of at most 24 bits.
struct exact_scale {
    explicit exact_scale(float scale) {
        int e = 0;
        const double m = std::frexp(static_cast<double>(scale), &e);
        mantissa = static_cast<std::int64_t>(std::ldexp(m, 24));
        exponent = e - 24;
    }
    std::int64_t mantissa;
    int exponent;
};

/// Tensor parameter `index` of a node.
inline const _vx_tensor_t* tensor_param(const _vx_node& node, std::size_t index) {
    return static_cast<const _vx_tensor_t*>(node.params[index].ref);
}

}  // namespace openvx
