// TensorInfo: shape, data type, layout, padding, strides (bytes) and valid region of a tensor.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/cpu/types.hpp"

namespace tessera::cpu {

constexpr int kMaxDims = 6;

/// Region of a tensor whose values are defined (logical coordinates and extents).
struct ValidRegion {
    std::vector<int64_t> anchor;
    std::vector<int64_t> shape;
    bool operator==(const ValidRegion& o) const { return anchor == o.anchor && shape == o.shape; }
};

/// Metadata of a tensor. Logical shape is listed outermost first ([N, C, H, W] for 4-D layouts).
/// The physical shape follows the layout; strides and offsets are in bytes, as in ACL.
class TensorInfo {
  public:
    TensorInfo() = default;
    TensorInfo(std::vector<int64_t> shape, DataType type, DataLayout layout = DataLayout::plain,
               QuantizationInfo quantization = {}, std::string name = {});

    const std::string& name() const { return name_; }
    void set_name(std::string name) { name_ = std::move(name); }

    DataType data_type() const { return type_; }
    DataLayout layout() const { return layout_; }
    const QuantizationInfo& quantization() const { return quantization_; }
    void set_quantization(QuantizationInfo q) { quantization_ = q; }
    std::size_t element_size() const { return cpu::element_size(type_); }

    int rank() const { return static_cast<int>(shape_.size()); }
    const std::vector<int64_t>& shape() const { return shape_; }
    int64_t dim(int i) const { return shape_.at(static_cast<std::size_t>(i)); }
    int64_t element_count() const;
    bool is_4d_layout() const { return layout_ != DataLayout::plain; }

    // 4-D accessors (layouts nchw/nhwc/nchw16c).
    int64_t n() const { return shape_[0]; }
    int64_t c() const { return shape_[1]; }
    int64_t h() const { return shape_[2]; }
    int64_t w() const { return shape_[3]; }
    /// Number of 16-channel blocks (nchw16c) or 1 for the other layouts.
    int64_t channel_blocks() const { return (shape_[1] + kChannelBlock - 1) / kChannelBlock; }

    const PaddingSize& padding() const { return padding_; }
    /// Grows the spatial padding to cover `required`; only while resizable (before allocation).
    /// Returns false (and changes nothing) when the tensor can no longer be resized.
    bool extend_padding(const PaddingSize& required);
    bool is_resizable() const { return resizable_; }
    void set_resizable(bool resizable) { resizable_ = resizable; }

    const std::vector<int64_t>& physical_shape() const { return physical_shape_; }
    const std::vector<int64_t>& strides_in_bytes() const { return strides_; }
    int64_t offset_first_element_in_bytes() const { return offset_; }
    std::size_t total_size_in_bytes() const { return total_size_; }

    // Element strides of the 4-D layouts, in elements.
    int64_t stride_n() const;
    int64_t stride_c() const;  ///< per channel (nchw, nhwc) or per channel block (nchw16c)
    int64_t stride_h() const;
    int64_t stride_w() const;

    /// Byte offset of logical element (n, c, h, w) of a 4-D layout; h/w may reach into padding.
    int64_t offset_of(int64_t n, int64_t c, int64_t h, int64_t w) const;
    /// Byte offset of a logical coordinate of any layout.
    int64_t offset_of(const std::vector<int64_t>& coords) const;
    /// Whether the logical elements occupy one dense row-major block with no gaps.
    bool is_dense() const;

    const ValidRegion& valid_region() const { return valid_region_; }
    void set_valid_region(ValidRegion region) { valid_region_ = std::move(region); }

    /// Sub-view metadata: same strides, shape `shape`, starting at logical `coords`.
    TensorInfo sub_info(const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& coords) const;

  private:
    void compute_strides();

    std::string name_;
    DataType type_ = DataType::f32;
    DataLayout layout_ = DataLayout::plain;
    QuantizationInfo quantization_;
    std::vector<int64_t> shape_;
    PaddingSize padding_;
    std::vector<int64_t> physical_shape_;
    std::vector<int64_t> strides_;
    int64_t offset_ = 0;
    std::size_t total_size_ = 0;
    bool resizable_ = true;
    ValidRegion valid_region_;
};

}  // namespace tessera::cpu
