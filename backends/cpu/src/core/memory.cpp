// Memory regions, allocators, blob lifetime manager, pools, pool manager, memory manager, groups.
#include "tessera/cpu/memory.hpp"

#include <algorithm>
#include <cstdlib>

#include "tessera/cpu/error.hpp"
#include "tessera/cpu/tensor.hpp"

namespace tessera::cpu {

MemoryRegion::MemoryRegion(std::size_t size, std::size_t alignment) : size_(size) {
    const std::size_t rounded =
        (std::max<std::size_t>(size, 1) + alignment - 1) / alignment * alignment;
    data_ = static_cast<uint8_t*>(std::aligned_alloc(alignment, rounded));
    if (data_ == nullptr)
        throw MemoryError("MemoryRegion", "",
                          "allocation of " + std::to_string(size) + " bytes failed");
}

MemoryRegion::~MemoryRegion() {
    std::free(data_);
}

std::unique_ptr<MemoryRegion> DefaultAllocator::make_region(std::size_t size,
                                                            std::size_t alignment) {
    bytes_allocated_ += size;
    ++regions_allocated_;
    return std::make_unique<MemoryRegion>(size, alignment);
}

MemoryPool::MemoryPool(IAllocator& allocator, const std::vector<std::size_t>& blob_sizes) {
    for (std::size_t size : blob_sizes)
        blobs_.push_back(allocator.make_region(size, kDefaultAlignment));
}

void LifetimeManager::register_group(const MemoryGroup* group) {
    groups_[group];
}

void LifetimeManager::start_lifetime(const MemoryGroup* group, const TensorAllocator* object) {
    // An object takes a free blob when its lifetime starts and gives it back when it ends, so
    // objects alive at the same time never share a blob.
    GroupState& g = groups_[group];
    std::size_t chosen = g.blobs.size();
    for (std::size_t i = 0; i < g.blobs.size(); ++i)
        if (!g.blobs[i].busy) {
            chosen = i;
            break;
        }
    if (chosen == g.blobs.size()) g.blobs.push_back(Blob{});
    g.blobs[chosen].busy = true;
    g.assignment[object] = chosen;
    g.active[object] = true;
}

void LifetimeManager::end_lifetime(const MemoryGroup* group, const TensorAllocator* object,
                                   std::size_t size) {
    GroupState& g = groups_[group];
    auto it = g.active.find(object);
    if (it == g.active.end() || !it->second)
        throw MemoryError("LifetimeManager::end_lifetime", "", "object lifetime was never started");
    it->second = false;
    Blob& blob = g.blobs[g.assignment.at(object)];
    blob.size = std::max(blob.size, size);
    blob.busy = false;
}

std::size_t LifetimeManager::blob_of(const MemoryGroup* group,
                                     const TensorAllocator* object) const {
    return groups_.at(group).assignment.at(object);
}

std::vector<std::size_t> LifetimeManager::blob_sizes() const {
    std::vector<std::size_t> sizes;
    for (const auto& [group, state] : groups_) {
        if (state.blobs.size() > sizes.size()) sizes.resize(state.blobs.size(), 0);
        for (std::size_t i = 0; i < state.blobs.size(); ++i)
            sizes[i] = std::max(sizes[i], state.blobs[i].size);
    }
    return sizes;
}

bool LifetimeManager::all_finalized() const {
    for (const auto& [group, state] : groups_)
        for (const auto& [object, active] : state.active)
            if (active) return false;
    return true;
}

void PoolManager::add_pool(std::unique_ptr<MemoryPool> pool) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(pool.get());
    pools_.push_back(std::move(pool));
}

MemoryPool* PoolManager::lock_pool() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (pools_.empty())
        throw MemoryError("PoolManager::lock_pool", "", "no pools (populate first)");
    available_.wait(lock, [this] { return !free_.empty(); });
    MemoryPool* pool = free_.back();
    free_.pop_back();
    return pool;
}

void PoolManager::unlock_pool(MemoryPool* pool) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(pool);
    }
    available_.notify_one();
}

std::size_t PoolManager::pool_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return pools_.size();
}

MemoryManager::MemoryManager() = default;

void MemoryManager::populate(IAllocator& allocator, std::size_t num_pools) {
    if (populated_) throw MemoryError("MemoryManager::populate", "", "already populated");
    if (!lifetime_.all_finalized())
        throw MemoryError("MemoryManager::populate", "",
                          "a managed tensor's lifetime has not ended (allocate() not called)");
    blob_sizes_ = lifetime_.blob_sizes();
    for (std::size_t i = 0; i < num_pools; ++i)
        pools_.add_pool(std::make_unique<MemoryPool>(allocator, blob_sizes_));
    populated_ = true;
}

void MemoryManager::populate_if_needed(std::size_t num_pools) {
    if (populated_) return;
    own_allocator_ = std::make_unique<DefaultAllocator>();
    populate(*own_allocator_, num_pools);
}

MemoryGroup::MemoryGroup(std::shared_ptr<MemoryManager> manager) : manager_(std::move(manager)) {
    if (manager_) manager_->lifetime_manager().register_group(this);
}

MemoryGroup::~MemoryGroup() {
    if (pool_ != nullptr) release();
}

void MemoryGroup::manage(TensorAllocator& allocator) {
    if (manager_ == nullptr) return;  // immediate allocation on allocate()
    if (manager_->is_populated())
        throw MemoryError("MemoryGroup::manage", allocator.info_.name(),
                          "memory manager already populated; configure all functions first");
    allocator.set_group(this);
    managed_.push_back(&allocator);
    manager_->lifetime_manager().start_lifetime(this, &allocator);
}

void MemoryGroup::finalize(TensorAllocator& allocator, std::size_t size) {
    manager_->lifetime_manager().end_lifetime(this, &allocator, size);
}

void MemoryGroup::acquire() {
    if (manager_ == nullptr || managed_.empty()) return;
    manager_->populate_if_needed();
    pool_ = manager_->pool_manager().lock_pool();
    for (TensorAllocator* object : managed_)
        object->bind(pool_->blob(manager_->lifetime_manager().blob_of(this, object)));
}

void MemoryGroup::release() {
    if (pool_ == nullptr) return;
    for (TensorAllocator* object : managed_) object->bind(nullptr);
    manager_->pool_manager().unlock_pool(pool_);
    pool_ = nullptr;
}

}  // namespace tessera::cpu
