// npy.cpp: reading and writing NumPy .npy files (see npy.hpp). The header is a Python dict
// literal; it is parsed here with a small strict reader that accepts exactly the forms NumPy
// writes ('descr', 'fortran_order', 'shape'), so hostile files end in an error, never a crash.
#include "npy.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <utility>

namespace tessera::cli {

namespace {

using onnx::element_type;

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_size = 6;

struct descr_entry {
    const char* descr;
    element_type type;
    std::size_t size;
};

// NumPy type strings (little-endian or byte-order free) and their ONNX element types.
constexpr descr_entry descr_table[] = {
    {"<f4", element_type::float32, 4}, {"<f2", element_type::float16, 2},
    {"<f8", element_type::float64, 8}, {"|i1", element_type::int8, 1},
    {"|u1", element_type::uint8, 1},   {"<i2", element_type::int16, 2},
    {"<u2", element_type::uint16, 2},  {"<i4", element_type::int32, 4},
    {"<u4", element_type::uint32, 4},  {"<i8", element_type::int64, 8},
    {"<u8", element_type::uint64, 8},  {"|b1", element_type::boolean, 1},
};

[[noreturn]] void fail(const std::string& origin, const std::string& reason) {
    throw error(status::parse_error, origin + ": " + reason);
}

std::optional<descr_entry> entry_for(std::string descr) {
    // NumPy also writes '<' or '=' for one-byte types on some versions; they mean the same.
    if (descr.size() == 3 && descr[2] == '1' && (descr[0] == '<' || descr[0] == '=')) descr[0] = '|';
    if (descr.size() == 3 && descr[0] == '=') descr[0] = '<';  // native order on little-endian hosts
    for (const auto& e : descr_table)
        if (descr == e.descr) return e;
    return std::nullopt;
}

std::optional<descr_entry> entry_for(element_type t) {
    for (const auto& e : descr_table)
        if (e.type == t) return e;
    return std::nullopt;
}

/// Reader of the header's dict literal.
class dict_reader {
  public:
    dict_reader(std::string text, std::string origin)
        : text_(std::move(text)), origin_(std::move(origin)) {}

    struct fields {
        std::optional<std::string> descr;
        std::optional<bool> fortran_order;
        std::optional<std::vector<std::int64_t>> shape;
    };

    fields read() {
        fields f;
        expect('{');
        while (true) {
            skip_space();
            if (peek() == '}') break;
            const std::string key = read_string();
            expect(':');
            if (key == "descr") {
                f.descr = read_string();
            } else if (key == "fortran_order") {
                f.fortran_order = read_bool();
            } else if (key == "shape") {
                f.shape = read_tuple();
            } else {
                fail(origin_, "unknown header key '" + key + "'");
            }
            skip_space();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() != '}') fail(origin_, "malformed header dict");
        }
        ++pos_;
        return f;
    }

  private:
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) fail(origin_, std::string("malformed header: expected '") + c + "'");
        ++pos_;
    }
    std::string read_string() {
        skip_space();
        const char quote = peek();
        if (quote != '\'' && quote != '"') fail(origin_, "malformed header: expected a string");
        const std::size_t end = text_.find(quote, pos_ + 1);
        if (end == std::string::npos) fail(origin_, "malformed header: unterminated string");
        std::string s = text_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return s;
    }
    bool read_bool() {
        skip_space();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            const std::size_t n = std::strlen(word);
            if (text_.compare(pos_, n, word) == 0) {
                pos_ += n;
                return value;
            }
        }
        fail(origin_, "malformed header: fortran_order is not True or False");
    }
    std::vector<std::int64_t> read_tuple() {
        expect('(');
        std::vector<std::int64_t> dims;
        while (true) {
            skip_space();
            if (peek() == ')') break;
            if (!std::isdigit(static_cast<unsigned char>(peek())))
                fail(origin_, "malformed header: shape entries must be non-negative integers");
            std::int64_t v = 0;
            while (std::isdigit(static_cast<unsigned char>(peek()))) {
                if (v > (std::int64_t{1} << 40)) fail(origin_, "shape entry too large");
                v = v * 10 + (text_[pos_++] - '0');
            }
            dims.push_back(v);
            if (dims.size() > 32) fail(origin_, "shape has more than 32 dims");
            skip_space();
            if (peek() == ',') ++pos_;
            else if (peek() != ')') fail(origin_, "malformed header: bad shape tuple");
        }
        ++pos_;
        return dims;
    }

    std::string text_;
    std::string origin_;
    std::size_t pos_ = 0;
};

