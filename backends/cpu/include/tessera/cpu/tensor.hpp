// Tensors: ITensor (metadata + buffer), Tensor with its allocator (own, managed or imported memory)
// and SubTensor (a zero-copy view of a parent, e.g. for concatenation along channels).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tessera/cpu/memory.hpp"
#include "tessera/cpu/tensor_info.hpp"

namespace tessera::cpu {

class ITensor {
  public:
    virtual ~ITensor() = default;
    virtual const TensorInfo& info() const = 0;
    virtual TensorInfo& info() = 0;
    /// Start of the backing memory (element (0,..) is at info().offset_first_element_in_bytes()).
    virtual uint8_t* buffer() const = 0;
    /// Pointer to the first logical element, typed.
    template <typename T>
    T* data() const {
        return reinterpret_cast<T*>(buffer() + info().offset_first_element_in_bytes());
    }
};

/// Owns, borrows (import) or is lent (memory group) the memory of a Tensor.
class TensorAllocator {
  public:
    explicit TensorAllocator(TensorInfo& info) : info_(info) {}
    TensorAllocator(const TensorAllocator&) = delete;
    TensorAllocator& operator=(const TensorAllocator&) = delete;

    /// Allocates now, or (if managed by a memory group) ends the tensor's lifetime so the group's
    /// memory manager can place it in a blob.
    void allocate();
    /// Frees owned memory or forgets imported memory.
    void free();
    /// Uses caller-owned memory; must be aligned to the element size (and `alignment` if given)
    /// and at least info().total_size_in_bytes() long. Ownership is not transferred.
    void import_memory(void* memory, std::size_t size, std::size_t alignment = 0);
    bool is_allocated() const { return buffer_ != nullptr; }
    bool is_managed() const { return group_ != nullptr; }
    uint8_t* buffer() const { return buffer_; }

  private:
    friend class MemoryGroup;
    void set_group(MemoryGroup* group) { group_ = group; }
    void bind(uint8_t* memory) { buffer_ = memory; }

    TensorInfo& info_;
    std::unique_ptr<MemoryRegion> owned_;
    uint8_t* buffer_ = nullptr;
    MemoryGroup* group_ = nullptr;
};

class Tensor final : public ITensor {
  public:
    Tensor() : allocator_(info_) {}
    explicit Tensor(TensorInfo info) : info_(std::move(info)), allocator_(info_) {}
    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;

    const TensorInfo& info() const override { return info_; }
    TensorInfo& info() override { return info_; }
    uint8_t* buffer() const override { return allocator_.buffer(); }
    TensorAllocator& allocator() { return allocator_; }

  private:
    TensorInfo info_;
    TensorAllocator allocator_;
};

/// Zero-copy alias of part of a parent tensor. Spatial extents must equal the parent's (4-D
/// layouts); in nchw16c the channel start must be a multiple of 16 and the channel count too,
/// unless the view reaches the parent's last channel.
class SubTensor final : public ITensor {
  public:
    SubTensor(ITensor& parent, const std::vector<int64_t>& shape,
              const std::vector<int64_t>& coords);
    const TensorInfo& info() const override { return info_; }
    TensorInfo& info() override { return info_; }
    uint8_t* buffer() const override { return parent_.buffer(); }
    ITensor& parent() const { return parent_; }

  private:
    ITensor& parent_;
    TensorInfo info_;
};

}  // namespace tessera::cpu
