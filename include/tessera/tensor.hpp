// tessera/tensor.hpp: tensor, an RAII host tensor. Owning (64-byte aligned, zero filled) or
// borrowing caller memory; copies of a tensor share its memory like dnnl::memory does, views
// (slices, reshapes) never copy, clone() makes a deep copy.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/detail/index.hpp"
#include "tessera/error.hpp"
#include "tessera/numeric/convert.hpp"
#include "tessera/tensor_desc.hpp"

namespace tessera {

inline constexpr std::size_t tensor_alignment = 64;

/// Thread safety: copies share one buffer (the reference count is atomic), so copies may be
/// made, passed and destroyed on any threads. Reading elements from several threads at once is
/// safe; writing elements while another thread reads or writes the same memory (through this
/// tensor, a copy or a view) is a data race: synchronise, or clone() per thread. One tensor
/// object is not to be reassigned while another thread uses it.
class tensor {
  public:
    tensor() = default;

    /// Allocates a zero-filled, 64-byte aligned tensor. "any" becomes row-major on the host.
    explicit tensor(const tensor_desc& desc) : desc_(host_desc(desc)) {
        const std::size_t bytes = static_cast<std::size_t>(desc_.size_bytes());
        if (bytes > SIZE_MAX - tensor_alignment) {
            throw error(status::out_of_memory,
                        "cannot allocate " + std::to_string(bytes) + " bytes");
        }
        const std::size_t rounded =
            (bytes + tensor_alignment - 1) / tensor_alignment * tensor_alignment;
        void* p = rounded ? std::aligned_alloc(tensor_alignment, rounded) : nullptr;
        if (rounded && !p) {
            throw error(status::out_of_memory,
                        "cannot allocate " + std::to_string(bytes) + " bytes");
        }
        if (p) std::memset(p, 0, rounded);
        storage_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
    }

    tensor(const shape& dims, dtype type, const layout& l = layout::row_major())
        : tensor(tensor_desc(dims, type, l)) {}

    /// Wraps caller memory without taking ownership; the caller keeps it alive.
    static tensor borrow(const tensor_desc& desc, void* data) {
        if (!desc.is_strided()) {
            throw error(status::invalid_argument,
                        "host tensors need a strided layout, got " + desc.to_string());
        }
        check_host_layout(desc);
        if (!data && desc.size_bytes() > 0)
            throw error(status::invalid_argument, "borrowed pointer is null");
        const std::size_t align = size_of(desc.type());
        if (align && reinterpret_cast<std::uintptr_t>(data) % align != 0) {
            throw error(
                status::invalid_argument,
                "borrowed pointer is not aligned to its element size " + std::to_string(align));
        }
        tensor t;
        t.desc_ = desc;
        t.storage_ = std::shared_ptr<void>(data, [](void*) {});
        return t;
    }

    const tensor_desc& desc() const { return desc_; }
    shape dims() const { return desc_.dims(); }
    dtype type() const { return desc_.type(); }
    std::int64_t num_elements() const { return desc_.num_elements(); }
    /// No memory or no elements (a default-constructed tensor is empty; a scalar is not).
    bool empty() const { return !storage_ || num_elements() == 0; }

    /// Start of the underlying buffer (the descriptor's offset is not applied).
    void* base() const { return storage_.get(); }
    /// Address of element (0, ..., 0).
    void* data() const {
        if (!storage_) return nullptr;
        return static_cast<char*>(storage_.get()) +
               desc_.offset() * static_cast<std::int64_t>(size_of(type()));
    }
    template <typename T>
    T* data_as() const {
        check_type<T>();
        return static_cast<T*>(data());
    }

    /// Element offset (in elements, relative to data()) of a multi-index.
    template <typename Index>
    std::int64_t offset_of(const Index& idx) const {
        std::int64_t off = 0;
        for (int i = 0; i < desc_.rank(); ++i) off += idx[i] * desc_.stride(i);
        return off;
    }
    void* address_of(const detail::index_t& idx) const {
        return static_cast<char*>(data()) +
               offset_of(idx) * static_cast<std::int64_t>(size_of(type()));
    }

