// tessera/shape.hpp: logical tensor dimensions with optional semantic labels (N, C, D, H, W).
// Image tensors keep a canonical logical order (N, C, [D,] H, W) whatever their memory layout.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "tessera/c/tensor_desc.h"
#include "tessera/detail/checked_arith.hpp"
#include "tessera/error.hpp"

namespace tessera {

enum class dim_label : std::int32_t {
    any = TSR_DIM_ANY,
    n = TSR_DIM_N,
    c = TSR_DIM_C,
    d = TSR_DIM_D,
    h = TSR_DIM_H,
    w = TSR_DIM_W,
};

constexpr char label_char(dim_label l) {
    switch (l) {
        case dim_label::n:
            return 'N';
        case dim_label::c:
            return 'C';
        case dim_label::d:
            return 'D';
        case dim_label::h:
            return 'H';
        case dim_label::w:
            return 'W';
        case dim_label::any:
            return '?';
    }
    return '?';
}

inline constexpr int max_dims = TSR_MAX_DIMS;

/// Up to max_dims extents, each with a label. Value type, no heap.
/// Thread safety: a plain value; concurrent const use is safe, modification is not.
class shape {
  public:
    shape() = default;
    shape(std::initializer_list<std::int64_t> extents) {
        if (extents.size() > static_cast<std::size_t>(max_dims)) {
            throw error(status::invalid_argument, "rank " + std::to_string(extents.size()) +
                                                      " exceeds " + std::to_string(max_dims));
        }
        for (auto e : extents) push_back(e);
    }
    template <typename It>
    shape(It first, It last) {
        for (; first != last; ++first) push_back(static_cast<std::int64_t>(*first));
    }

    static shape nchw(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
        return labelled({n, c, h, w}, {dim_label::n, dim_label::c, dim_label::h, dim_label::w});
    }
    static shape ncdhw(std::int64_t n, std::int64_t c, std::int64_t d, std::int64_t h,
                       std::int64_t w) {
        return labelled({n, c, d, h, w},
                        {dim_label::n, dim_label::c, dim_label::d, dim_label::h, dim_label::w});
    }
    static shape nc(std::int64_t n, std::int64_t c) {
        return labelled({n, c}, {dim_label::n, dim_label::c});
    }

    void push_back(std::int64_t extent, dim_label label = dim_label::any) {
        if (rank_ >= max_dims) {
            throw error(status::invalid_argument, "rank exceeds " + std::to_string(max_dims));
        }
        extents_[rank_] = extent;
        labels_[rank_] = label;
        ++rank_;
    }

    int rank() const { return rank_; }
    bool empty() const { return rank_ == 0; }
    std::int64_t operator[](int i) const { return extents_[check(i)]; }
    std::int64_t& operator[](int i) { return extents_[check(i)]; }
    dim_label label(int i) const { return labels_[check(i)]; }
    void set_label(int i, dim_label l) { labels_[check(i)] = l; }
    bool is_image() const {
        return rank_ >= 3 && labels_[0] == dim_label::n && labels_[1] == dim_label::c;
    }

    /// Index of the dimension labelled `l`, or -1.
    int find(dim_label l) const {
        for (int i = 0; i < rank_; ++i)
            if (labels_[i] == l) return i;
        return -1;
    }

    /// Product of the extents (0 when any extent is 0); throws when it does not fit int64.
    std::int64_t num_elements() const {
        for (int i = 0; i < rank_; ++i)
            if (extents_[i] == 0) return 0;
        std::int64_t n = 1;
        for (int i = 0; i < rank_; ++i) {
            const auto next = detail::try_mul(n, extents_[i]);
            if (!next) {
                throw error(status::invalid_argument,
                            "element count of " + to_string() + " does not fit int64");
            }
            n = *next;
        }
        return n;
    }

    const std::int64_t* begin() const { return extents_.data(); }
    const std::int64_t* end() const { return extents_.data() + rank_; }

    /// Same extents (labels are descriptive and not compared).
    friend bool operator==(const shape& a, const shape& b) {
        if (a.rank_ != b.rank_) return false;
        for (int i = 0; i < a.rank_; ++i)
            if (a.extents_[i] != b.extents_[i]) return false;
        return true;
    }
    friend bool operator!=(const shape& a, const shape& b) { return !(a == b); }

    /// "1x3x224x224 (NCHW)".
    std::string to_string() const {
        std::string s;
        bool labelled_any = false;
        for (int i = 0; i < rank_; ++i) {
            if (i) s += 'x';
            s += std::to_string(extents_[i]);
            labelled_any |= labels_[i] != dim_label::any;
        }
        if (rank_ == 0) s = "scalar";
        if (labelled_any) {
            s += " (";
            for (int i = 0; i < rank_; ++i) s += label_char(labels_[i]);
            s += ')';
        }
        return s;
    }

  private:
    static shape labelled(std::initializer_list<std::int64_t> e,
                          std::initializer_list<dim_label> l) {
        shape s;
        auto li = l.begin();
        for (auto x : e) s.push_back(x, *li++);
        return s;
    }
    int check(int i) const {
        if (i < 0 || i >= rank_) {
            throw error(status::invalid_argument, "dimension index " + std::to_string(i) +
                                                      " out of range for rank " +
                                                      std::to_string(rank_));
        }
        return i;
    }

    std::array<std::int64_t, max_dims> extents_{};
    std::array<dim_label, max_dims> labels_{};
    int rank_ = 0;
};

}  // namespace tessera
