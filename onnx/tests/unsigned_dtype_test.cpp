// unsigned_dtype_test.cpp: ONNX uint16, uint32 and uint64 tensors through tessera::onnx::load:
// graph inputs, initializers, Constant values and Cast targets map to u16, u32 and u64; uint64
// values beyond 2^53 survive exactly; uint32 Add wraps modulo 2^32; BitShift LEFT and RIGHT
// against hand-computed shifts (wrap-around, shifts of the width or more give 0).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"

using namespace tessera;
using tessera::onnx::testing::model_builder;
using namespace tessera::onnx::testing;
namespace tx = tessera::onnx;

namespace {

constexpr std::uint64_t u64_big = (std::uint64_t{1} << 53) + 1;  // the nearest double is 2^53

template <typename T>
tensor unsigned_tensor(dtype type, const std::vector<T>& v) {
    tensor t(shape{static_cast<std::int64_t>(v.size())}, type);
    std::memcpy(t.data(), v.data(), v.size() * sizeof(T));
    return t;
}

template <typename T>
std::vector<T> unsigned_values(const tensor& t, dtype type) {
    REQUIRE(t.type() == type);
    const tensor dense = t.clone();
    std::vector<T> v(static_cast<std::size_t>(dense.num_elements()));
    std::memcpy(v.data(), dense.data(), v.size() * sizeof(T));
    return v;
}

/// A uint64 initializer (ONNX stores uint32 and uint64 values in uint64_data).
void uint64_initializer(model_builder& m, const std::string& name,
                        const std::vector<std::uint64_t>& v) {
    auto* t = m.model().mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx_uint64);
    t->add_dims(static_cast<std::int64_t>(v.size()));
    for (const std::uint64_t x : v) t->add_uint64_data(x);
}

/// A graph X <op> Y of BitShift in `direction` on inputs of ONNX type `elem`.
tessera::compiled_graph bitshift_graph(int elem, const std::string& direction) {
    model_builder m(11);
    m.input("x", {4}, elem).input("y", {4}, elem).output("z");
    model_builder::attr_string(m.node("BitShift", {"x", "y"}, {"z"}, "shift"), "direction",
                               direction);
    return tx::load(m.bytes()).compile("reference");
}

}  // namespace

TEST_CASE("uint64 inputs, initializers and outputs load as u64 and stay exact beyond 2^53") {
    model_builder m;
    m.input("x", {3}, onnx_uint64).output("y");
    uint64_initializer(m, "w", {1, u64_big, 5});
    m.node("Add", {"x", "w"}, {"y"}, "add");
    graph g = tx::load(m.bytes());
    CHECK(g.desc(g.find("x")).type() == dtype::u64);
    const std::vector<std::uint64_t> x = {u64_big, 4294967296u, ~std::uint64_t{0}};
    const tensor y =
        g.compile("reference").run({{"x", unsigned_tensor<std::uint64_t>(dtype::u64, x)}}).at("y");
    // 2^64 - 1 + 5 wraps to 4 (ONNX integer arithmetic wraps).
    CHECK(unsigned_values<std::uint64_t>(y, dtype::u64) ==
          std::vector<std::uint64_t>{u64_big + 1, 4294967296u + u64_big, 4});
}

TEST_CASE("uint32 and uint16 inputs load as u32 and u16; Add wraps; Cast to uint32") {
    model_builder m;
    m.input("a", {2}, onnx_uint32).input("b", {2}, onnx_uint32).input("h", {2}, onnx_uint16);
    m.input("f", {2}).output("sum").output("c").output("hh");
    m.node("Add", {"a", "b"}, {"sum"}, "add");
    model_builder::attr_int(m.node("Cast", {"f"}, {"c"}, "cast"), "to", onnx_uint32);
    m.node("Add", {"h", "h"}, {"hh"}, "add16");
    graph g = tx::load(m.bytes());
    CHECK(g.desc(g.find("a")).type() == dtype::u32);
    CHECK(g.desc(g.find("h")).type() == dtype::u16);
    tensor f(shape{2}, dtype::f32);
    f.data_as<float>()[0] = 3.9f;
    f.data_as<float>()[1] = 4000000000.0f;
    const auto out = g.compile("reference")
                         .run({{"a", unsigned_tensor<std::uint32_t>(dtype::u32, {4294967295u, 7})},
                               {"b", unsigned_tensor<std::uint32_t>(dtype::u32, {2, 4294967290u})},
                               {"h", unsigned_tensor<std::uint16_t>(dtype::u16, {40000, 3})},
                               {"f", f}});
    CHECK(unsigned_values<std::uint32_t>(out.at("sum"), dtype::u32) ==
          std::vector<std::uint32_t>{1, 1});
    CHECK(unsigned_values<std::uint32_t>(out.at("c"), dtype::u32) ==
          std::vector<std::uint32_t>{3, 4000000000u});
    CHECK(unsigned_values<std::uint16_t>(out.at("hh"), dtype::u16) ==
          std::vector<std::uint16_t>{14464, 6});  // 80000 - 65536
}

