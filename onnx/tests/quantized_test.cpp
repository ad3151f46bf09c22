// quantized_test.cpp: ConvInteger, MatMulInteger, QLinearConv and QLinearMatMul, lowered at load
// onto f32 Conv and MatMul, checked against hand-computed integer results (zero points per tensor
// and per channel, rounding half to even, saturation) and the decline past f32's exact range.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <tessera/onnx/onnx.hpp>
#include <tessera/tessera.hpp>

#include "model_builder.hpp"
#include "test_values.hpp"

using namespace tessera;
using namespace tessera::onnx::testing;
namespace tx = tessera::onnx;

namespace {

/// Output "y" of a model whose inputs are all initializers, run on the reference backend.
tensor run_constant_model(const model_builder& m) {
    return tx::load(m.bytes()).compile("reference").run({}).at("y");
}

std::vector<int> int8_values(const tensor& t) {
    const tensor c = t.clone();
    std::vector<int> out;
    for (std::int64_t i = 0; i < c.num_elements(); ++i) out.push_back(c.data_as<std::int8_t>()[i]);
    return out;
}

}  // namespace

TEST_CASE("MatMulInteger subtracts per-tensor and per-column zero points, exact in i32") {
    model_builder m(10);
    m.output("y");
    small_int_initializer(m, "a", {2, 3}, onnx_uint8, {10, 20, 30, 255, 0, 1});
    small_int_initializer(m, "a_zero", {}, onnx_uint8, {10});
    small_int_initializer(m, "b", {3, 2}, onnx_int8, {1, -2, 3, 4, -128, 127});
    small_int_initializer(m, "b_zero", {2}, onnx_int8, {1, -1});
    m.node("MatMulInteger", {"a", "b", "a_zero", "b_zero"}, {"y"}, "mmi");
    // A - 10 = [[0, 10, 20], [245, -10, -9]]; B - [1, -1] = [[0, -1], [2, 5], [-129, 128]].
    const tensor y = run_constant_model(m);
    REQUIRE(y.type() == dtype::i32);
    CHECK(y.dims() == shape{2, 2});
    CHECK(floats_of(y) == std::vector<float>{-2560, 2610, 1141, -1447});
}

TEST_CASE("ConvInteger subtracts x's zero point and w's per output channel") {
    model_builder m(10);
    m.output("y");
    small_int_initializer(m, "x", {1, 1, 3, 3}, onnx_uint8, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    small_int_initializer(m, "w", {2, 1, 2, 2}, onnx_uint8, {1, 1, 1, 1, 3, 3, 3, 3});
    small_int_initializer(m, "x_zero", {}, onnx_uint8, {1});
    small_int_initializer(m, "w_zero", {2}, onnx_uint8, {0, 2});
    m.node("ConvInteger", {"x", "w", "x_zero", "w_zero"}, {"y"}, "convi");
    // x - 1 = 0..8 and both channels' w - zero point = ones: 2x2 window sums.
    const tensor y = run_constant_model(m);
    REQUIRE(y.type() == dtype::i32);
    CHECK(y.dims() == shape{1, 2, 2, 2});
    CHECK(floats_of(y) == std::vector<float>{8, 12, 20, 24, 8, 12, 20, 24});
}

TEST_CASE("QLinearMatMul rounds half to even, adds y's zero point and saturates") {
    model_builder m(10);
    m.output("y");
    small_int_initializer(m, "a", {4, 2}, onnx_uint8, {2, 4, 6, 8, 10, 0, 255, 0});
    small_int_initializer(m, "a_zero", {}, onnx_uint8, {0});
    small_int_initializer(m, "b", {2, 1}, onnx_uint8, {1, 0});
    small_int_initializer(m, "b_zero", {}, onnx_uint8, {0});
    small_int_initializer(m, "y_zero", {}, onnx_int8, {100});
    m.initializer("a_scale", {}, {0.25f})
        .initializer("b_scale", {}, {1})
        .initializer("y_scale", {}, {1});
    m.node("QLinearMatMul",
           {"a", "a_scale", "a_zero", "b", "b_scale", "b_zero", "y_scale", "y_zero"}, {"y"}, "qmm");
    // Sums 2, 6, 10, 255 times 0.25: 0.5, 1.5, 2.5, 63.75 -> 0, 2, 2, 64; + 100, saturated at 127.
    const tensor y = run_constant_model(m);
    REQUIRE(y.type() == dtype::i8);
    CHECK(y.dims() == shape{4, 1});
    CHECK(int8_values(y) == std::vector<int>{100, 102, 102, 127});
}

TEST_CASE("QLinearConv scales per output channel and adds the i32 bias before rounding") {
    model_builder m(10);
    m.output("y");
    small_int_initializer(m, "x", {1, 1, 2, 2}, onnx_uint8, {0, 1, 2, 3});
    small_int_initializer(m, "x_zero", {}, onnx_uint8, {0});
    small_int_initializer(m, "w", {2, 1, 1, 1}, onnx_uint8, {1, 3});
    small_int_initializer(m, "w_zero", {2}, onnx_uint8, {0, 1});
    small_int_initializer(m, "y_zero", {}, onnx_uint8, {1});
    m.int32_initializer("bias", {2}, {10, -4});
    m.initializer("x_scale", {}, {1}).initializer("w_scale", {2}, {1, 0.25f});
    m.initializer("y_scale", {}, {1});
    m.node("QLinearConv",
           {"x", "x_scale", "x_zero", "w", "w_scale", "w_zero", "y_scale", "y_zero", "bias"}, {"y"},
           "qconv");
    // Channel 0: w' = 1, sums 10..13, scale 1 -> 11..14 after + 1. Channel 1: w' = 2, sums
    // -4, -2, 0, 2, scale 0.25 -> -1, -0.5, 0, 0.5 -> -1, 0, 0, 0 (half to even) -> 0, 1, 1, 1.
    const tensor y = run_constant_model(m);
    REQUIRE(y.type() == dtype::u8);
    CHECK(y.dims() == shape{1, 2, 2, 2});
    CHECK(floats_of(y) == std::vector<float>{11, 12, 13, 14, 0, 1, 1, 1});
}

TEST_CASE("integer products whose sums may pass 2^24 are declined, not computed inexactly") {
    model_builder m(10);
    m.input("a", {1, 300}, onnx_uint8).input("b", {300, 1}, onnx_uint8).output("y");
    m.node("MatMulInteger", {"a", "b"}, {"y"}, "wide");
    // 300 terms of up to 255 * 255 reach 19507500 > 16777216.
    const std::string failure = import_failure(m);
    CHECK(failure.find("wide (MatMulInteger)") == 0);
    CHECK(failure.find("beyond the 2^24 that f32 holds exactly") != std::string::npos);

    model_builder fits(10);
    fits.input("a", {1, 258}, onnx_uint8).input("b", {258, 1}, onnx_uint8).output("y");
    fits.node("MatMulInteger", {"a", "b"}, {"y"}, "fits");
    tensor a(shape{1, 258}, dtype::u8), b(shape{258, 1}, dtype::u8);
    for (std::int64_t i = 0; i < 258; ++i)
        a.data_as<std::uint8_t>()[i] = b.data_as<std::uint8_t>()[i] = 255;
    const auto out = tx::load(fits.bytes()).compile("reference").run({{"a", a}, {"b", b}});
    // 258 * 65025 = 16776450, below 2^24 and exact.
    CHECK(floats_of(out.at("y")) == std::vector<float>{16776450});
}
