// Scratchpad: one reusable region, handed to one lease at a time.
#include "tessera/cpu/scratchpad.hpp"

#include <algorithm>

namespace tessera::cpu {

Scratchpad::Lease::Lease(std::unique_ptr<MemoryRegion> own)
    : own_(std::move(own)), data_(own_->data()) {}

Scratchpad::Lease::Lease(Lease&& other) noexcept
    : pad_(other.pad_), own_(std::move(other.own_)), data_(other.data_) {
    other.pad_ = nullptr;
    other.data_ = nullptr;
}

Scratchpad::Lease::~Lease() {
    if (pad_) pad_->give_back();
}

Scratchpad::Lease Scratchpad::borrow(std::size_t bytes) {
    bytes = std::max<std::size_t>(bytes, 1);
    std::lock_guard<std::mutex> lock(mutex_);
    if (leased_) return Lease(std::make_unique<MemoryRegion>(bytes, kDefaultAlignment));
    if (!region_ || region_->size() < bytes)
        region_ = std::make_unique<MemoryRegion>(bytes, kDefaultAlignment);
    leased_ = true;
    return Lease(this, region_->data());
}

std::size_t Scratchpad::capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return region_ ? region_->size() : 0;
}

void Scratchpad::give_back() {
    std::lock_guard<std::mutex> lock(mutex_);
    leased_ = false;
}

}  // namespace tessera::cpu