TEST_CASE("BitShift LEFT and RIGHT on uint8, uint16, uint32 and uint64") {
    // u8: 200 << 1 = 400 mod 256 = 144; shifts of 8 or more give 0.
    auto u8l = bitshift_graph(onnx_uint8, "LEFT");
    const auto l8 = u8l.run({{"x", unsigned_tensor<std::uint8_t>(dtype::u8, {200, 1, 3, 255})},
                             {"y", unsigned_tensor<std::uint8_t>(dtype::u8, {1, 7, 8, 200})}});
    CHECK(unsigned_values<std::uint8_t>(l8.at("z"), dtype::u8) ==
          std::vector<std::uint8_t>{144, 128, 0, 0});
    auto u16r = bitshift_graph(onnx_uint16, "RIGHT");
    const auto r16 =
        u16r.run({{"x", unsigned_tensor<std::uint16_t>(dtype::u16, {65535, 1000, 7, 65535})},
                  {"y", unsigned_tensor<std::uint16_t>(dtype::u16, {15, 3, 0, 16})}});
    CHECK(unsigned_values<std::uint16_t>(r16.at("z"), dtype::u16) ==
          std::vector<std::uint16_t>{1, 125, 7, 0});
    auto u32l = bitshift_graph(onnx_uint32, "LEFT");
    const auto l32 =
        u32l.run({{"x", unsigned_tensor<std::uint32_t>(dtype::u32, {4294967295u, 3, 1, 5})},
                  {"y", unsigned_tensor<std::uint32_t>(dtype::u32, {31, 30, 32, 4294967295u})}});
    CHECK(unsigned_values<std::uint32_t>(l32.at("z"), dtype::u32) ==
          std::vector<std::uint32_t>{2147483648u, 3221225472u, 0, 0});
    const std::uint64_t top = ~std::uint64_t{0};
    auto u64l = bitshift_graph(onnx_uint64, "LEFT");
    const auto l64 =
        u64l.run({{"x", unsigned_tensor<std::uint64_t>(dtype::u64, {top, u64_big, 3, 1})},
                  {"y", unsigned_tensor<std::uint64_t>(dtype::u64, {1, 11, 63, 64})}});
    CHECK(unsigned_values<std::uint64_t>(l64.at("z"), dtype::u64) ==
          std::vector<std::uint64_t>{top - 1, 2048, std::uint64_t{1} << 63,
                                     0});  // (2^53+1)*2^11 mod 2^64
    auto u64r = bitshift_graph(onnx_uint64, "RIGHT");
    const auto r64 =
        u64r.run({{"x", unsigned_tensor<std::uint64_t>(dtype::u64, {top, u64_big, top, 9})},
                  {"y", unsigned_tensor<std::uint64_t>(dtype::u64, {1, 1, 63, 64})}});
    CHECK(unsigned_values<std::uint64_t>(r64.at("z"), dtype::u64) ==
          std::vector<std::uint64_t>{top >> 1, u64_big >> 1, 1, 0});
}

TEST_CASE("BitShift of signed integers or with an unknown direction is unsupported") {
    model_builder m(11);
    m.input("x", {2}, 6).input("y", {2}, 6).output("z");  // int32
    model_builder::attr_string(m.node("BitShift", {"x", "y"}, {"z"}, "shift"), "direction", "LEFT");
    CHECK_THROWS_WITH_AS(tx::load(m.bytes()), doctest::Contains("BitShift"), tessera::error);
    model_builder n(11);
    n.input("x", {2}, onnx_uint8).input("y", {2}, onnx_uint8).output("z");
    model_builder::attr_string(n.node("BitShift", {"x", "y"}, {"z"}, "shift"), "direction", "UP");
    CHECK_THROWS_WITH_AS(tx::load(n.bytes()), doctest::Contains("direction 'UP'"), tessera::error);
}
