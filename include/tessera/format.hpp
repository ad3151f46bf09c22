// tessera/format.hpp: fmt (9+) formatters for dtype, status, the typed op enums, shape,
// tensor_desc and tensor.
// A tensor prints its descriptor, then its values nested like numpy, at most N per dimension
// (default 6, "{:10}" for 10) with "..." where a dimension is longer. Values of every dtype
// are shown as real numbers (dequantised) through numeric::load_real.
// Only code that includes this header needs fmt; tessera::tessera itself does not.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/detail/index.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"
#include "tessera/numeric/convert.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/shape.hpp"
#include "tessera/tensor.hpp"
#include "tessera/tensor_desc.hpp"

namespace tessera {

namespace detail {

inline constexpr int default_items_per_dim = 6;

/// One element as text: integers stay integers, quantised and floating values print as the
/// shortest text that reads back to the stored precision.
inline std::string format_element(const tensor& t, const index_t& idx) {
    const void* p = t.address_of(idx);
    const dtype type = t.type();
    const quantization q = t.desc().quant();
    switch (type) {
        case dtype::boolean:
            return numeric::load_raw(type, p) != 0.0 ? "true" : "false";
        case dtype::i32:
            return fmt::format("{}", static_cast<std::int64_t>(numeric::load_raw(type, p)));
        case dtype::i64: {
            std::int64_t v;
            std::memcpy(&v, p, sizeof v);
            return fmt::format("{}", v);
        }
        case dtype::u64: {
            std::uint64_t v;
            std::memcpy(&v, p, sizeof v);
            return fmt::format("{}", v);
        }
        case dtype::u16:
        case dtype::u32:
            return fmt::format("{}", static_cast<std::uint64_t>(numeric::load_raw(type, p)));
        case dtype::f64:
            return fmt::format("{}", numeric::load_raw(type, p));
        case dtype::i8:
        case dtype::u8:
            if (q.scale == 1.0f && q.zero_point == 0) {
                return fmt::format("{}", static_cast<std::int64_t>(numeric::load_raw(type, p)));
            }
            return fmt::format("{}", static_cast<float>(numeric::load_real(type, q, p)));
        case dtype::i16:
            if (q.fixed_point_pos == 0)
                return fmt::format("{}", static_cast<std::int64_t>(numeric::load_raw(type, p)));
            return fmt::format("{}", numeric::load_real(type, q, p));  // exact binary fraction
        default:
            return fmt::format("{}", static_cast<float>(numeric::load_raw(type, p)));
    }
}

/// Writes tensor values as nested brackets, numpy style, right-aligned to a common width.
class tensor_printer {
  public:
    tensor_printer(const tensor& t, int items_per_dim)
        : t_(t), dims_(t.dims()), limit_(items_per_dim > 0 ? items_per_dim : 1) {}

    std::string print() {
        if (dims_.rank() == 0) return format_element(t_, index_t{});
        if (t_.num_elements() == 0) return "[]";
        index_t idx{};
        collect(0, idx);
        for (const auto& s : cells_) width_ = std::max(width_, s.size());
        std::string out;
        next_ = 0;
        emit(0, out);
        return out;
    }

  private:
    std::int64_t shown(int d) const { return std::min<std::int64_t>(dims_[d], limit_); }

    void collect(int d, index_t& idx) {
        for (idx[d] = 0; idx[d] < shown(d); ++idx[d]) {
            if (d + 1 == dims_.rank()) {
                cells_.push_back(format_element(t_, idx));
            } else {
                collect(d + 1, idx);
            }
        }
        idx[d] = 0;
    }

    void emit(int d, std::string& out) {
        const int rank = dims_.rank();
        const bool innermost = d + 1 == rank;
        // Between blocks: a newline, one blank line per further level, then indentation.
        const std::string block_sep =
            ",\n" +
            std::string(static_cast<std::size_t>(rank - d - 2 > 0 ? rank - d - 2 : 0), '\n') +
            std::string(static_cast<std::size_t>(d + 1), ' ');
        const std::string& sep = innermost ? item_sep_ : block_sep;
        out += '[';
        for (std::int64_t i = 0; i < shown(d); ++i) {
            if (i) out += sep;
            if (innermost) {
                const std::string& cell = cells_[next_++];
                out.append(width_ - cell.size(), ' ');
                out += cell;
            } else {
                emit(d + 1, out);
            }
        }
        if (dims_[d] > shown(d)) out += sep + "...";
        out += ']';
    }