    /// Typed element access with bounds checks. The index is one value per dimension, given as
    /// a braced list `at<float>({n, c, h, w})`, separate arguments `at<float>(n, c, h, w)`, a
    /// std::vector or a std::array; every form addresses the same element.
    template <typename T>
    T& at(std::initializer_list<std::int64_t> idx) const {
        return at_checked<T>(checked_index(idx.begin(), idx.size()));
    }
    template <typename T>
    T& at(const std::vector<std::int64_t>& idx) const {
        return at_checked<T>(checked_index(idx.data(), idx.size()));
    }
    template <typename T, std::size_t N>
    T& at(const std::array<std::int64_t, N>& idx) const {
        return at_checked<T>(checked_index(idx.data(), N));
    }
    template <typename T, typename... I,
              typename = std::enable_if_t<(std::is_integral_v<I> && ...)>>
    T& at(I... idx) const {
        const std::array<std::int64_t, sizeof...(I)> a{static_cast<std::int64_t>(idx)...};
        return at_checked<T>(checked_index(a.data(), a.size()));
    }

    /// Real value of an element of any dtype (dequantised); index forms as for at().
    double get(std::initializer_list<std::int64_t> idx) const {
        return load(checked_index(idx.begin(), idx.size()));
    }
    double get(const std::vector<std::int64_t>& idx) const {
        return load(checked_index(idx.data(), idx.size()));
    }
    template <std::size_t N>
    double get(const std::array<std::int64_t, N>& idx) const {
        return load(checked_index(idx.data(), N));
    }
    template <typename... I, typename = std::enable_if_t<(std::is_integral_v<I> && ...)>>
    double get(I... idx) const {
        const std::array<std::int64_t, sizeof...(I)> a{static_cast<std::int64_t>(idx)...};
        return load(checked_index(a.data(), a.size()));
    }
    /// Stores a real value (quantised and rounded as the dtype requires).
    void set(std::initializer_list<std::int64_t> idx, double v) const {
        store(checked_index(idx.begin(), idx.size()), v);
    }
    void set(const std::vector<std::int64_t>& idx, double v) const {
        store(checked_index(idx.data(), idx.size()), v);
    }
    template <std::size_t N>
    void set(const std::array<std::int64_t, N>& idx, double v) const {
        store(checked_index(idx.data(), N), v);
    }

    /// Zero-copy slice: `starts` and `extents` per dimension.
    tensor view(std::initializer_list<std::int64_t> starts,
                std::initializer_list<std::int64_t> extents) const {
        const int r = desc_.rank();
        if (static_cast<int>(starts.size()) != r || static_cast<int>(extents.size()) != r) {
            throw error(status::invalid_argument,
                        "view needs " + std::to_string(r) + " starts and extents");
        }
        shape dims = desc_.dims();
        shape sub;
        std::int64_t offset = desc_.offset();
        layout_strides strides{};
        auto s = starts.begin();
        auto e = extents.begin();
        for (int i = 0; i < r; ++i, ++s, ++e) {
            if (*s < 0 || *e < 0 || *s > dims[i] || *e > dims[i] - *s) {
                throw error(status::invalid_argument,
                            "view from " + std::to_string(*s) + " with extent " +
                                std::to_string(*e) + " outside dimension " + std::to_string(i) +
                                " of extent " + std::to_string(dims[i]));
            }
            sub.push_back(*e, dims.label(i));
            const auto step = detail::try_mul(*s, desc_.stride(i));
            const auto moved = step ? detail::try_add(offset, *step) : std::nullopt;
            if (!moved) throw error(status::invalid_argument, "view offset does not fit int64");
            offset = *moved;
            strides[i] = desc_.stride(i);
        }
        tensor t = *this;
        t.desc_ =
            tensor_desc(sub, type(), layout::strided(strides.data(), static_cast<std::size_t>(r)),
                        desc_.quant())
                .with_offset(offset);
        return t;
    }

