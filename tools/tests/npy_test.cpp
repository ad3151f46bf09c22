// npy_test.cpp: the .npy reader and writer of the model commands: round trips of every element
// type, the exact header NumPy expects, and hostile files rejected with their reason.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "../npy.hpp"

using namespace tessera;
using tessera::onnx::element_type;

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& s) {
    return {s.begin(), s.end()};
}

/// A version 1.0 file with the given header dict and data bytes.
std::vector<std::uint8_t> npy_file(const std::string& dict, std::size_t data_bytes) {
    std::string header = dict;
    header += '\n';
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(header.size() & 0xff);
    file += static_cast<char>(header.size() >> 8);
    file += header;
    file.append(data_bytes, '\0');
    return bytes_of(file);
}

std::string rejection(const std::vector<std::uint8_t>& bytes) {
    try {
        cli::parse_npy(bytes, "x.npy");
    } catch (const error& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("npy: the header is NumPy's, data 64-byte aligned") {
    onnx::host_tensor t;
    t.type = element_type::float32;
    t.dims = {2, 3};
    t.bytes.resize(24);
    const auto b = cli::format_npy(t);
    const std::string text(b.begin(), b.end());
    CHECK(text.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
    const std::size_t header_len = b[8] | (b[9] << 8);
    CHECK((10 + header_len) % 64 == 0);
    CHECK(text.find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") == 10);
    CHECK(text[10 + header_len - 1] == '\n');
    CHECK(b.size() == 10 + header_len + 24);
}

TEST_CASE("npy: every element type and rank round-trips") {
    const std::pair<element_type, std::size_t> types[] = {
        {element_type::float32, 4}, {element_type::float16, 2}, {element_type::float64, 8},
        {element_type::int8, 1},    {element_type::uint8, 1},   {element_type::int16, 2},
        {element_type::uint16, 2},  {element_type::int32, 4},   {element_type::uint32, 4},
        {element_type::int64, 8},   {element_type::uint64, 8},  {element_type::boolean, 1}};
    const std::vector<std::vector<std::int64_t>> shapes = {{}, {5}, {2, 3}, {1, 3, 2, 2}, {0, 4}};
    for (const auto& entry : types) {
        const element_type type = entry.first;  // no structured binding: clang 14's CAPTURE
        const std::size_t size = entry.second;
        for (const auto& dims : shapes) {
            onnx::host_tensor t;
            t.type = type;
            t.dims = dims;
            t.bytes.resize(static_cast<std::size_t>(t.num_elements()) * size);
            for (std::size_t i = 0; i < t.bytes.size(); ++i)
                t.bytes[i] = static_cast<std::uint8_t>(type == element_type::boolean ? i % 2 : i * 7);
            const auto back = cli::parse_npy(cli::format_npy(t), "t.npy");
            const std::string type_name = onnx::element_type_name(type);
            CAPTURE(type_name);
            CHECK(back.type == type);
            CHECK(back.dims == dims);
            CHECK(back.bytes == t.bytes);
        }
    }
}

TEST_CASE("npy: files written by NumPy's other header forms are read") {
    // Version 2.0 (4-byte header length), '<' on a one-byte type, no trailing comma.
    std::string header = "{'descr': '<i1', 'fortran_order': False, 'shape': (3,)}\n";
    std::string file = std::string("\x93NUMPY\x02\x00", 8);
    for (int i = 0; i < 4; ++i) file += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    file += header + std::string("\x01\xff\x02", 3);
    const auto t = cli::parse_npy(bytes_of(file), "v2.npy");
    CHECK(t.type == element_type::int8);
    CHECK(t.dims == std::vector<std::int64_t>{3});
    CHECK(t.real(1) == -1);
    CHECK(t.real(2) == 2);
}

TEST_CASE("npy: hostile and unsupported files are rejected with the reason") {
    CHECK(rejection(bytes_of("PK\x03\x04 not npy")).find("not a .npy file") != std::string::npos);
    CHECK(rejection(bytes_of(std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 18)))
              .find("truncated header") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16))
              .find("Fortran-order") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8))
              .find("'>f4' is not supported") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16))
              .find("'|O' is not supported") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20))
              .find("needs 24") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", 0))
              .find("non-negative integers") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': "
                             "(4294967296, 4294967296, 4294967296), }",
                             0))
              .find("too many elements") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'shape': (2,), }", 8)).find("lacks") !=
          std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,", 8))
              .find("malformed") != std::string::npos);
    CHECK(rejection(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", 8))
              .find("unknown header key 'x'") != std::string::npos);
}
