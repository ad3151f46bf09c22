// element_conversion.cpp: the typed loads and stores of element_conversion, one instance per
// dtype, chosen once when the conversion is built.
#include "element_conversion.hpp"

#include <type_traits>

#include <tessera/error.hpp>
#include <tessera/numeric/convert.hpp>

namespace tessera::plugins::cpu {

namespace {

/// Chunk of values converted at a time (on the stack).
constexpr std::int64_t chunk = 256;

template <dtype From, typename Value>
void load_values(const char* src, std::int64_t step, std::int64_t count, const quantization& q,
                 Value* out) {
    for (std::int64_t i = 0; i < count; ++i, src += step) {
        if constexpr (std::is_same_v<Value, double>) {
            out[i] = numeric::load_real(From, q, src);
        } else {
            out[i] = numeric::load_real_wide(From, q, src);
        }
    }
}

template <dtype To, typename Value>
void store_values(const Value* in, char* dst, std::int64_t step, std::int64_t count,
                  const quantization& q, rounding_policy rounding, overflow_policy overflow) {
    for (std::int64_t i = 0; i < count; ++i, dst += step) {
        if constexpr (std::is_same_v<Value, double>) {
            numeric::store_real(To, q, dst, in[i], rounding, overflow);
        } else {
            numeric::store_real_wide(To, q, dst, in[i], rounding, overflow);
        }
    }
}

/// Calls pick(std::integral_constant<dtype, t>) for the runtime dtype t.
template <typename Pick>
auto by_dtype(dtype t, Pick&& pick) {
    switch (t) {
        case dtype::f32:
            return pick(std::integral_constant<dtype, dtype::f32>{});
        case dtype::f16:
            return pick(std::integral_constant<dtype, dtype::f16>{});
        case dtype::bf16:
            return pick(std::integral_constant<dtype, dtype::bf16>{});
        case dtype::dlfloat16:
            return pick(std::integral_constant<dtype, dtype::dlfloat16>{});
        case dtype::i8:
            return pick(std::integral_constant<dtype, dtype::i8>{});
        case dtype::u8:
            return pick(std::integral_constant<dtype, dtype::u8>{});
        case dtype::i16:
            return pick(std::integral_constant<dtype, dtype::i16>{});
        case dtype::i32:
            return pick(std::integral_constant<dtype, dtype::i32>{});
        case dtype::boolean:
            return pick(std::integral_constant<dtype, dtype::boolean>{});
        case dtype::i64:
            return pick(std::integral_constant<dtype, dtype::i64>{});
        case dtype::f64:
            return pick(std::integral_constant<dtype, dtype::f64>{});
        case dtype::u16:
            return pick(std::integral_constant<dtype, dtype::u16>{});
        case dtype::u32:
            return pick(std::integral_constant<dtype, dtype::u32>{});
        case dtype::u64:
            return pick(std::integral_constant<dtype, dtype::u64>{});
        case dtype::undef:
            break;
    }
    throw error(status::invalid_argument, "dtype undef has no elements to convert",
                {"cpu", "reorder", ""});
}

template <typename Value>
load_values_fn<Value> loader(dtype t) {
    return by_dtype(
        t, [](auto d) -> load_values_fn<Value> { return &load_values<decltype(d)::value, Value>; });
}

template <typename Value>
store_values_fn<Value> storer(dtype t) {
    return by_dtype(t, [](auto d) -> store_values_fn<Value> {
        return &store_values<decltype(d)::value, Value>;
    });
}

}  // namespace

element_conversion::element_conversion(const tensor_desc& from, const tensor_desc& to,
                                       rounding_policy rounding, overflow_policy overflow)
    : from_q_(from.quant()),
      to_q_(to.quant()),
      rounding_(rounding),
      overflow_(overflow),
      from_size_(static_cast<std::int64_t>(size_of(from.type()))),
      to_size_(static_cast<std::int64_t>(size_of(to.type()))),
      wide_(is_int64_class(from.type())) {
    if (wide_) {
        load_wide_ = loader<long double>(from.type());
        store_wide_ = storer<long double>(to.type());
    } else {
        load_ = loader<double>(from.type());
        store_ = storer<double>(to.type());
    }
}

template <typename Value>
void element_conversion::run_through(load_values_fn<Value> load, store_values_fn<Value> store,
                                     const char* src, std::int64_t src_step, char* dst,
                                     std::int64_t dst_step, std::int64_t count) const {
    Value values[chunk];
    for (std::int64_t done = 0; done < count; done += chunk) {
        const std::int64_t n = count - done < chunk ? count - done : chunk;
        load(src + done * src_step, src_step, n, from_q_, values);
        store(values, dst + done * dst_step, dst_step, n, to_q_, rounding_, overflow_);
    }
}

void element_conversion::run(const void* src, std::int64_t src_step, void* dst,
                             std::int64_t dst_step, std::int64_t count) const {
    const auto* from = static_cast<const char*>(src);
    auto* to = static_cast<char*>(dst);
    if (wide_) {
        run_through(load_wide_, store_wide_, from, src_step * from_size_, to, dst_step * to_size_,
                    count);
    } else {
        run_through(load_, store_, from, src_step * from_size_, to, dst_step * to_size_, count);
    }
}

}  // namespace tessera::plugins::cpu
