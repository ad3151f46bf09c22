// host_tensor.cpp: host_tensor, ONNX tensors of any element type on the host: element access,
// conversion to and from Tessera tensors, and the checked conversion from a TensorProto (sizes,
// dims and data fields validated so that hostile files fail with an error, not a crash).
#include <cstring>
#include <limits>

#include "context.hpp"
#include "tessera/numeric/convert.hpp"

namespace tessera::onnx {

namespace {

constexpr std::int64_t max_elements = std::int64_t{1} << 40;

std::int64_t checked_count(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (auto d : dims) {
        if (d < 0) throw error(status::parse_error, "negative dim " + std::to_string(d));
        if (d != 0 && n > max_elements / d)
            throw error(status::parse_error, "tensor has too many elements");
        n *= d;
    }
    return n;
}

template <typename T>
T load_as(const host_tensor& t, std::int64_t i) {
    T v;
    std::memcpy(&v, t.bytes.data() + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
    return v;
}

template <typename T>
void store_as(host_tensor& t, std::int64_t i, T v) {
    std::memcpy(t.bytes.data() + static_cast<std::size_t>(i) * sizeof(T), &v, sizeof(T));
}

void check_index(const host_tensor& t, std::int64_t i) {
    if (i < 0 || i >= t.num_elements())
        throw error(status::invalid_argument, "element " + std::to_string(i) + " is out of range",
                    {"", "", t.name});
}

}  // namespace

std::string element_type_name(element_type t) {
    switch (t) {
        case element_type::float32:
            return "float";
        case element_type::uint8:
            return "uint8";
        case element_type::int8:
            return "int8";
        case element_type::uint16:
            return "uint16";
        case element_type::int16:
            return "int16";
        case element_type::int32:
            return "int32";
        case element_type::int64:
            return "int64";
        case element_type::string:
            return "string";
        case element_type::boolean:
            return "bool";
        case element_type::float16:
            return "float16";
        case element_type::float64:
            return "double";
        case element_type::uint32:
            return "uint32";
        case element_type::uint64:
            return "uint64";
        case element_type::complex64:
            return "complex64";
        case element_type::complex128:
            return "complex128";
        case element_type::bfloat16:
            return "bfloat16";
        default:
            return "element type " + std::to_string(static_cast<int>(t));
    }
}

std::int64_t host_tensor::num_elements() const {
    return checked_count(dims);
}

double host_tensor::real(std::int64_t i) const {
    check_index(*this, i);
    switch (type) {
        case element_type::float32:
            return load_as<float>(*this, i);
        case element_type::float64:
            return load_as<double>(*this, i);
        case element_type::uint8:
            return load_as<std::uint8_t>(*this, i);
        case element_type::int8:
            return load_as<std::int8_t>(*this, i);
        case element_type::uint16:
            return load_as<std::uint16_t>(*this, i);
        case element_type::int16:
            return load_as<std::int16_t>(*this, i);
        case element_type::int32:
            return load_as<std::int32_t>(*this, i);
        case element_type::int64:
            return static_cast<double>(load_as<std::int64_t>(*this, i));
        case element_type::uint32:
            return load_as<std::uint32_t>(*this, i);
        case element_type::uint64:
            return static_cast<double>(load_as<std::uint64_t>(*this, i));
        case element_type::boolean:
            return load_as<std::uint8_t>(*this, i) ? 1.0 : 0.0;
        case element_type::float16:
            return numeric::load_raw(dtype::f16, bytes.data() + static_cast<std::size_t>(i) * 2);
        case element_type::bfloat16:
            return numeric::load_raw(dtype::bf16, bytes.data() + static_cast<std::size_t>(i) * 2);
        default:
            throw error(status::unsupported,
                        "elements of type " + element_type_name(type) + " are not numbers",
                        {"", "", name});
    }
}

std::int64_t host_tensor::integer(std::int64_t i) const {
    check_index(*this, i);
    switch (type) {
        case element_type::int64:
            return load_as<std::int64_t>(*this, i);
        case element_type::uint64:
            return static_cast<std::int64_t>(std::min<std::uint64_t>(
                load_as<std::uint64_t>(*this, i), std::numeric_limits<std::int64_t>::max()));
        default: {
            const double v = real(i);
            if (!(v > -9.2e18 && v < 9.2e18))
                throw error(status::invalid_argument, "value is not a representable integer",
                            {"", "", name});
            return static_cast<std::int64_t>(v);
        }
    }
}

bool host_tensor::has_tessera_type() const {
    return detail::tessera_dtype(type).has_value();
}

tensor host_tensor::to_tensor() const {
    const auto dt = detail::tessera_dtype(type);
    if (!dt) {
        throw error(status::unsupported,
                    "dtype " + element_type_name(type) + " is not in Tessera's dtype set",
                    {"", "", name});
    }
    if (dims.size() > static_cast<std::size_t>(TSR_MAX_DIMS)) {
        throw error(status::unsupported,
                    "rank " + std::to_string(dims.size()) + " exceeds Tessera's " +
                        std::to_string(TSR_MAX_DIMS),
                    {"", "", name});
    }
    tensor t(tensor_desc(shape(dims.begin(), dims.end()), *dt));
    if (static_cast<std::size_t>(t.desc().size_bytes()) != bytes.size())
        throw error(status::invalid_argument, "byte size does not match the dims", {"", "", name});
    if (!bytes.empty()) std::memcpy(t.data(), bytes.data(), bytes.size());
    return t;
}

host_tensor host_tensor::from_tensor(const std::string& name, const tensor& t) {
    const tensor dense = t.clone();
    host_tensor h;
    h.name = name;
    h.type = detail::onnx_type(dense.type());
    for (int i = 0; i < dense.desc().rank(); ++i) h.dims.push_back(dense.dims()[i]);
    const auto size = static_cast<std::size_t>(dense.desc().size_bytes());
    h.bytes.resize(size);
    if (size) std::memcpy(h.bytes.data(), dense.data(), size);
    return h;
}

namespace detail {

std::size_t element_size(element_type t) {
    switch (t) {
        case element_type::uint8:
        case element_type::int8:
        case element_type::boolean:
            return 1;
        case element_type::uint16:
        case element_type::int16:
        case element_type::float16:
        case element_type::bfloat16:
            return 2;
        case element_type::float32:
        case element_type::int32:
        case element_type::uint32:
            return 4;
        case element_type::int64:
        case element_type::uint64:
        case element_type::float64:
        case element_type::complex64:
            return 8;
        case element_type::complex128:
            return 16;
        default:
            return 0;
    }
}

std::optional<dtype> tessera_dtype(element_type t) {
    switch (t) {
        case element_type::float32:
            return dtype::f32;
        case element_type::float16:
            return dtype::f16;
        case element_type::bfloat16:
            return dtype::bf16;
        case element_type::int8:
            return dtype::i8;
        case element_type::uint8:
            return dtype::u8;
        case element_type::int16:
            return dtype::i16;
        case element_type::int32:
            return dtype::i32;
        case element_type::boolean:
            return dtype::boolean;
        case element_type::int64:
            return dtype::i64;
        case element_type::float64:
            return dtype::f64;
        case element_type::uint16:
            return dtype::u16;
        case element_type::uint32:
            return dtype::u32;
        case element_type::uint64:
            return dtype::u64;
        default:
            return std::nullopt;
    }
}

element_type onnx_type(dtype t) {
    switch (t) {
        case dtype::f32:
            return element_type::float32;
        case dtype::f16:
            return element_type::float16;
        case dtype::bf16:
            return element_type::bfloat16;
        case dtype::i8:
            return element_type::int8;
        case dtype::u8:
            return element_type::uint8;
        case dtype::i16:
            return element_type::int16;
        case dtype::i32:
            return element_type::int32;
        case dtype::boolean:
            return element_type::boolean;
        case dtype::i64:
            return element_type::int64;
        case dtype::f64:
            return element_type::float64;
        case dtype::u16:
            return element_type::uint16;
        case dtype::u32:
            return element_type::uint32;
        case dtype::u64:
            return element_type::uint64;
        default:
            throw error(status::unsupported,
                        "dtype " + std::string(to_string(t)) + " has no ONNX element type");
    }
}

bool is_integer_type(element_type t) {
    switch (t) {
        case element_type::uint8:
        case element_type::int8:
        case element_type::uint16:
        case element_type::int16:
        case element_type::int32:
        case element_type::int64:
        case element_type::uint32:
        case element_type::uint64:
        case element_type::boolean:
            return true;
        default:
            return false;
    }
}

host_tensor make_host(element_type t, const std::vector<std::int64_t>& dims) {
    host_tensor h;
    h.type = t;
    h.dims = dims;
    const std::size_t size = element_size(t);
    if (size == 0)
        throw error(status::unsupported,
                    "element type " + element_type_name(t) + " is not supported");
    h.bytes.resize(static_cast<std::size_t>(checked_count(dims)) * size);
    return h;
}

void set_real(host_tensor& t, std::int64_t i, double v) {
    check_index(t, i);
    switch (t.type) {
        case element_type::float32:
            store_as<float>(t, i, static_cast<float>(v));
            return;
        case element_type::float64:
            store_as<double>(t, i, v);
            return;
        case element_type::float16:
            numeric::store_raw(dtype::f16, t.bytes.data() + static_cast<std::size_t>(i) * 2, v);
            return;
        case element_type::bfloat16:
            numeric::store_raw(dtype::bf16, t.bytes.data() + static_cast<std::size_t>(i) * 2, v);
            return;
        case element_type::boolean:
            store_as<std::uint8_t>(t, i, v != 0.0 ? 1 : 0);
            return;
        default:
            if (!(v > -9.2e18 && v < 9.2e18))
                throw error(status::invalid_argument, "value does not fit an integer",
                            {"", "", t.name});
            set_integer(t, i, static_cast<std::int64_t>(v));
    }
}

void set_integer(host_tensor& t, std::int64_t i, std::int64_t v) {
    check_index(t, i);
    switch (t.type) {
        case element_type::uint8:
            store_as<std::uint8_t>(t, i, static_cast<std::uint8_t>(v));
            return;
        case element_type::int8:
            store_as<std::int8_t>(t, i, static_cast<std::int8_t>(v));
            return;
        case element_type::uint16:
            store_as<std::uint16_t>(t, i, static_cast<std::uint16_t>(v));
            return;
        case element_type::int16:
            store_as<std::int16_t>(t, i, static_cast<std::int16_t>(v));
            return;
        case element_type::int32:
            store_as<std::int32_t>(t, i, static_cast<std::int32_t>(v));
            return;
        case element_type::int64:
            store_as<std::int64_t>(t, i, v);
            return;
        case element_type::uint32:
            store_as<std::uint32_t>(t, i, static_cast<std::uint32_t>(v));
            return;
        case element_type::uint64:
            store_as<std::uint64_t>(t, i, static_cast<std::uint64_t>(v));
            return;
        case element_type::boolean:
            store_as<std::uint8_t>(t, i, v != 0 ? 1 : 0);
            return;
        default:
            set_real(t, i, static_cast<double>(v));
    }
}

std::vector<std::int64_t> integers(const host_tensor& t) {
    std::vector<std::int64_t> out;
    const auto n = t.num_elements();
    out.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) out.push_back(t.integer(i));
    return out;
}

std::vector<double> reals(const host_tensor& t) {
    std::vector<double> out;
    const auto n = t.num_elements();
    out.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) out.push_back(t.real(i));
    return out;
}

namespace {

template <typename Field, typename Store>
void copy_field(host_tensor& h, const Field& field, Store store) {
    const auto n = h.num_elements();
    if (static_cast<std::int64_t>(field.size()) != n) {
        throw error(status::parse_error,
                    "holds " + std::to_string(field.size()) + " values for " + std::to_string(n) +
                        " elements",
                    {"", "", h.name});
    }
    // Sized only now: the dims of a hostile file may claim far more elements than it holds.
    h.bytes.resize(static_cast<std::size_t>(n) * element_size(h.type));
    for (std::int64_t i = 0; i < n; ++i) store(i, field.Get(static_cast<int>(i)));
}

}  // namespace

host_tensor from_proto(const ::onnx::TensorProto& p) {
    host_tensor h;
    h.name = p.name();
    h.type = static_cast<element_type>(p.data_type());
    if (p.dims_size() > 64) throw error(status::parse_error, "too many dims", {"", "", h.name});
    for (auto d : p.dims()) h.dims.push_back(d);
    const std::size_t size = element_size(h.type);
    if (size == 0 || h.type == element_type::complex64 || h.type == element_type::complex128) {
        throw error(status::unsupported, "dtype " + element_type_name(h.type) + " is not supported",
                    {"", "", h.name});
    }
    if (p.data_location() == ::onnx::TensorProto::EXTERNAL || p.external_data_size() > 0) {
        throw error(status::unsupported, "external tensor data is not supported", {"", "", h.name});
    }
    if (p.has_segment())
        throw error(status::unsupported, "segmented tensors are not supported", {"", "", h.name});
    const std::int64_t n = checked_count(h.dims);
    if (p.has_raw_data()) {
        const auto& raw = p.raw_data();
        if (static_cast<std::int64_t>(raw.size()) / static_cast<std::int64_t>(size) != n ||
            raw.size() % size != 0) {
            throw error(status::parse_error,
                        "raw_data has " + std::to_string(raw.size()) + " bytes for " +
                            std::to_string(n) + " elements of " + element_type_name(h.type),
                        {"", "", h.name});
        }
        h.bytes.assign(raw.begin(), raw.end());
        return h;
    }
    switch (h.type) {
        case element_type::float32:
            copy_field(h, p.float_data(), [&](std::int64_t i, float v) { set_real(h, i, v); });
            break;
        case element_type::float64:
            copy_field(h, p.double_data(), [&](std::int64_t i, double v) { set_real(h, i, v); });
            break;
        case element_type::int64:
            copy_field(h, p.int64_data(),
                       [&](std::int64_t i, std::int64_t v) { set_integer(h, i, v); });
            break;
        case element_type::uint32:
        case element_type::uint64:
            copy_field(h, p.uint64_data(), [&](std::int64_t i, std::uint64_t v) {
                set_integer(h, i, static_cast<std::int64_t>(v));
            });
            break;
        case element_type::float16:
        case element_type::bfloat16:
            // int32_data holds the 16-bit patterns.
            copy_field(h, p.int32_data(), [&](std::int64_t i, std::int32_t v) {
                store_as<std::uint16_t>(h, i, static_cast<std::uint16_t>(v));
            });
            break;
        default:
            copy_field(h, p.int32_data(),
                       [&](std::int64_t i, std::int32_t v) { set_integer(h, i, v); });
    }
    return h;
}

int normalize_axis(std::int64_t axis, int rank, const std::string& what) {
    if (axis < -rank || axis >= rank) {
        throw node_unsupported{what + " " + std::to_string(axis) + " is out of range for rank " +
                               std::to_string(rank)};
    }
    return static_cast<int>(axis < 0 ? axis + rank : axis);
}

}  // namespace detail
}  // namespace tessera::onnx
