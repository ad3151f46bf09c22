// tessera/layout.hpp: how logical dimensions map to memory. Plain strided layouts (row-major,
// NCHW, NHWC, any permutation, explicit strides), "any" (the backend chooses, as in oneDNN) and
// opaque backend-private layouts.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "tessera/c/tensor_desc.h"
#include "tessera/detail/checked_arith.hpp"
#include "tessera/shape.hpp"

namespace tessera {

enum class layout_kind : std::int32_t {
    strided = TSR_LAYOUT_STRIDED,
    any = TSR_LAYOUT_ANY,
    opaque = TSR_LAYOUT_OPAQUE,
};

/// A layout request. Strides are computed against concrete dims by tensor_desc.
/// Thread safety: a plain value; concurrent const use is safe, modification is not.
class layout {
  public:
    /// Dense, last dimension fastest (NCHW for image shapes).
    static layout row_major() { return layout(); }
    static layout nchw() { return row_major(); }
    /// Channels last for image shapes: memory order N, [D,] H, W, C.
    static layout nhwc() {
        layout l;
        l.channels_last_ = true;
        return l;
    }
    /// Dense with dimensions ordered in memory from outermost to innermost as `order`.
    static layout permuted(std::initializer_list<int> order) {
        check_rank(order.size());
        layout l;
        l.order_size_ = 0;
        for (int d : order) l.order_[l.order_size_++] = d;
        return l;
    }
    /// Explicit strides in elements.
    static layout strided(std::initializer_list<std::int64_t> strides) {
        return strided(strides.begin(), strides.size());
    }
    /// Explicit strides in elements, from `rank` consecutive values.
    static layout strided(const std::int64_t* strides, std::size_t rank) {
        check_rank(rank);
        layout l;
        l.explicit_strides_ = true;
        for (std::size_t i = 0; i < rank; ++i) l.strides_[l.strides_size_++] = strides[i];
        return l;
    }
    static layout any() {
        layout l;
        l.kind_ = layout_kind::any;
        return l;
    }
    static layout opaque(std::string_view backend, std::string_view format,
                         std::int64_t size_bytes) {
        layout l;
        l.kind_ = layout_kind::opaque;
        l.backend_ = std::string(backend);
        l.format_ = std::string(format);
        l.opaque_size_ = size_bytes;
        return l;
    }

    layout_kind kind() const { return kind_; }

    /// Strides (elements) for `dims`; only for strided layouts.
    std::array<std::int64_t, max_dims> strides_for(const shape& dims) const {
        std::array<std::int64_t, max_dims> strides{};
        const int r = dims.rank();
        if (explicit_strides_) {
            if (strides_size_ != r) {
                throw error(status::invalid_argument,
                            "layout has " + std::to_string(strides_size_) + " strides for a rank-" +
                                std::to_string(r) + " shape");
            }
            for (int i = 0; i < r; ++i) strides[i] = strides_[i];
            return strides;
        }
        std::array<int, max_dims> order{};
        if (order_size_ > 0) {
            if (order_size_ != r) {
                throw error(status::invalid_argument,
                            "layout permutation has " + std::to_string(order_size_) +
                                " entries for a rank-" + std::to_string(r) + " shape");
            }
            std::array<bool, max_dims> seen{};
            for (int i = 0; i < r; ++i) {
                const int d = order_[i];
                if (d < 0 || d >= r || seen[d]) {
                    throw error(status::invalid_argument,
                                "layout permutation is not a permutation");
                }
                seen[d] = true;
                order[i] = d;
            }
        } else {
            for (int i = 0; i < r; ++i) order[i] = i;
            if (channels_last_ && r >= 3) {  // N, spatial..., C
                order[0] = 0;
                for (int i = 1; i < r - 1; ++i) order[i] = i + 1;
                order[r - 1] = 1;
            }
        }
        std::int64_t stride = 1;
        for (int i = r - 1; i >= 0; --i) {
            strides[order[i]] = stride;
            const std::int64_t extent = dims[order[i]] > 0 ? dims[order[i]] : 1;
            const auto next = detail::try_mul(stride, extent);
            if (!next && i > 0) {  // the outermost product is never used as a stride
                throw error(status::invalid_argument,
                            "dense strides of " + dims.to_string() + " do not fit int64");
            }
            stride = next ? *next : 0;
        }
        return strides;
    }

    const std::string& opaque_backend() const { return backend_; }
    const std::string& opaque_format() const { return format_; }
    std::int64_t opaque_size() const { return opaque_size_; }

  private:
    static void check_rank(std::size_t entries) {
        if (entries > static_cast<std::size_t>(max_dims)) {
            throw error(status::invalid_argument, "layout has " + std::to_string(entries) +
                                                      " entries, more than " +
                                                      std::to_string(max_dims) + " dims");
        }
    }

    layout_kind kind_ = layout_kind::strided;
    bool channels_last_ = false;
    bool explicit_strides_ = false;
    std::array<int, max_dims> order_{};
    int order_size_ = 0;
    std::array<std::int64_t, max_dims> strides_{};
    int strides_size_ = 0;
    std::string backend_;
    std::string format_;
    std::int64_t opaque_size_ = 0;
};

}  // namespace tessera
