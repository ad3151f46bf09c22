// Memory management in the ACL model: allocators and regions, a lifetime manager that packs
// managed temporaries into reusable blobs, pools of blobs, a pool manager and memory groups.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace tessera::cpu {

class TensorAllocator;

constexpr std::size_t kDefaultAlignment = 64;

/// An owned, aligned block of memory (RAII).
class MemoryRegion {
  public:
    MemoryRegion(std::size_t size, std::size_t alignment);
    ~MemoryRegion();
    MemoryRegion(const MemoryRegion&) = delete;
    MemoryRegion& operator=(const MemoryRegion&) = delete;
    uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }

  private:
    uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Source of backing memory.
class IAllocator {
  public:
    virtual ~IAllocator() = default;
    virtual std::unique_ptr<MemoryRegion> make_region(std::size_t size, std::size_t alignment) = 0;
};

/// Aligned heap allocator that counts what it hands out.
class DefaultAllocator final : public IAllocator {
  public:
    std::unique_ptr<MemoryRegion> make_region(std::size_t size, std::size_t alignment) override;
    std::size_t bytes_allocated() const { return bytes_allocated_; }
    std::size_t regions_allocated() const { return regions_allocated_; }

  private:
    std::size_t bytes_allocated_ = 0;
    std::size_t regions_allocated_ = 0;
};

class MemoryGroup;

/// A set of blobs backing the managed tensors of any one group at a time.
class MemoryPool {
  public:
    MemoryPool(IAllocator& allocator, const std::vector<std::size_t>& blob_sizes);
    uint8_t* blob(std::size_t index) const { return blobs_.at(index)->data(); }
    std::size_t blob_count() const { return blobs_.size(); }
    std::size_t blob_size(std::size_t index) const { return blobs_.at(index)->size(); }

  private:
    std::vector<std::unique_ptr<MemoryRegion>> blobs_;
};

/// Tracks object lifetimes per memory group and assigns objects whose lifetimes do not overlap to
/// the same blob. Blob i of the pool is the largest blob i over all groups.
class LifetimeManager {
  public:
    void register_group(const MemoryGroup* group);
    void start_lifetime(const MemoryGroup* group, const TensorAllocator* object);
    void end_lifetime(const MemoryGroup* group, const TensorAllocator* object, std::size_t size);
    /// Blob index of `object` in `group` (after its lifetime ended).
    std::size_t blob_of(const MemoryGroup* group, const TensorAllocator* object) const;
    /// Blob sizes a pool needs to serve every registered group.
    std::vector<std::size_t> blob_sizes() const;
    /// Whether every started lifetime has ended.
    bool all_finalized() const;

  private:
    struct Blob {
        std::size_t size = 0;
        bool busy = false;
    };
    struct GroupState {
        std::vector<Blob> blobs;
        std::map<const TensorAllocator*, std::size_t> assignment;  // object -> blob
        std::map<const TensorAllocator*, bool> active;             // started, not yet ended
    };
    std::map<const MemoryGroup*, GroupState> groups_;
};

/// Hands pools to groups; blocks when all pools are in use.
class PoolManager {
  public:
    void add_pool(std::unique_ptr<MemoryPool> pool);
    MemoryPool* lock_pool();
    void unlock_pool(MemoryPool* pool);
    std::size_t pool_count() const;

  private:
    mutable std::mutex mutex_;
    std::condition_variable available_;
    std::vector<std::unique_ptr<MemoryPool>> pools_;
    std::vector<MemoryPool*> free_;
};

/// Lifetime manager + pool manager: populate() creates `num_pools` pools once configuration ended.
class MemoryManager {
  public:
    MemoryManager();
    LifetimeManager& lifetime_manager() { return lifetime_; }
    PoolManager& pool_manager() { return pools_; }
    void populate(IAllocator& allocator, std::size_t num_pools);
    /// Populates with a private DefaultAllocator if not yet populated (used by functions).
    void populate_if_needed(std::size_t num_pools = 1);
    bool is_populated() const { return populated_; }
    /// Blob sizes of the pools (after populate).
    const std::vector<std::size_t>& pool_blob_sizes() const { return blob_sizes_; }

  private:
    LifetimeManager lifetime_;
    PoolManager pools_;
    std::unique_ptr<DefaultAllocator> own_allocator_;
    std::vector<std::size_t> blob_sizes_;
    bool populated_ = false;
};

/// Binds managed tensors to the memory of a pool while the group is acquired. Without a manager,
/// managed tensors are allocated immediately.
class MemoryGroup {
  public:
    explicit MemoryGroup(std::shared_ptr<MemoryManager> manager = nullptr);
    ~MemoryGroup();
    MemoryGroup(const MemoryGroup&) = delete;
    MemoryGroup& operator=(const MemoryGroup&) = delete;

    /// Starts the lifetime of `allocator`'s tensor; its allocate() call ends it.
    void manage(TensorAllocator& allocator);
    void acquire();
    void release();
    bool has_manager() const { return manager_ != nullptr; }
    MemoryManager* manager() const { return manager_.get(); }

  private:
    friend class TensorAllocator;
    void finalize(TensorAllocator& allocator, std::size_t size);

    std::shared_ptr<MemoryManager> manager_;
    std::vector<TensorAllocator*> managed_;
    MemoryPool* pool_ = nullptr;
};

/// RAII acquire/release of a memory group for the duration of a run().
class MemoryGroupScope {
  public:
    explicit MemoryGroupScope(MemoryGroup& group) : group_(group) { group_.acquire(); }
    ~MemoryGroupScope() { group_.release(); }
    MemoryGroupScope(const MemoryGroupScope&) = delete;
    MemoryGroupScope& operator=(const MemoryGroupScope&) = delete;

  private:
    MemoryGroup& group_;
};

}  // namespace tessera::cpu
