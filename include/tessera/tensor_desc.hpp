// tessera/tensor_desc.hpp: tensor_desc, the C++ face of tsr_tensor_desc: logical shape, dtype
// with quantisation, and layout. Cheap to copy; compares by value (layouts by strides, not tags).
#pragma once

#include <array>
#include <cstring>
#include <string>

#include "tessera/c/tensor_desc.h"
#include "tessera/dtype.hpp"
#include "tessera/layout.hpp"
#include "tessera/shape.hpp"

namespace tessera {

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

    /// Bytes a buffer holding this tensor needs (offset and strides included).
    std::int64_t size_bytes() const {
        if (is_opaque()) return c_.opaque.size_bytes;
        if (is_any()) return 0;
        if (num_elements() == 0) return 0;
        std::int64_t last = c_.offset;
        for (int i = 0; i < c_.rank; ++i) last += (c_.dims[i] - 1) * c_.strides[i];
        return (last + 1) * static_cast<std::int64_t>(size_of(type()));
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