    const tensor& t_;
    shape dims_;
    int limit_;
    std::vector<std::string> cells_;
    std::size_t next_ = 0;
    std::size_t width_ = 0;
    const std::string item_sep_ = ", ";
};

}  // namespace detail

/// "f32 2x3 strides [3,1]" on one line, then the values: at most `items_per_dim` per dimension.
inline std::string to_string(const tensor& t, int items_per_dim = detail::default_items_per_dim) {
    if (!t.base()) {
        return t.num_elements() == 0 && t.type() != dtype::undef ? t.desc().to_string() + "\n[]"
                                                                 : "tensor(empty)";
    }
    return t.desc().to_string() + "\n" + detail::tensor_printer(t, items_per_dim).print();
}

}  // namespace tessera

/// dtype as its short name, e.g. "bf16"; string format specs (width, alignment) apply.
template <>
struct fmt::formatter<tessera::dtype> : fmt::formatter<std::string_view> {
    template <typename Context>
    auto format(tessera::dtype t, Context& ctx) const {
        return fmt::formatter<std::string_view>::format(tessera::to_string(t), ctx);
    }
};

/// status as its name, e.g. "invalid_argument".
template <>
struct fmt::formatter<tessera::status> : fmt::formatter<std::string_view> {
    template <typename Context>
    auto format(tessera::status s, Context& ctx) const {
        return fmt::formatter<std::string_view>::format(tessera::to_string(s), ctx);
    }
};

/// shape as "1x3x224x224 (NCHW)".
/// Every typed op-descriptor enum (tessera/ops/kinds.hpp) prints its name: "{}" of
/// activation_kind::relu is "relu".
template <typename E>
struct fmt::formatter<E, char, std::enable_if_t<tessera::is_op_enum_v<E>>>
    : fmt::formatter<std::string_view> {
    template <typename Context>
    auto format(E e, Context& ctx) const {
        return fmt::formatter<std::string_view>::format(tessera::to_string(e), ctx);
    }
};

template <>
struct fmt::formatter<tessera::shape> : fmt::formatter<std::string_view> {
    template <typename Context>
    auto format(const tessera::shape& s, Context& ctx) const {
        return fmt::formatter<std::string_view>::format(s.to_string(), ctx);
    }
};

/// tensor_desc as "f32 1x3x224x224 (NCHW) strides [150528,50176,224,1]".
template <>
struct fmt::formatter<tessera::tensor_desc> : fmt::formatter<std::string_view> {
    template <typename Context>
    auto format(const tessera::tensor_desc& d, Context& ctx) const {
        return fmt::formatter<std::string_view>::format(d.to_string(), ctx);
    }
};

/// tensor as its descriptor and values; "{}" shows 6 items per dimension, "{:N}" shows N.
template <>
struct fmt::formatter<tessera::tensor> {
    int items_per_dim = tessera::detail::default_items_per_dim;

    constexpr auto parse(format_parse_context& ctx) -> decltype(ctx.begin()) {
        auto it = ctx.begin();
        if (it == ctx.end() || *it == '}') return it;
        int n = 0;
        bool digits = false;
        for (; it != ctx.end() && *it >= '0' && *it <= '9'; ++it) {
            n = n * 10 + (*it - '0');
            digits = true;
        }
        if (!digits || n == 0 || (it != ctx.end() && *it != '}')) {
            throw fmt::format_error(
                "tensor format spec is a positive item count per dimension, e.g. {:8}");
        }
        items_per_dim = n;
        return it;
    }

    template <typename Context>
    auto format(const tessera::tensor& t, Context& ctx) const {
        const std::string text = tessera::to_string(t, items_per_dim);
        return std::copy(text.begin(), text.end(), ctx.out());
    }
};
