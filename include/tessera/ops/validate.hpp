// tessera/ops/validate.hpp: checks shared by every op descriptor's infer(); each failure throws
// tessera::error naming the op, the tensor and the dimension.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/detail/checked_arith.hpp"
#include "tessera/error.hpp"
#include "tessera/tensor_desc.hpp"

namespace tessera::op {

/// Names an op and its tensors for error messages.
struct checker {
    std::string_view op;

    [[noreturn]] void fail(std::string_view tensor, const std::string& message) const {
        fail_invalid(std::string(op), std::string(tensor), message);
    }

    void count(const std::vector<tensor_desc>& inputs, std::size_t min, std::size_t max) const {
        if (inputs.size() < min || inputs.size() > max) {
            fail("", "expects " +
                         (min == max ? std::to_string(min)
                                     : std::to_string(min) + " to " + std::to_string(max)) +
                         " inputs, got " + std::to_string(inputs.size()));
        }
    }
    void rank(std::string_view tensor, const tensor_desc& d, int expected) const {
        if (d.rank() != expected) {
            fail(tensor,
                 "rank is " + std::to_string(d.rank()) + ", expected " + std::to_string(expected));
        }
    }
    void rank_between(std::string_view tensor, const tensor_desc& d, int lo, int hi) const {
        if (d.rank() < lo || d.rank() > hi) {
            fail(tensor, "rank is " + std::to_string(d.rank()) + ", expected " +
                             std::to_string(lo) + " to " + std::to_string(hi));
        }
    }
    void dim(std::string_view tensor, const tensor_desc& d, int i, std::int64_t expected,
             std::string_view what = {}) const {
        if (d.dim(i) != expected) {
            fail(tensor, "dim " + std::to_string(i) +
                             (what.empty() ? "" : " (" + std::string(what) + ")") + " is " +
                             std::to_string(d.dim(i)) + ", expected " + std::to_string(expected));
        }
    }
    void same_type(std::string_view tensor, const tensor_desc& d, const tensor_desc& like) const {
        if (d.type() != like.type()) {
            fail(tensor, "dtype is " + std::string(to_string(d.type())) + ", expected " +
                             std::string(to_string(like.type())));
        }
    }
    void type_in(std::string_view tensor, const tensor_desc& d,
                 std::initializer_list<dtype> allowed) const {
        for (dtype t : allowed)
            if (d.type() == t) return;
        std::string list;
        for (dtype t : allowed) list += (list.empty() ? "" : ", ") + std::string(to_string(t));
        fail(tensor,
             "dtype " + std::string(to_string(d.type())) + " not allowed; expected one of " + list);
    }
    void positive_dims(std::string_view tensor, const tensor_desc& d) const {
        for (int i = 0; i < d.rank(); ++i)
            if (d.dim(i) <= 0)
                fail(tensor, "dim " + std::to_string(i) + " is " + std::to_string(d.dim(i)) +
                                 ", must be > 0");
    }
    /// a * b for a size derived from `tensor`; fails naming it when the result overflows int64.
    std::int64_t mul(std::string_view tensor, std::int64_t a, std::int64_t b) const {
        const auto r = detail::try_mul(a, b);
        if (!r) {
            fail(tensor,
                 "size " + std::to_string(a) + " * " + std::to_string(b) + " does not fit int64");
        }
        return *r;
    }
    /// a + b for a size derived from `tensor`; fails naming it when the result overflows int64.
    std::int64_t add(std::string_view tensor, std::int64_t a, std::int64_t b) const {
        const auto r = detail::try_add(a, b);
        if (!r) {
            fail(tensor,
                 "size " + std::to_string(a) + " + " + std::to_string(b) + " does not fit int64");
        }
        return *r;
    }
    /// Checks that dims (extents >= 0) of dtype `type` fit a buffer, naming `tensor`.
    void fits(std::string_view tensor, const shape& dims, dtype type) const {
        const auto n = detail::try_extent_product(dims.begin(), dims.rank());
        const auto es = static_cast<std::int64_t>(size_of(type));
        if (!n || !detail::try_mul(*n, es > 0 ? es : 1)) {
            fail(tensor, "shape " + dims.to_string() + " of " + std::string(to_string(type)) +
                             " needs more than INT64_MAX bytes");
        }
    }
    void positive(std::string_view what, std::int64_t value) const {
        if (value <= 0)
            fail("", std::string(what) + " is " + std::to_string(value) + ", must be > 0");
    }
    template <typename Enum>
    void enum_in_range(std::string_view what, std::int32_t value, Enum lo, Enum hi) const {
        if (value < static_cast<std::int32_t>(lo) || value > static_cast<std::int32_t>(hi)) {
            fail("", "unknown " + std::string(what) + " value " + std::to_string(value));
        }
    }
};

/// Row-major output descriptor with the given dims and the dtype/quantisation of `like`.
inline tensor_desc output_like(const shape& dims, const tensor_desc& like) {
    return tensor_desc(dims, like.type(), layout::row_major(), like.quant());
}

}  // namespace tessera::op
