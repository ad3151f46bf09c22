// op_desc_test.cpp: the element-wise, data-movement, recurrent and custom ops through op_desc
// (kind, name, ABI round trip) and reference::execute (strided layouts, 16-bit floats,
// pre-allocated outputs, the custom refusal).
#include <doctest/doctest.h>

#include <cstddef>

#include "helpers.hpp"
#include "tessera/ops/op_desc.hpp"
#include "tessera/reference/execute.hpp"

using namespace ops_test;
namespace op = tessera::op;

namespace {

/// Round-trips `o` through the ABI and checks kind, name and identical inference.
template <typename Op>
void check_round_trip(const Op& o, const std::vector<tensor_desc>& inputs, std::string_view name) {
    const op_desc d(o);
    CHECK(d.kind() == Op::op_kind);
    CHECK(d.name() == name);
    const op_desc back = op_desc::from_c(d.kind(), d.c_params());
    REQUIRE(back.get_if<Op>() != nullptr);
    const auto a = d.infer(inputs), b = back.infer(inputs);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == b[i]);
}

}  // namespace

TEST_CASE("op_desc: kind, name and ABI round trip of every op of this family") {
    const tensor_desc img(shape::nchw(1, 8, 4, 4), dtype::f32);
    const tensor_desc vec(shape{4}, dtype::f32);
    check_round_trip(op::activation(activation_kind::clip, -1, 1), {img}, "activation");
    check_round_trip(op::binary(binary_kind::mul).set_gamma(2), {img, vec, img}, "binary");
    check_round_trip(op::unary(unary_kind::rsqrt, 0.5f), {img}, "unary");
    check_round_trip(op::concat(-1), {img, img}, "concat");
    check_round_trip(op::permute{3, 1, 2, 0}, {img}, "permute");
    check_round_trip(op::transpose(0, 3), {img}, "transpose");
    check_round_trip(op::reshape{2, -1}, {img}, "reshape");
    check_round_trip(op::depth_to_space(2, depth_to_space_kind::crd), {img}, "depth_to_space");
    check_round_trip(op::resize_bilinear().set_scale(1.5f, 2).set_half_pixel_centers(true), {img},
                     "resize_bilinear");
    check_round_trip(op::pad({0, 1, 2, 3}, {1, 2, 1, 0}, pad_kind::symmetric), {img}, "pad");
    check_round_trip(
        op::fill(tensor_desc(shape{2, 5}, dtype::i16, layout::row_major(), {1, 0, 8}), 0.5), {},
        "fill");
    check_round_trip(op::table_lookup(3),
                     {tensor_desc(shape{4}, dtype::u8), tensor_desc(shape{16}, dtype::u8)},
                     "table_lookup");
    const std::vector<tensor_desc> lstm_in{
        tensor_desc(shape{3, 2, 5}, dtype::f32), tensor_desc(shape{2, 2, 4}, dtype::f32),
        tensor_desc(shape{2, 2, 4}, dtype::f32), tensor_desc(shape{2, 5, 16}, dtype::f32),
        tensor_desc(shape{2, 16}, dtype::f32),   tensor_desc(shape{2, 4, 16}, dtype::f32),
        tensor_desc(shape{2, 16}, dtype::f32)};
    check_round_trip(op::lstm(rnn_direction::bidirectional, false), lstm_in, "lstm");
    const std::vector<tensor_desc> gru_in{
        tensor_desc(shape{3, 2, 5}, dtype::f32),  tensor_desc(shape{1, 2, 4}, dtype::f32),
        tensor_desc(shape{1, 5, 12}, dtype::f32), tensor_desc(shape{1, 12}, dtype::f32),
        tensor_desc(shape{1, 4, 12}, dtype::f32), tensor_desc(shape{1, 12}, dtype::f32)};
    check_round_trip(op::gru(rnn_direction::backward), gru_in, "gru");
    const op::custom c =
        op::custom("GRN").set_attribute("bias", "1").add_source_file("grn.cl", "grn");
    check_round_trip(c, {img}, "custom");
    CHECK(*op_desc::from_c(TSR_OP_CUSTOM, op_desc(c).c_params()).get_if<op::custom>() == c);
}

TEST_CASE("op_desc: a shorter (older) binary struct keeps the newer fields' defaults") {
    op::binary b(binary_kind::sub);
    b.set_alpha(3);
    b.set_rounding(rounding_policy::to_zero);
    tsr_binary_params p = *static_cast<const tsr_binary_params*>(b.c_params());
    p.struct_size = static_cast<std::uint32_t>(offsetof(tsr_binary_params, rounding));
    const op_desc d = op_desc::from_c(TSR_OP_BINARY, &p);
    const auto* back = d.get_if<op::binary>();
    REQUIRE(back);
    CHECK(back->kind() == binary_kind::sub);
    CHECK(back->alpha() == 3);
    CHECK(back->rounding() == rounding_policy::to_nearest_even);
    CHECK(back->overflow() == overflow_policy::saturate);
    CHECK(static_cast<const tsr_binary_params*>(back->c_params())->struct_size ==
          sizeof(tsr_binary_params));
}

