// ICpuKernel: a configured computation over an execution window. Kernels allocate nothing, start no
// threads, and state how their window may be split (dimension and minimum chunk).
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/cpu/window.hpp"

namespace tessera::cpu {

/// Which part of a split workload the calling thread runs (thread_id < num_threads).
struct ThreadInfo {
    int thread_id = 0;
    int num_threads = 1;
};

class ICpuKernel {
  public:
    virtual ~ICpuKernel() = default;
    virtual const char* name() const = 0;
    /// Runs the sub-window `window` of window(); safe to call concurrently on disjoint sub-windows.
    virtual void run(const Window& window, const ThreadInfo& info) = 0;

    /// The full execution window (valid after configure).
    const Window& window() const { return window_; }
    /// Dimension along which the window may be split across threads.
    std::size_t split_dimension() const { return split_dimension_; }
    /// Fewest steps of the split dimension worth giving one thread.
    int64_t min_chunk() const { return min_chunk_; }
    /// False when the kernel must run as a single piece.
    bool is_parallelisable() const { return parallelisable_; }
    /// Parts per thread when the window is split across several threads (1 unless the kernel
    /// asked for more): threads claim parts as they come, so with several parts each, one that
    /// starts late or runs slower is relieved by the others.
    int parts_per_thread() const { return parts_per_thread_; }
    /// Whether each part along split_dimension() may be split again along
    /// secondary_split_dimension(), when the first dimension has fewer steps than the threads
    /// want parts.
    bool has_secondary_split() const { return secondary_split_ >= 0; }
    std::size_t secondary_split_dimension() const {
        return static_cast<std::size_t>(secondary_split_);
    }

  protected:
    void configure_window(const Window& window, std::size_t split_dimension, int64_t min_chunk = 1,
                          bool parallelisable = true) {
        window_ = window;
        split_dimension_ = split_dimension;
        min_chunk_ = min_chunk < 1 ? 1 : min_chunk;
        parallelisable_ = parallelisable;
    }
    /// Only for kernels whose parts need no per-part setup or workspace (ThreadInfo::thread_id
    /// then numbers parts, up to threads * n).
    void set_parts_per_thread(int n) { parts_per_thread_ = n < 1 ? 1 : n; }
    /// Only for kernels whose parts need no per-part setup or workspace: `dim` (not the split
    /// dimension) may be split too.
    void set_secondary_split(std::size_t dim) { secondary_split_ = static_cast<int>(dim); }

  private:
    Window window_;
    std::size_t split_dimension_ = 0;
    int64_t min_chunk_ = 1;
    bool parallelisable_ = true;
    int parts_per_thread_ = 1;
    int secondary_split_ = -1;
};

}  // namespace tessera::cpu