std::uint32_t read_le(const std::vector<std::uint8_t>& b, std::size_t at, std::size_t n) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(b[at + i]) << (8 * i);
    return v;
}

std::string shape_text(const std::vector<std::int64_t>& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(dims[i]);
    }
    if (dims.size() == 1) s += ",";
    return s + ")";
}

}  // namespace

onnx::host_tensor parse_npy(const std::vector<std::uint8_t>& bytes, const std::string& origin) {
    if (bytes.size() < magic_size + 4 || std::memcmp(bytes.data(), magic, magic_size) != 0)
        fail(origin, "not a .npy file (no \\x93NUMPY magic)");
    const int major = bytes[6];
    if (major < 1 || major > 3)
        fail(origin, ".npy format version " + std::to_string(major) + " is not supported");
    const std::size_t len_size = major == 1 ? 2 : 4;
    const std::size_t header_start = 8 + len_size;
    if (bytes.size() < header_start) fail(origin, "truncated header");
    const std::size_t header_len = read_le(bytes, 8, len_size);
    if (header_len > bytes.size() - header_start) fail(origin, "truncated header");
    const std::string header(bytes.begin() + static_cast<std::ptrdiff_t>(header_start),
                             bytes.begin() + static_cast<std::ptrdiff_t>(header_start + header_len));
    const auto f = dict_reader(header, origin).read();
    if (!f.descr || !f.fortran_order || !f.shape)
        fail(origin, "header lacks one of 'descr', 'fortran_order', 'shape'");
    if (*f.fortran_order)
        fail(origin, "Fortran-order arrays are not supported (save np.ascontiguousarray(a))");
    const auto entry = entry_for(*f.descr);
    if (!entry)
        fail(origin, "element type '" + *f.descr +
                         "' is not supported (little-endian bool, int, uint and float only)");
    onnx::host_tensor t;
    t.type = entry->type;
    t.dims = *f.shape;
    std::int64_t n = 0;
    try {
        n = t.num_elements();  // checked against overflow
    } catch (const error& e) {
        fail(origin, "shape " + shape_text(t.dims) + ": " + e.message());
    }
    const std::size_t data_start = header_start + header_len;
    const auto data_size = static_cast<std::uint64_t>(n) * entry->size;
    if (data_size != bytes.size() - data_start) {
        fail(origin, "data holds " + std::to_string(bytes.size() - data_start) + " bytes, shape " +
                         shape_text(t.dims) + " of '" + *f.descr + "' needs " +
                         std::to_string(data_size));
    }
    t.bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
    return t;
}

onnx::host_tensor read_npy(const std::filesystem::path& path, const std::string& name) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(status::invalid_argument, path.string() + ": cannot open");
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    onnx::host_tensor t = parse_npy(bytes, path.string());
    t.name = name;
    return t;
}

std::vector<std::uint8_t> format_npy(const onnx::host_tensor& t) {
    const auto entry = entry_for(t.type);
    if (!entry) {
        throw error(status::unsupported, "tensor '" + t.name + "' of ONNX type " +
                                             onnx::element_type_name(t.type) +
                                             " has no .npy element type");
    }
    std::string header = "{'descr': '" + std::string(entry->descr) +
                         "', 'fortran_order': False, 'shape': " + shape_text(t.dims) + ", }";
    // Pad with spaces so that the data starts at a multiple of 64 bytes, then a newline.
    const std::size_t preamble = magic_size + 2 + 2;
    header.append(63 - (preamble + header.size()) % 64, ' ');
    header += '\n';
    std::vector<std::uint8_t> out(magic, magic + magic_size);
    out.push_back(1);
    out.push_back(0);
    out.push_back(static_cast<std::uint8_t>(header.size() & 0xff));
    out.push_back(static_cast<std::uint8_t>(header.size() >> 8));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), t.bytes.begin(), t.bytes.end());
    return out;
}

void write_npy(const std::filesystem::path& path, const onnx::host_tensor& t) {
    const auto bytes = format_npy(t);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw error(status::invalid_argument, path.string() + ": cannot write");
}

}  // namespace tessera::cli
