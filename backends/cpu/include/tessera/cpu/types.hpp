// Small value types shared by kernels and functions: data types, layouts, borders, activations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace tessera::cpu {

enum class DataType { f32, f16, bf16, s8, u8, s32 };

/// Bytes per element of `type`.
constexpr std::size_t element_size(DataType type) {
    switch (type) {
        case DataType::f32:
        case DataType::s32:
            return 4;
        case DataType::f16:
        case DataType::bf16:
            return 2;
        case DataType::s8:
        case DataType::u8:
            return 1;
    }
    return 0;
}

std::string to_string(DataType type);

/// Affine quantisation: real = scale * (q - offset).
struct QuantizationInfo {
    float scale = 1.0f;
    int32_t offset = 0;
};

/// Memory layouts. 4-D layouts describe activations with logical shape [N, C, H, W].
/// `nchw16c` stores channels in blocks of 16 ("nChw16c"): physical [N, ceil(C/16), H, W, 16].
enum class DataLayout { plain, nchw, nhwc, nchw16c };

/// Channels per block of the blocked layout.
constexpr int64_t kChannelBlock = 16;

std::string to_string(DataLayout layout);

/// How a neighbourhood kernel treats pixels outside the tensor (see the ACL architecture notes).
enum class BorderMode { undefined, replicate, constant };

/// Spatial padding (elements) around the H/W plane of a 4-D tensor.
struct PaddingSize {
    int64_t top = 0, right = 0, bottom = 0, left = 0;
    bool covers(const PaddingSize& other) const {
        return top >= other.top && right >= other.right && bottom >= other.bottom &&
               left >= other.left;
    }
    bool operator==(const PaddingSize& o) const {
        return top == o.top && right == o.right && bottom == o.bottom && left == o.left;
    }
    bool empty() const { return top == 0 && right == 0 && bottom == 0 && left == 0; }
};

/// Element-wise activations.
enum class ActivationKind {
    identity,
    relu,
    relu6,
    bounded_relu,     // min(max(x, 0), a)
    lu_bounded_relu,  // min(max(x, b), a)
    leaky_relu,       // x > 0 ? x : a * x
    elu,              // x > 0 ? x : a * (exp(x) - 1)
    tanh,             // a * tanh(b * x)
    sigmoid,
    soft_relu,  // log(1 + exp(x))
    abs,
    square,
    sqrt,
    linear,            // a * x + b
    gelu,              // x * 0.5 * (1 + erf(x / sqrt(2)))
    clip,              // min(max(x, a), b)
    hard_sigmoid,      // min(max(a * x + b, 0), 1)
    hard_swish,        // x * min(max(a * x + b, 0), 1)
    mish,              // x * tanh(log(1 + exp(x)))
    selu,              // x > 0 ? b * x : b * a * (exp(x) - 1)
    thresholded_relu,  // x > a ? x : 0
    softsign,          // x / (1 + |x|)
};

struct ActivationInfo {
    ActivationKind kind = ActivationKind::identity;
    float a = 0.0f;
    float b = 0.0f;
    bool enabled() const { return kind != ActivationKind::identity; }
};

/// Convolution geometry (spatial).
struct Conv2dGeometry {
    int64_t stride_h = 1, stride_w = 1;
    int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
    int64_t dilation_h = 1, dilation_w = 1;
    int64_t groups = 1;
};

/// Output extent of a convolution / pooling window along one axis; < 1 means invalid.
constexpr int64_t conv_output_extent(int64_t in, int64_t kernel, int64_t stride, int64_t pad_lo,
                                     int64_t pad_hi, int64_t dilation) {
    return (in + pad_lo + pad_hi - dilation * (kernel - 1) - 1) / stride + 1;
}

}  // namespace tessera::cpu
