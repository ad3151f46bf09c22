// TensorAllocator (own / managed / imported memory) and SubTensor views.
#include "tessera/cpu/tensor.hpp"

#include <cstdint>

#include "tessera/cpu/error.hpp"

namespace tessera::cpu {

void TensorAllocator::allocate() {
    if (group_ != nullptr && group_->has_manager()) {
        info_.set_resizable(false);
        group_->finalize(*this, info_.total_size_in_bytes());
        return;
    }
    if (buffer_ != nullptr) return;
    owned_ = std::make_unique<MemoryRegion>(info_.total_size_in_bytes(), kDefaultAlignment);
    buffer_ = owned_->data();
    info_.set_resizable(false);
}

void TensorAllocator::free() {
    owned_.reset();
    buffer_ = nullptr;
    info_.set_resizable(true);
}

void TensorAllocator::import_memory(void* memory, std::size_t size, std::size_t alignment) {
    const char* fn = "TensorAllocator::import_memory";
    if (memory == nullptr) throw MemoryError(fn, info_.name(), "null pointer");
    if (group_ != nullptr)
        throw MemoryError(fn, info_.name(), "tensor is managed by a memory group");
    if (size < info_.total_size_in_bytes())
        throw MemoryError(fn, info_.name(),
                          "buffer of " + std::to_string(size) + " bytes is smaller than the " +
                              std::to_string(info_.total_size_in_bytes()) + " bytes required");
    const std::size_t needed = std::max(info_.element_size(), alignment);
    if (reinterpret_cast<std::uintptr_t>(memory) % needed != 0)
        throw MemoryError(fn, info_.name(),
                          "buffer is not aligned to " + std::to_string(needed) + " bytes");
    owned_.reset();
    buffer_ = static_cast<uint8_t*>(memory);
    info_.set_resizable(false);
}

SubTensor::SubTensor(ITensor& parent, const std::vector<int64_t>& shape,
                     const std::vector<int64_t>& coords)
    : parent_(parent) {
    const TensorInfo& p = parent.info();
    const char* fn = "SubTensor";
    require(static_cast<int>(shape.size()) == p.rank() && coords.size() == shape.size(), fn,
            p.name(), "shape/coords rank differs from the parent's");
    for (int i = 0; i < p.rank(); ++i)
        require(coords[i] >= 0 && shape[i] >= 0 && coords[i] + shape[i] <= p.dim(i), fn, p.name(),
                "view exceeds the parent along dimension " + std::to_string(i));
    if (p.is_4d_layout()) {
        require(shape[2] == p.h() && shape[3] == p.w() && coords[2] == 0 && coords[3] == 0, fn,
                p.name(), "sub-tensors cannot be extracted spatially");
        if (p.layout() == DataLayout::nchw16c) {
            require(coords[1] % kChannelBlock == 0, fn, p.name(),
                    "channel start must be a multiple of 16 in nchw16c");
            require(shape[1] % kChannelBlock == 0 || coords[1] + shape[1] == p.c(), fn, p.name(),
                    "channel count must be a multiple of 16 in nchw16c unless it ends the parent");
        }
    }
    info_ = p.sub_info(shape, coords);
}

}  // namespace tessera::cpu