    /// Zero-copy reshape of a row-major tensor.
    tensor reshape(const shape& dims) const {
        if (dims.num_elements() != num_elements()) {
            throw error(status::invalid_argument, "reshape from " + desc_.dims().to_string() +
                                                      " to " + dims.to_string() +
                                                      " changes the element count");
        }
        if (!desc_.with_offset(0).is_row_major()) {
            throw error(status::invalid_argument,
                        "reshape needs a row-major tensor; clone() it first");
        }
        tensor t = *this;
        t.desc_ = tensor_desc(dims, type(), layout::row_major(), desc_.quant())
                      .with_offset(desc_.offset());
        return t;
    }

    /// Deep copy into a new owning tensor with the given layout (row-major by default).
    tensor clone(const layout& l = layout::row_major()) const {
        tensor out(desc_.with_layout(l).with_offset(0));
        copy_elements(*this, out);
        return out;
    }

    /// Copies element by element between equal shapes; converts dtype and layout.
    static void copy_elements(const tensor& src, const tensor& dst) {
        if (src.dims() != dst.dims()) {
            throw error(status::invalid_argument,
                        "copy from " + src.dims().to_string() + " to " + dst.dims().to_string());
        }
        const bool same = src.type() == dst.type() &&
                          src.desc_.quant().scale == dst.desc_.quant().scale &&
                          src.desc_.quant().zero_point == dst.desc_.quant().zero_point &&
                          src.desc_.quant().fixed_point_pos == dst.desc_.quant().fixed_point_pos;
        const std::size_t es = size_of(src.type());
        if (same && src.desc_.with_offset(0).is_row_major() &&
            dst.desc_.with_offset(0).is_row_major()) {
            if (src.num_elements() > 0)
                std::memmove(dst.data(), src.data(),
                             static_cast<std::size_t>(src.num_elements()) * es);
            return;
        }
        const int rank = src.dims().rank();
        if (same && rank > 0 && src.desc_.stride(rank - 1) == 1 &&
            dst.desc_.stride(rank - 1) == 1) {
            // Unit-stride rows: one copy per row of the last dimension.
            shape outer = src.dims();
            const std::size_t row_bytes = static_cast<std::size_t>(outer[rank - 1]) * es;
            outer[rank - 1] = 1;
            detail::for_each_index(outer, [&](const detail::index_t& idx) {
                std::memmove(dst.address_of(idx), src.address_of(idx), row_bytes);
            });
            return;
        }
        detail::for_each_index(src.dims(), [&](const detail::index_t& idx) {
            if (same) {
                std::memcpy(dst.address_of(idx), src.address_of(idx), es);
            } else {
                numeric::store_real_wide(
                    dst.type(), dst.desc_.quant(), dst.address_of(idx),
                    numeric::load_real_wide(src.type(), src.desc_.quant(), src.address_of(idx)));
            }
        });
    }

  private:
    using layout_strides = std::array<std::int64_t, max_dims>;

    /// Host tensors need a valid dtype and an addressable strided layout (tensor_desc.hpp).
    static void check_host_layout(const tensor_desc& d) {
        for (int i = 0; i < d.rank(); ++i) {
            if (d.dim(i) < 0)
                throw error(status::invalid_argument, "negative extent in " + d.dims().to_string());
        }
        if (!is_valid(d.type()) || size_of(d.type()) == 0) {
            throw error(status::invalid_argument, "host tensors need a valid dtype, got value " +
                                                      std::to_string(static_cast<int>(d.type())));
        }
        if (const auto problem = d.layout_problem(overlap::allowed)) {
            throw error(status::invalid_argument,
                        "layout " + d.to_string() + " cannot be addressed: " + *problem);
        }
    }

    static tensor_desc host_desc(const tensor_desc& d) {
        if (d.is_opaque()) {
            throw error(status::invalid_argument, "host tensors cannot hold the opaque layout " +
                                                      d.opaque_backend() + ":" + d.opaque_format());
        }
        const tensor_desc host = d.is_any() ? d.with_layout(layout::row_major()) : d;
        check_host_layout(host);
        return host;
    }

