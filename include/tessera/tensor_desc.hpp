// tessera/tensor_desc.hpp: tensor_desc, the C++ face of tsr_tensor_desc: logical shape, dtype
// with quantisation, and layout. Cheap to copy; compares by value (layouts by strides, not tags).
//
// Sizes. Every descriptor's dims fit: the product of its extents (zero extents counted as 1)
// times the element size is at most INT64_MAX bytes; constructing one that does not throws.
//
// Accepted strided layouts. Element (i0, ..., ik) lives `offset + sum(i_d * stride_d)` elements
// from the buffer start. A strided layout is *addressable* when
//   - every extent is >= 0, and, when the tensor has elements,
//   - the lowest element it addresses, offset + sum over negative strides of
//     (extent - 1) * stride, is >= 0 (strides and offset may be negative: a reversed view of n
//     elements has offset n - 1 and stride -1), and
//   - the byte just past the highest element it addresses is at most INT64_MAX.
// It is *non-overlapping* when in addition no two indices address the same element: with the
// dims of extent > 1 sorted by |stride|, each |stride| is larger than the span of the dims inside
// it (zero strides, broadcast views and two dims with stride 1 overlap). Size-1 dims may have any
// stride. Layouts that interleave dims without overlapping are not accepted either.
//
// Who needs what: host tensors (owning or borrowed) need an addressable layout and a valid dtype
// (overlapping layouts serve as broadcast views there); graph inputs and constants need an
// addressable, non-overlapping layout. size_bytes() is the byte just past the highest element
// and throws for layouts that are not addressable.
#pragma once

#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "tessera/c/tensor_desc.h"
#include "tessera/detail/checked_arith.hpp"
#include "tessera/dtype.hpp"
#include "tessera/layout.hpp"
#include "tessera/shape.hpp"

namespace tessera {

/// Whether a strided layout may address one element through several indices.
enum class overlap { allowed, rejected };

/// Thread safety: a plain value. Const members may be called from any number of threads at
/// once; a descriptor being modified must not be read by another thread at the same time.
class tensor_desc {
  public:
    tensor_desc() {
        std::memset(&c_, 0, sizeof c_);
        c_.struct_size = sizeof c_;
    }

    tensor_desc(const shape& dims, dtype type, const layout& l = layout::row_major(),
                const quantization& q = {})
        : tensor_desc() {
        c_.rank = dims.rank();
        for (int i = 0; i < dims.rank(); ++i) {
            c_.dims[i] = dims[i];
            c_.labels[i] = static_cast<std::int32_t>(dims.label(i));
        }
        c_.dtype = static_cast<std::int32_t>(type);
        c_.scale = q.scale;
        c_.zero_point = q.zero_point;
        c_.fixed_point_pos = q.fixed_point_pos;
        check_size_fits();
        set_layout(l);
    }

    /// Wraps a descriptor that came across the C ABI (older, shorter structs are accepted).
    explicit tensor_desc(const tsr_tensor_desc& c) : tensor_desc() {
        std::memcpy(&c_, &c, c.struct_size < sizeof c_ ? c.struct_size : sizeof c_);
        c_.struct_size = sizeof c_;
        if (c_.rank < 0 || c_.rank > max_dims) {  // every loop over dims trusts the rank
            throw error(status::invalid_argument, "tensor descriptor rank " +
                                                      std::to_string(c_.rank) + " outside 0.." +
                                                      std::to_string(max_dims));
        }
        check_size_fits();
    }

    const tsr_tensor_desc& c_desc() const { return c_; }

    int rank() const { return c_.rank; }
    shape dims() const {
        shape s;
        for (int i = 0; i < c_.rank; ++i)
            s.push_back(c_.dims[i], static_cast<dim_label>(c_.labels[i]));
        return s;
    }
    std::int64_t dim(int i) const { return dims()[i]; }
    dtype type() const { return static_cast<dtype>(c_.dtype); }
    quantization quant() const { return {c_.scale, c_.zero_point, c_.fixed_point_pos}; }
    layout_kind kind() const { return static_cast<layout_kind>(c_.layout_kind); }
    bool is_strided() const { return kind() == layout_kind::strided; }
    bool is_any() const { return kind() == layout_kind::any; }
    bool is_opaque() const { return kind() == layout_kind::opaque; }
    std::int64_t stride(int i) const { return c_.strides[i]; }
    std::int64_t offset() const { return c_.offset; }
    std::string opaque_backend() const { return c_.opaque.backend; }
    std::string opaque_format() const { return c_.opaque.format; }

    std::int64_t num_elements() const { return dims().num_elements(); }