TEST_CASE("execute: NHWC inputs and outputs, logical dims unchanged") {
    // x logical NCHW 1x2x2x2 stored NHWC; concat on C with a row-major tensor.
    const auto row = make(shape::nchw(1, 2, 2, 2), iota(8));
    const tensor nhwc = row.clone(layout::nhwc());
    const auto out = reference::execute(op::concat(1), {nhwc, row});
    REQUIRE(out.size() == 1);
    CHECK(out[0].dims() == shape{1, 4, 2, 2});
    check_close(values(out[0]), {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7});
    // depth_to_space into a caller-allocated NHWC output.
    const op::depth_to_space d2s(2);
    const auto x = make(shape::nchw(1, 4, 1, 1), {1, 2, 3, 4}).clone(layout::nhwc());
    const tensor dst(d2s.infer({x.desc()})[0].with_layout(layout::nhwc()));
    reference::execute(d2s, {x}, {dst});
    check_close(values(dst), {1, 2, 3, 4});
    // transpose of a strided view.
    const auto big = make(shape{3, 4}, iota(12));
    const auto t = reference::execute(op::transpose(), {big.view({1, 1}, {2, 2})});
    check_close(values(t[0]), {5, 9, 6, 10});
}

TEST_CASE("execute: f16 and bf16 tensors are widened for the kernel and narrowed back") {
    const auto x = make(shape{4}, {-1, 0.5, 2, -3}, dtype::f16);
    const auto y = reference::execute(op::activation(activation_kind::relu), {x});
    CHECK(y[0].type() == dtype::f16);
    check_close(values(y[0]), {0, 0.5, 2, 0});
    const auto p = reference::execute(op::pad({1}, {1}, pad_kind::reflect),
                                      {make(shape{3}, {1, 2, 3}, dtype::bf16)});
    CHECK(p[0].type() == dtype::bf16);
    check_close(values(p[0]), {2, 1, 2, 3, 2});
    const auto s = reference::execute(
        op::binary(binary_kind::max),
        {make(shape{2}, {1, 5}, dtype::dlfloat16), make(shape{2}, {3, 4}, dtype::dlfloat16)});
    check_close(values(s[0]), {3, 5});
}

TEST_CASE("execute: an f16 LSTM runs in f32 and agrees with the f32 run to f16 precision") {
    const std::int64_t T = 3, B = 2, F = 3, H = 2;
    const std::vector<shape> shapes{{T, B, F},  {1, B, H},     {1, B, H}, {1, F, 4 * H},
                                    {1, 4 * H}, {1, H, 4 * H}, {1, 4 * H}};
    std::vector<tensor> f32, f16;
    std::uint32_t seed = 90;
    for (const shape& s : shapes) {
        f16.push_back(make(s, pseudo_random(s.num_elements(), seed++), dtype::f16));
        f32.push_back(make(s, values(f16.back())));  // the same, f16-representable values
    }
    const auto a = reference::execute(op::lstm(), f32);
    const auto b = reference::execute(op::lstm(), f16);
    CHECK(b[0].type() == dtype::f16);
    check_close(values(b[0]), values(a[0]), 1e-3);
    check_close(values(b[1]), values(a[1]), 2e-3);
}

TEST_CASE("execute: the custom op is the documented unsupported case") {
    const auto x = make(shape{2}, {1, 2});
    check_error([&] { reference::execute(op::custom("ReorgYolo"), {x}); },
                {"ReorgYolo", "reference"}, status::unsupported);
}

TEST_CASE("op_desc: the indexing, selection and scan ops round-trip the ABI and describe") {
    const tensor_desc x(shape{2, 3, 4}, dtype::f32);
    const tensor_desc flags(shape{2, 3, 4}, dtype::boolean);
    check_round_trip(op::compare(compare_kind::greater_equal), {x, x}, "compare");
    check_round_trip(op::logical(logical_kind::xor_), {flags, flags}, "logical");
    check_round_trip(op::where{}, {flags, x, x}, "where");
    check_round_trip(op::slice().set_dim(2, -1, 0, -2), {x}, "slice");
    check_round_trip(op::gather(-1), {x, tensor_desc(shape{5}, dtype::i32)}, "gather");
    check_round_trip(op::gather_elements(-1), {x, tensor_desc(x.dims(), dtype::i64)},
                     "gather_elements");
    check_round_trip(op::expand(shape{3, 2, 1, 4}), {x}, "expand");
    check_round_trip(op::tile({1, 2, 3}), {x}, "tile");
    check_round_trip(op::cumsum(1).set_reverse(true), {x}, "cumsum");
    check_round_trip(op::topk(2, 1).set_largest(false), {x}, "topk");
    op::reduce last(reduce_kind::max_idx);
    last.set_select_last_index(true);
    const op_desc d(last);
    CHECK(op_desc::from_c(d.kind(), d.c_params()).get_if<op::reduce>()->select_last_index());
    CHECK(op_desc(op::compare(compare_kind::less)).describe() == "compare(less)");
    CHECK(op_desc(op::logical(logical_kind::not_)).describe() == "logical(not)");
    CHECK(op_desc(op::unary(unary_kind::erf)).describe() == "unary(erf)");
    CHECK(op_desc(op::activation(activation_kind::hard_swish)).describe() ==
          "activation(hard_swish)");
}
