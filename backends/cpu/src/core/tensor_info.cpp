// TensorInfo: physical shape, byte strides, padding and sub-view metadata per layout.
#include "tessera/cpu/tensor_info.hpp"

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

TensorInfo::TensorInfo(std::vector<int64_t> shape, DataType type, DataLayout layout,
                       QuantizationInfo quantization, std::string name)
    : name_(std::move(name)),
      type_(type),
      layout_(layout),
      quantization_(quantization),
      shape_(std::move(shape)) {
    require(static_cast<int>(shape_.size()) <= kMaxDims, "TensorInfo", name_,
            "rank " + std::to_string(shape_.size()) + " exceeds 6");
    for (int64_t d : shape_) require(d >= 0, "TensorInfo", name_, "negative dimension");
    if (layout_ != DataLayout::plain)
        require(shape_.size() == 4, "TensorInfo", name_,
                "layout " + to_string(layout_) + " needs a 4-D shape [N, C, H, W]");
    compute_strides();
    valid_region_ = ValidRegion{std::vector<int64_t>(shape_.size(), 0), shape_};
}

int64_t TensorInfo::element_count() const {
    int64_t count = 1;
    for (int64_t d : shape_) count *= d;
    return count;
}

bool TensorInfo::extend_padding(const PaddingSize& required) {
    if (padding_.covers(required)) return true;
    if (!resizable_ || layout_ == DataLayout::plain) return false;
    padding_.top = std::max(padding_.top, required.top);
    padding_.bottom = std::max(padding_.bottom, required.bottom);
    padding_.left = std::max(padding_.left, required.left);
    padding_.right = std::max(padding_.right, required.right);
    compute_strides();
    return true;
}

void TensorInfo::compute_strides() {
    const int64_t es = static_cast<int64_t>(element_size());
    switch (layout_) {
        case DataLayout::plain:
            physical_shape_ = shape_;
            break;
        case DataLayout::nchw:
            physical_shape_ = {n(), c(), h() + padding_.top + padding_.bottom,
                               w() + padding_.left + padding_.right};
            break;
        case DataLayout::nhwc:
            physical_shape_ = {n(), h() + padding_.top + padding_.bottom,
                               w() + padding_.left + padding_.right, c()};
            break;
        case DataLayout::nchw16c:
            physical_shape_ = {n(), channel_blocks(), h() + padding_.top + padding_.bottom,
                               w() + padding_.left + padding_.right, kChannelBlock};
            break;
    }
    strides_.assign(physical_shape_.size(), es);
    for (int i = static_cast<int>(physical_shape_.size()) - 2; i >= 0; --i)
        strides_[i] = strides_[i + 1] * physical_shape_[i + 1];
    total_size_ = physical_shape_.empty()
                      ? static_cast<std::size_t>(es)
                      : static_cast<std::size_t>(strides_[0] * physical_shape_[0]);
    offset_ = layout_ == DataLayout::plain
                  ? 0
                  : (padding_.top * stride_h() + padding_.left * stride_w()) * es;
}

int64_t TensorInfo::stride_n() const {
    return strides_[0] / static_cast<int64_t>(element_size());
}

int64_t TensorInfo::stride_c() const {
    const int64_t es = static_cast<int64_t>(element_size());
    switch (layout_) {
        case DataLayout::nhwc:
            return strides_[3] / es;
        default:
            return strides_[1] / es;
    }
}

int64_t TensorInfo::stride_h() const {
    const int64_t es = static_cast<int64_t>(element_size());
    return (layout_ == DataLayout::nhwc ? strides_[1] : strides_[2]) / es;
}

int64_t TensorInfo::stride_w() const {
    const int64_t es = static_cast<int64_t>(element_size());
    return (layout_ == DataLayout::nhwc ? strides_[2] : strides_[3]) / es;
}

int64_t TensorInfo::offset_of(int64_t in, int64_t ic, int64_t ih, int64_t iw) const {
    const int64_t es = static_cast<int64_t>(element_size());
    int64_t elements = in * stride_n() + ih * stride_h() + iw * stride_w();
    if (layout_ == DataLayout::nchw16c)
        elements += (ic / kChannelBlock) * stride_c() + ic % kChannelBlock;
    else
        elements += ic * stride_c();
    return offset_ + elements * es;
}

int64_t TensorInfo::offset_of(const std::vector<int64_t>& coords) const {
    if (layout_ != DataLayout::plain) return offset_of(coords[0], coords[1], coords[2], coords[3]);
    int64_t offset = offset_;
    for (std::size_t i = 0; i < coords.size(); ++i) offset += coords[i] * strides_[i];
    return offset;
}

bool TensorInfo::is_dense() const {
    if (!padding_.empty()) return false;
    int64_t expected = static_cast<int64_t>(element_size());
    for (int i = static_cast<int>(physical_shape_.size()) - 1; i >= 0; --i) {
        if (strides_[i] != expected) return false;
        expected *= physical_shape_[i];
    }
    if (layout_ == DataLayout::nchw16c) return c() % kChannelBlock == 0;
    return true;
}

TensorInfo TensorInfo::sub_info(const std::vector<int64_t>& shape,
                                const std::vector<int64_t>& coords) const {
    TensorInfo sub = *this;
    sub.offset_ = offset_of(coords);
    sub.shape_ = shape;
    sub.resizable_ = false;
    sub.valid_region_ = ValidRegion{std::vector<int64_t>(shape.size(), 0), shape};
    return sub;
}

}  // namespace tessera::cpu