    /// Bytes a buffer holding this tensor needs: up to the byte past the highest element it
    /// addresses (offset and strides included). Throws for strided layouts that are not
    /// addressable (see the header comment).
    std::int64_t size_bytes() const {
        if (is_opaque()) return c_.opaque.size_bytes;
        if (is_any()) return 0;
        if (const auto problem = layout_problem(overlap::allowed)) {
            throw error(status::invalid_argument, to_string() + ": " + *problem);
        }
        if (has_no_elements()) return 0;
        return (*address_range().highest + 1) * element_bytes();
    }

    /// Why this strided layout is not accepted under `policy` (see the header comment), or
    /// nothing when it is. Layouts "any" and opaque have nothing to check.
    std::optional<std::string> layout_problem(overlap policy = overlap::rejected) const {
        if (!is_strided()) return std::nullopt;
        for (int i = 0; i < c_.rank; ++i) {
            if (c_.dims[i] < 0)
                return "dim " + std::to_string(i) + " has negative extent " +
                       std::to_string(c_.dims[i]);
        }
        if (has_no_elements()) return std::nullopt;
        const auto range = address_range();
        if (!range.lowest || !range.highest)
            return std::string("the addressed elements do not fit int64 offsets");
        if (*range.lowest < 0) {
            return "lowest addressed element is at offset " + std::to_string(*range.lowest) +
                   ", before the start of the buffer";
        }
        const auto end = detail::try_add(*range.highest, 1);
        if (!end || !detail::try_mul(*end, element_bytes()))
            return std::string("the addressed bytes do not fit int64");
        if (policy == overlap::rejected) {
            if (auto o = overlap_problem()) return o;
        }
        return std::nullopt;
    }

    /// Strided, no gaps, no overlap: memory order is some permutation of the dims. Sorted by
    /// stride, each dim's stride must be the element count of the dims inside it (size-1 dims
    /// may have any stride).
    bool is_dense() const {
        if (!is_strided()) return false;
        std::array<int, max_dims> order{};  // non-unit dims, insertion-sorted by stride
        int n = 0;
        for (int i = 0; i < c_.rank && i < max_dims; ++i) {
            if (c_.dims[i] == 0) return true;
            if (c_.dims[i] == 1) continue;
            int k = n++;
            for (; k > 0 && c_.strides[order[k - 1]] > c_.strides[i]; --k) order[k] = order[k - 1];
            order[k] = i;
        }
        std::int64_t expected = 1;
        for (int k = 0; k < n; ++k) {
            if (c_.strides[order[k]] != expected) return false;
            expected *= c_.dims[order[k]];
        }
        return true;
    }

    /// Row-major with no offset: the layout every backend can read.
    bool is_row_major() const {
        if (!is_strided() || c_.offset != 0) return false;
        std::int64_t s = 1;
        for (int i = c_.rank - 1; i >= 0; --i) {
            if (c_.dims[i] != 1 && c_.strides[i] != s) return false;
            s *= c_.dims[i] > 0 ? c_.dims[i] : 1;  // as layout::strides_for counts a zero extent
        }
        return true;
    }

    tensor_desc with_layout(const layout& l) const {
        tensor_desc d = *this;
        d.set_layout(l);
        return d;
    }
    tensor_desc with_type(dtype t, const quantization& q = {}) const {
        tensor_desc d = *this;
        d.c_.dtype = static_cast<std::int32_t>(t);
        d.c_.scale = q.scale;
        d.c_.zero_point = q.zero_point;
        d.c_.fixed_point_pos = q.fixed_point_pos;
        d.check_size_fits();
        return d;
    }
    tensor_desc with_offset(std::int64_t elements) const {
        tensor_desc d = *this;
        d.c_.offset = elements;
        return d;
    }
    /// Same memory, new logical dims (dense row-major only).
    tensor_desc reshaped(const shape& dims) const {
        return tensor_desc(dims, type(), layout::row_major(), quant());
    }

    /// Descriptors match when a buffer written for one can be read as the other.
    friend bool operator==(const tensor_desc& a, const tensor_desc& b) {
        if (a.c_.rank != b.c_.rank || a.c_.dtype != b.c_.dtype ||
            a.c_.layout_kind != b.c_.layout_kind) {
            return false;
        }
        for (int i = 0; i < a.c_.rank; ++i) {
            if (a.c_.dims[i] != b.c_.dims[i]) return false;
            if (a.is_strided() && a.c_.dims[i] != 1 && a.c_.strides[i] != b.c_.strides[i])
                return false;
        }
        if (a.is_strided() && a.c_.offset != b.c_.offset) return false;
        if (a.c_.scale != b.c_.scale || a.c_.zero_point != b.c_.zero_point ||
            a.c_.fixed_point_pos != b.c_.fixed_point_pos) {
            return false;
        }
        if (a.is_opaque()) {
            return std::strcmp(a.c_.opaque.backend, b.c_.opaque.backend) == 0 &&
                   std::strcmp(a.c_.opaque.format, b.c_.opaque.format) == 0;
        }
        return true;
    }
    friend bool operator!=(const tensor_desc& a, const tensor_desc& b) { return !(a == b); }

