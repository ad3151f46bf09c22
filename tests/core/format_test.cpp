// format_test.cpp: fmt formatters of tessera/format.hpp for dtype, status, shape, tensor_desc
// and tensor (numpy-like nesting, per-dimension limits, every dtype, views and layouts).
#include <doctest/doctest.h>

#include <string>

#include "tessera/format.hpp"

using tessera::dtype;
using tessera::layout;
using tessera::quantization;
using tessera::shape;
using tessera::status;
using tessera::tensor;
using tessera::tensor_desc;

namespace {

/// A row-major f32 tensor of the given shape holding 0, 1, 2, ...
tensor counting_tensor(const shape& s) {
    tensor t(s, dtype::f32);
    float* p = t.data_as<float>();
    for (std::int64_t i = 0; i < t.num_elements(); ++i) p[i] = static_cast<float>(i);
    return t;
}

/// The text after the descriptor line.
std::string values_of(const std::string& text) {
    return text.substr(text.find('\n') + 1);
}

}  // namespace

TEST_CASE("format: dtype, status, shape and tensor_desc") {
    CHECK(fmt::format("{}", dtype::bf16) == "bf16");
    CHECK(fmt::format("{}", dtype::boolean) == "bool");
    CHECK(fmt::format("[{:>6}]", dtype::f32) == "[   f32]");
    CHECK(fmt::format("{}", status::invalid_argument) == "invalid_argument");
    CHECK(fmt::format("{:<10}|", status::success) == "success   |");
    CHECK(fmt::format("{}", status::compile_failed) == "compile_failed");
    CHECK(fmt::format("{}", shape::nchw(1, 3, 224, 224)) == "1x3x224x224 (NCHW)");
    CHECK(fmt::format("{}", shape{}) == "scalar");
    CHECK(fmt::format("{}", tensor_desc(shape{2, 3}, dtype::f16, layout::permuted({1, 0}))) ==
          "f16 2x3 strides [1,2]");
    CHECK(fmt::format("{}", tensor_desc(shape{2}, dtype::f32, layout::any())) ==
          "f32 2 layout any");
}

TEST_CASE("format: typed op enums print their names") {
    CHECK(fmt::format("{}", tessera::activation_kind::relu) == "relu");
    CHECK(fmt::format("{}", tessera::pooling_kind::max) == "max");
    CHECK(fmt::format("[{:>8}]", tessera::binary_kind::add) == "[     add]");
    CHECK(fmt::format("{}", tessera::rounding_policy::to_nearest_even) == "to_nearest_even");
    CHECK(fmt::format("{}", tessera::padding_kind::explicit_) == "explicit");
}

TEST_CASE("format: tensors nest like numpy") {
    CHECK(fmt::format("{}", counting_tensor(shape{2, 3})) ==
          "f32 2x3 strides [3,1]\n[[0, 1, 2],\n [3, 4, 5]]");
    CHECK(values_of(fmt::format("{}", counting_tensor(shape{2, 2, 2}))) ==
          "[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]");
    CHECK(values_of(fmt::format("{}", counting_tensor(shape{4}))) == "[0, 1, 2, 3]");
    CHECK(values_of(fmt::format("{}", counting_tensor(shape{1, 1, 1, 1}))) == "[[[[0]]]]");
}

TEST_CASE("format: long dimensions are cut with ...") {
    CHECK(values_of(fmt::format("{}", counting_tensor(shape{10}))) == "[0, 1, 2, 3, 4, 5, ...]");
    CHECK(values_of(fmt::format("{:3}", counting_tensor(shape{10}))) == "[0, 1, 2, ...]");
    CHECK(values_of(fmt::format("{:10}", counting_tensor(shape{10}))) ==
          "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");
    CHECK(values_of(fmt::format("{:2}", counting_tensor(shape{3, 3}))) ==
          "[[0, 1, ...],\n [3, 4, ...],\n ...]");
    CHECK(values_of(fmt::format("{:1}", counting_tensor(shape{2, 2, 2}))) ==
          "[[[0, ...],\n  ...],\n\n ...]");
    // A big tensor prints only what is shown.
    const std::string big = fmt::format("{}", tensor(shape{1000, 1000}, dtype::f32));
    CHECK(big.size() < 200);
    CHECK(tessera::to_string(counting_tensor(shape{10}), 2) == "f32 10 strides [1]\n[0, 1, ...]");
}