    /// True when T is the storage type of `t`: float for f32, std::uint16_t bit patterns for the
    /// 16-bit floats, the matching integer for i8/u8/i16/i32/i64/u16/u32/u64, double for f64,
    /// std::uint8_t or bool for bool.
    template <typename T>
    static constexpr bool stores(dtype t) {
        using U = std::remove_cv_t<T>;
        switch (t) {
            case dtype::f32:
                return std::is_same_v<U, float>;
            case dtype::f16:
            case dtype::bf16:
            case dtype::dlfloat16:
                return std::is_same_v<U, std::uint16_t>;
            case dtype::i8:
                return std::is_same_v<U, std::int8_t>;
            case dtype::u8:
                return std::is_same_v<U, std::uint8_t>;
            case dtype::i16:
                return std::is_same_v<U, std::int16_t>;
            case dtype::i32:
                return std::is_same_v<U, std::int32_t>;
            case dtype::boolean:
                return std::is_same_v<U, std::uint8_t> || std::is_same_v<U, bool>;
            case dtype::i64:
                return std::is_same_v<U, std::int64_t>;
            case dtype::f64:
                return std::is_same_v<U, double>;
            case dtype::u16:
                return std::is_same_v<U, std::uint16_t>;
            case dtype::u32:
                return std::is_same_v<U, std::uint32_t>;
            case dtype::u64:
                return std::is_same_v<U, std::uint64_t>;
            case dtype::undef:
                return false;
        }
        return false;
    }

    static const char* storage_name(dtype t) {
        switch (t) {
            case dtype::f32:
                return "float";
            case dtype::f16:
            case dtype::bf16:
            case dtype::dlfloat16:
                return "std::uint16_t";
            case dtype::i8:
                return "std::int8_t";
            case dtype::u8:
                return "std::uint8_t";
            case dtype::i16:
                return "std::int16_t";
            case dtype::i32:
                return "std::int32_t";
            case dtype::boolean:
                return "std::uint8_t or bool";
            case dtype::i64:
                return "std::int64_t";
            case dtype::f64:
                return "double";
            case dtype::u16:
                return "std::uint16_t";
            case dtype::u32:
                return "std::uint32_t";
            case dtype::u64:
                return "std::uint64_t";
            case dtype::undef:
                break;
        }
        return "nothing";
    }

    template <typename T>
    void check_type() const {
        if (!stores<T>(type())) {
            throw error(status::invalid_argument, "element access with a " +
                                                      std::to_string(sizeof(T)) +
                                                      "-byte type that is not the storage of a " +
                                                      std::string(to_string(type())) +
                                                      " tensor (use " + storage_name(type()) + ")");
        }
    }

    template <typename T>
    T& at_checked(const detail::index_t& idx) const {
        check_type<T>();
        return *static_cast<T*>(address_of(idx));
    }
    double load(const detail::index_t& idx) const {
        return numeric::load_real(type(), desc_.quant(), address_of(idx));
    }
    void store(const detail::index_t& idx, double v) const {
        numeric::store_real(type(), desc_.quant(), address_of(idx), v);
    }

    detail::index_t checked_index(const std::int64_t* idx, std::size_t n) const {
        if (static_cast<int>(n) != desc_.rank()) {
            throw error(status::invalid_argument, "index of rank " + std::to_string(n) +
                                                      " for a rank-" +
                                                      std::to_string(desc_.rank()) + " tensor");
        }
        detail::index_t out{};
        for (int i = 0; i < desc_.rank(); ++i) {
            const std::int64_t v = idx[i];
            if (v < 0 || v >= desc_.dim(i)) {
                throw error(status::invalid_argument, "index " + std::to_string(v) +
                                                          " out of range in dimension " +
                                                          std::to_string(i));
            }
            out[static_cast<std::size_t>(i)] = v;
        }
        return out;
    }

    tensor_desc desc_;
    std::shared_ptr<void> storage_;
};

}  // namespace tessera