    /// "f32 1x3x224x224 (NCHW) strides [150528,50176,224,1]" and similar.
    std::string to_string() const {
        std::string s = std::string(tessera::to_string(type())) + " " + dims().to_string();
        if (is_any()) return s + " layout any";
        if (is_opaque()) return s + " opaque " + c_.opaque.backend + ":" + c_.opaque.format;
        s += " strides [";
        for (int i = 0; i < c_.rank; ++i) {
            if (i) s += ',';
            s += std::to_string(c_.strides[i]);
        }
        s += ']';
        if (c_.offset) s += " offset " + std::to_string(c_.offset);
        return s;
    }

  private:
    struct element_range {
        std::optional<std::int64_t> lowest;   ///< lowest addressed element, nothing on overflow
        std::optional<std::int64_t> highest;  ///< highest addressed element, nothing on overflow
    };

    bool has_no_elements() const {
        for (int i = 0; i < c_.rank; ++i)
            if (c_.dims[i] == 0) return true;
        return false;
    }
    std::int64_t element_bytes() const {
        const auto es = static_cast<std::int64_t>(size_of(type()));
        return es > 0 ? es : 1;
    }

    /// Lowest and highest element offsets addressed (extents >= 1 assumed).
    element_range address_range() const {
        element_range r{c_.offset, c_.offset};
        for (int i = 0; i < c_.rank; ++i) {
            const auto reach = detail::try_mul(c_.dims[i] - 1, c_.strides[i]);
            auto& end = c_.strides[i] < 0 ? r.lowest : r.highest;
            end = reach && end ? detail::try_add(*end, *reach) : std::nullopt;
        }
        return r;
    }

    /// Why two indices address the same element, or nothing (spans fit: address_range held).
    std::optional<std::string> overlap_problem() const {
        std::array<int, max_dims> order{};  // dims of extent > 1, insertion-sorted by |stride|
        int n = 0;
        auto magnitude = [&](int d) { return c_.strides[d] < 0 ? -c_.strides[d] : c_.strides[d]; };
        for (int i = 0; i < c_.rank; ++i) {
            if (c_.dims[i] == 1) continue;
            int k = n++;
            for (; k > 0 && magnitude(order[k - 1]) > magnitude(i); --k) order[k] = order[k - 1];
            order[k] = i;
        }
        std::int64_t inner_span = 0;  // highest offset the dims inside reach from their start
        for (int k = 0; k < n; ++k) {
            const int d = order[k];
            if (magnitude(d) <= inner_span) {
                return "dims overlap: dim " + std::to_string(d) + " has stride " +
                       std::to_string(c_.strides[d]) + " but the dims inside it span " +
                       std::to_string(inner_span + 1) + " elements";
            }
            inner_span += (c_.dims[d] - 1) * magnitude(d);  // within the checked range
        }
        return std::nullopt;
    }

    /// Rejects dims whose dense byte size does not fit int64 (see the header comment).
    void check_size_fits() const {
        const auto elements = detail::try_extent_product(c_.dims, c_.rank);
        if (!elements || !detail::try_mul(*elements, element_bytes())) {
            std::string dims_text;
            for (int i = 0; i < c_.rank; ++i)
                dims_text += (i ? "x" : "") + std::to_string(c_.dims[i]);
            throw error(status::invalid_argument, "shape " + dims_text + " of " +
                                                      std::string(tessera::to_string(type())) +
                                                      " needs more than INT64_MAX bytes");
        }
    }

    void set_layout(const layout& l) {
        c_.layout_kind = static_cast<std::int32_t>(l.kind());
        std::memset(c_.strides, 0, sizeof c_.strides);
        std::memset(&c_.opaque, 0, sizeof c_.opaque);
        if (l.kind() == layout_kind::strided) {
            const auto strides = l.strides_for(dims());
            for (int i = 0; i < c_.rank; ++i) c_.strides[i] = strides[i];
        } else if (l.kind() == layout_kind::opaque) {
            copy_name(c_.opaque.backend, sizeof c_.opaque.backend, l.opaque_backend());
            copy_name(c_.opaque.format, sizeof c_.opaque.format, l.opaque_format());
            c_.opaque.size_bytes = l.opaque_size();
        }
    }
    static void copy_name(char* dst, std::size_t cap, const std::string& src) {
        const std::size_t n = src.size() < cap - 1 ? src.size() : cap - 1;
        std::memcpy(dst, src.data(), n);
        dst[n] = '\0';
    }

    tsr_tensor_desc c_;
};

}  // namespace tessera