TEST_CASE("format: values are right-aligned to a common width") {
    tensor t(shape{2, 2}, dtype::i32);
    t.at<std::int32_t>({0, 0}) = 1;
    t.at<std::int32_t>({0, 1}) = -100;
    t.at<std::int32_t>({1, 0}) = 10;
    t.at<std::int32_t>({1, 1}) = 7;
    CHECK(values_of(fmt::format("{}", t)) == "[[   1, -100],\n [  10,    7]]");
}

TEST_CASE("format: every dtype prints its real values") {
    tensor h(shape{3}, dtype::f16);
    h.set({0}, 0.5);
    h.set({1}, 0.1);  // nearest binary16 is 0.0999755859375
    h.set({2}, -65504.0);
    CHECK(values_of(fmt::format("{}", h)) == "[        0.5, 0.099975586,      -65504]");
    tensor dl(shape{2}, dtype::dlfloat16);
    dl.set({0}, 3.14159);
    dl.set({1}, 1e20);  // NINF
    CHECK(values_of(fmt::format("{}", dl)) == "[3.140625,      nan]");
    tensor bf(shape{1}, dtype::bf16);
    bf.set({0}, -2.0);
    CHECK(values_of(fmt::format("{}", bf)) == "[-2]");
    const tensor q(
        tensor_desc(shape{2}, dtype::i8, layout::row_major(), quantization{0.1f, 10, 0}));
    q.set({0}, 0.3);
    q.set({1}, -1.0);
    CHECK(values_of(fmt::format("{}", q)) == "[0.3,  -1]");
    tensor raw8(shape{2}, dtype::u8);
    raw8.set({0}, 255);
    CHECK(values_of(fmt::format("{}", raw8)) == "[255,   0]");
    const tensor fixed(
        tensor_desc(shape{2}, dtype::i16, layout::row_major(), quantization{1.0f, 0, 8}));
    fixed.set({0}, 1.5);
    fixed.set({1}, -0.00390625);
    CHECK(values_of(fmt::format("{}", fixed)) == "[        1.5, -0.00390625]");
    tensor flags(shape{2}, dtype::boolean);
    flags.set({1}, 1.0);
    CHECK(values_of(fmt::format("{}", flags)) == "[false,  true]");
}

TEST_CASE("format: views, other layouts, scalars and empties") {
    const tensor t = counting_tensor(shape{3, 4});
    CHECK(fmt::format("{}", t.view({1, 1}, {2, 2})) ==
          "f32 2x2 strides [4,1] offset 5\n[[ 5,  6],\n [ 9, 10]]");
    CHECK(values_of(fmt::format("{}", t.clone(layout::permuted({1, 0})))) ==
          values_of(fmt::format("{}", t)));
    tensor s(shape{}, dtype::f32);
    s.set({}, 2.5);
    CHECK(fmt::format("{}", s) == "f32 scalar strides []\n2.5");
    CHECK(fmt::format("{}", tensor()) == "tensor(empty)");
    CHECK(values_of(fmt::format("{}", tensor(shape{2, 0}, dtype::f32))) == "[]");
}

TEST_CASE("format: a bad tensor spec is a format error") {
    CHECK_THROWS_AS((void)fmt::format(fmt::runtime("{:x}"), counting_tensor(shape{2})),
                    fmt::format_error);
    CHECK_THROWS_AS((void)fmt::format(fmt::runtime("{:0}"), counting_tensor(shape{2})),
                    fmt::format_error);
}
