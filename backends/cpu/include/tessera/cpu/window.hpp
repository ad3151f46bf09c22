// Window: the iteration space of a kernel (up to 6 dimensions of start/end/step) and its splitting.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace tessera::cpu {

class Window {
  public:
    static constexpr std::size_t kNumDims = 6;

    class Dimension {
      public:
        constexpr Dimension() = default;
        constexpr Dimension(int64_t start, int64_t end, int64_t step = 1)
            : start_(start), end_(end), step_(step) {}
        constexpr int64_t start() const { return start_; }
        constexpr int64_t end() const { return end_; }
        constexpr int64_t step() const { return step_; }
        /// Number of steps from start to end.
        constexpr int64_t num_iterations() const {
            return end_ > start_ ? (end_ - start_ + step_ - 1) / step_ : 0;
        }
        bool operator==(const Dimension& o) const {
            return start_ == o.start_ && end_ == o.end_ && step_ == o.step_;
        }

      private:
        int64_t start_ = 0, end_ = 1, step_ = 1;
    };

    Window() = default;

    /// Sets dimension `dim`; (end - start) must be a multiple of step (InvalidArgument otherwise).
    void set(std::size_t dim, const Dimension& dimension);
    const Dimension& operator[](std::size_t dim) const { return dims_.at(dim); }
    int64_t num_iterations(std::size_t dim) const { return dims_.at(dim).num_iterations(); }
    int64_t total_iterations() const;

    /// Part `id` of `total` of this window along `dim`: contiguous, step-aligned, balanced to
    /// within one step, and empty (start == end) when there are fewer steps than parts.
    Window split_window(std::size_t dim, int64_t id, int64_t total) const;

    /// Whether `sub` is a valid sub-window of this window under the ACL splitting rules.
    bool is_valid_subwindow(const Window& sub) const;

    bool operator==(const Window& o) const { return dims_ == o.dims_; }

  private:
    std::array<Dimension, kNumDims> dims_{};
};

}  // namespace tessera::cpu
