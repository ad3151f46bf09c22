// Scratchpad: grow-only working memory that one-shot calls (sgemm) borrow from their Context, so
// that repeated calls write the same memory (already in each core's cache, no allocation per call)
// instead of whatever the heap returns each time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include "tessera/cpu/memory.hpp"

namespace tessera::cpu {

class Scratchpad {
  public:
    /// Memory borrowed for the lifetime of the lease (RAII): the scratchpad's own region, or a
    /// private one while another lease holds that (concurrent calls on one Context).
    class Lease {
      public:
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&&) = delete;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ~Lease();
        uint8_t* data() const { return data_; }
        /// Whether this lease holds the scratchpad's own (reused) region.
        bool shared() const { return pad_ != nullptr; }

      private:
        friend class Scratchpad;
        Lease(Scratchpad* pad, uint8_t* data) : pad_(pad), data_(data) {}
        explicit Lease(std::unique_ptr<MemoryRegion> own);
        Scratchpad* pad_ = nullptr;  ///< set while this lease holds the scratchpad's region
        std::unique_ptr<MemoryRegion> own_;
        uint8_t* data_ = nullptr;
    };

    /// At least `bytes` of kDefaultAlignment-aligned memory (contents unspecified).
    Lease borrow(std::size_t bytes);
    /// Bytes of the scratchpad's own region (its largest borrow so far).
    std::size_t capacity() const;

  private:
    void give_back();

    mutable std::mutex mutex_;
    std::unique_ptr<MemoryRegion> region_;
    bool leased_ = false;
};

}  // namespace tessera::cpu
