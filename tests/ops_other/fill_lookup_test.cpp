// fill_lookup_test.cpp: fill (dims/dtype/quantisation from the descriptor) and OpenVX table
// lookup (u8 and i16 tables, default and explicit offsets, out-of-range pass-through).
#include <doctest/doctest.h>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/data_movement.hpp"

using namespace ops_test;
namespace op = tessera::op;

TEST_CASE("fill: value in the output's dtype and quantisation") {
    const auto f = run1(op::fill(tensor_desc(shape{2, 3}, dtype::f32), -1.25), {});
    CHECK(f.dims() == shape{2, 3});
    check_close(values(f), std::vector<double>(6, -1.25));
    const quantization q{0.5f, 10, 0};
    const auto u = run1(op::fill(tensor_desc(shape{3}, dtype::u8, layout::nhwc(), q), 2.0), {});
    CHECK(u.desc().is_row_major());
    CHECK(raw_values(u) == std::vector<double>{14, 14, 14});  // 2 / 0.5 + 10
    CHECK(raw_values(run1(op::fill(tensor_desc(shape{2}, dtype::i8), 1000), {})) ==
          std::vector<double>{127, 127});
    CHECK(raw_values(run1(op::fill(tensor_desc(shape{1}, dtype::i32), 2147483647.0), {})) ==
          std::vector<double>{2147483647});
    CHECK(op::fill(tensor_desc(shape{}, dtype::f16), 1).infer({})[0].rank() == 0);
}

TEST_CASE("fill: validation") {
    check_error([&] { op::fill().infer({tensor_desc(shape{1}, dtype::f32)}); },
                {"fill", "expects 0 inputs, got 1"});
    check_error([&] { op::fill(tensor_desc(shape{1}, dtype::f32), std::nan("")).infer({}); },
                {"value is NaN"});
    check_error([&] { op::fill(tensor_desc(shape{1}, dtype::undef), 0).infer({}); },
                {"tensor 'output'", "not valid"});
    op::fill bad = test::with_raw_params(op::fill(), [](auto& p) { p.output.rank = 9; });
    check_error([&] { bad.infer({}); }, {"tensor 'output'", "rank is 9"});
    bad = test::with_raw_params(op::fill(tensor_desc(shape{2, 2}, dtype::f32), 0),
                                [](auto& p) { p.output.dims[1] = -3; });
    check_error([&] { bad.infer({}); }, {"tensor 'output'", "dim 1 is -3, must be >= 0"});
}

TEST_CASE("table_lookup: u8 table with offset 0 (OpenVX default)") {
    std::vector<double> invert;
    for (int i = 0; i < 256; ++i) invert.push_back(255 - i);
    const auto lut = make_raw(shape{256}, invert, dtype::u8);
    const auto src = make_raw(shape{2, 2}, {0, 1, 128, 255}, dtype::u8);
    CHECK(raw_values(run1(op::table_lookup(), {src, lut})) ==
          std::vector<double>{255, 254, 127, 0});
    // A short table: entries past its end pass the input through.
    const auto short_lut = make_raw(shape{2}, {7, 9}, dtype::u8);
    CHECK(raw_values(run1(op::table_lookup(), {src, short_lut})) ==
          std::vector<double>{7, 9, 128, 255});
}

TEST_CASE("table_lookup: i16 table centred at count/2, explicit offsets") {
    // 5 entries, default offset 2: index = v + 2 for v in [-2, 2].
    const auto lut = make_raw(shape{5}, {-100, -50, 0, 50, 32767}, dtype::i16);
    const auto src = make_raw(shape{6}, {-2, -1, 0, 1, 2, 3}, dtype::i16);
    CHECK(raw_values(run1(op::table_lookup(), {src, lut})) ==
          std::vector<double>{-100, -50, 0, 50, 32767, 3});
    CHECK(raw_values(run1(op::table_lookup(0), {src, lut})) ==
          std::vector<double>{-2, -1, -100, -50, 0, 50});
    CHECK(op::table_lookup().effective_offset(dtype::i16, 65536) == 32768);
    CHECK(op::table_lookup().effective_offset(dtype::u8, 256) == 0);
}

TEST_CASE("table_lookup: validation") {
    const tensor_desc u8src(shape{4}, dtype::u8);
    check_error(
        [&] {
            op::table_lookup().infer(
                {tensor_desc(shape{4}, dtype::f32), tensor_desc(shape{4}, dtype::f32)});
        },
        {"table_lookup", "tensor 'src'", "dtype f32 not allowed"});
    check_error(
        [&] {
            op::table_lookup().infer({u8src, tensor_desc(shape{4}, dtype::i16)});
        },
        {"tensor 'lut'", "dtype is i16, expected u8"});
    check_error(
        [&] {
            op::table_lookup().infer({u8src, tensor_desc(shape{300}, dtype::u8)});
        },
        {"tensor 'lut'", "dim 0 is 300, must be 1 to 256"});
    check_error(
        [&] {
            op::table_lookup().infer({u8src, tensor_desc(shape{16, 16}, dtype::u8)});
        },
        {"tensor 'lut'", "rank is 2, expected 1"});
    check_error([&] { op::table_lookup().infer({u8src}); }, {"expects 2 inputs, got 1"});
}
