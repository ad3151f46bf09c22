// validation_test.cpp: infer() rejects wrong input counts, ranks, dtypes, impossible shapes and
// unknown enum values, with messages naming the op, the tensor and the dimension; plus ABI
// round trips of the parameter structs (from_c) and output descriptors of shape inference.
#include <doctest/doctest.h>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/conv2d.hpp"
#include "tessera/ops/fully_connected.hpp"
#include "tessera/ops/gemm.hpp"
#include "tessera/ops/matmul.hpp"
#include "tessera/ops/normalization.hpp"
#include "tessera/ops/pooling.hpp"
#include "tessera/ops/reduction.hpp"
#include "tessera/ops/softmax.hpp"

using namespace compute_test;

namespace {
tensor_desc f32(const shape& s) {
    return tensor_desc(s, dtype::f32);
}
tensor_desc img(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w,
                dtype t = dtype::f32) {
    return tensor_desc(shape::nchw(n, c, h, w), t);
}
template <typename Op>
void rejects(const Op& op, const std::vector<tensor_desc>& in,
             const std::vector<std::string>& parts) {
    std::vector<std::string> all{std::string(Op::name) + ": "};
    all.insert(all.end(), parts.begin(), parts.end());
    expect_error([&] { op.infer(in); }, all);
}
}  // namespace

TEST_CASE("conv2d validation") {
    const auto x = img(1, 4, 8, 8);
    const auto w = f32(shape{6, 4, 3, 3});
    CHECK(op::conv2d().infer({x, w})[0].dims() == shape{1, 6, 6, 6});
    rejects(op::conv2d(), {x}, {"expects 2 inputs, got 1"});
    rejects(op::conv2d().bias(), {x, w}, {"expects 3 inputs, got 2"});
    rejects(op::conv2d(), {f32(shape{4, 8, 8}), w}, {"tensor 'src'", "rank is 3, expected 4"});
    rejects(op::conv2d(), {x, f32(shape{6, 4, 3})}, {"tensor 'weights'", "rank is 3, expected 4"});
    rejects(op::conv2d(), {x, f32(shape{6, 3, 3, 3})},
            {"tensor 'weights'", "dim 1 (C/groups) is 3, expected 4"});
    rejects(op::conv2d().groups(2), {x, w},
            {"tensor 'weights'", "dim 1 (C/groups) is 4, expected 2"});
    rejects(op::conv2d().groups(3), {x, f32(shape{6, 1, 3, 3})},
            {"tensor 'src'", "dim 1 (C) is 4, not divisible by groups 3"});
    rejects(op::conv2d().groups(4), {x, f32(shape{6, 1, 3, 3})},
            {"tensor 'weights'", "dim 0 (O) is 6, not divisible by groups 4"});
    rejects(op::conv2d(), {x, tensor_desc(shape{6, 4, 3, 3}, dtype::i8)},
            {"tensor 'weights'", "dtype is i8"});
    rejects(op::conv2d(), {img(1, 4, 8, 8, dtype::i32), w},
            {"tensor 'src'", "dtype i32 not allowed"});
    rejects(op::conv2d(), {img(1, 4, 2, 8), w},
            {"tensor 'src'", "dim 2 (H) is 2", "smaller than the (dilated) kernel 3"});
    rejects(op::conv2d().dilation(1, 4), {x, w}, {"tensor 'src'", "dim 3 (W) is 8", "kernel 9"});
    rejects(op::conv2d().padding(padding_kind::valid), {img(1, 4, 8, 2), w},
            {"tensor 'src'", "dim 3 (W) is 2", "VALID"});
    rejects(op::conv2d(), {img(1, 4, 0, 8), w}, {"tensor 'src'", "dim 2 is 0, must be > 0"});
    rejects(op::conv2d().stride(0, 1), {x, w}, {"stride_h is 0, must be > 0"});
    rejects(op::conv2d().padding(-1, 0, 0, 0), {x, w}, {"pad_top is -1, must be >= 0"});
    rejects(op::conv2d().bias(), {x, w, f32(shape{5})},
            {"tensor 'bias'", "dim 0 (O) is 5, expected 6"});
    rejects(op::conv2d().bias(), {x, w, f32(shape{6, 5, 6})},
            {"tensor 'bias'", "dim 1 (OH) is 5, expected 6"});
    rejects(op::conv2d().bias(), {x, w, f32(shape{6, 1})}, {"tensor 'bias'", "rank is 2"});
    rejects(op::conv2d().batchnorm(),
            {x, w, f32(shape{6}), f32(shape{6}), f32(shape{5}), f32(shape{6})},
            {"tensor 'scale'", "dim 0 (O) is 5, expected 6"});
    rejects(op::conv2d().fuse(activation_kind::prelu), {x, w, f32(shape{4})},
            {"tensor 'slope'", "dim 0 is 4, expected 6 or 1"});
    rejects(op::conv2d().transposed(), {x, f32(shape{3, 2, 3, 3})},
            {"tensor 'weights'", "dim 0 (C) is 3, expected 4"});
    rejects(op::conv2d().transposed().stride(2, 2).output_padding(2, 0), {x, w},
            {"output_padding must be smaller"});
    rejects(op::conv2d().output_padding(1, 0), {x, w}, {"output_padding applies to transposed"});
    rejects(op::conv2d().transposed().stride(2, 2).padding(padding_kind::same).output_padding(1, 0),
            {x, f32(shape{4, 2, 3, 3})}, {"output_padding needs explicit padding"});
    rejects(op::conv2d().transposed().padding(4, 4, 0, 0),
            {img(1, 4, 1, 8), f32(shape{4, 2, 3, 3})},
            {"tensor 'src'", "dim 2 (H): transposed output extent"});
    op::conv2d bad_enum;
    bad_enum = test::with_raw_params(bad_enum, [](auto& p) { p.padding_mode = 7; });
    rejects(bad_enum, {x, w}, {"unknown padding_mode value 7"});
    bad_enum = op::conv2d();
    bad_enum = test::with_raw_params(bad_enum, [](auto& p) { p.mode = 3; });
    rejects(bad_enum, {x, w}, {"unknown mode value 3"});
    rejects(op::conv2d().depthwise(), {x, f32(shape{8, 4, 3, 3})},
            {"tensor 'weights'", "dim 1 (C/groups) is 4, expected 1"});
    bad_enum = op::conv2d();
    bad_enum = test::with_raw_params(bad_enum, [](auto& p) { p.output_rounding = -1; });
    rejects(bad_enum, {x, w}, {"unknown output_rounding value -1"});
    bad_enum = op::conv2d();
    bad_enum = test::with_raw_params(bad_enum, [](auto& p) { p.activation.kind = 99; });
    rejects(bad_enum, {x, w}, {"unknown activation value 99"});
    bad_enum = op::conv2d();
    bad_enum = test::with_raw_params(bad_enum, [](auto& p) { p.rounding = 5; });
    rejects(bad_enum, {x, w}, {"unknown rounding value 5"});
    bad_enum = op::conv2d();
    bad_enum = test::with_raw_params(bad_enum, [](auto& p) { p.has_bias = 2; });
    rejects(bad_enum, {x, w}, {"has_bias must be 0 or 1"});
}

TEST_CASE("conv2d: output descriptor keeps dtype and quantisation, labels N C H W") {
    const tensor_desc x(shape::nchw(2, 3, 9, 9), dtype::u8, layout::nhwc(), {0.5f, 7, 0});
    const tensor_desc w(shape{4, 3, 3, 3}, dtype::i8, layout::row_major(), {0.1f, 0, 0});
    const auto out = op::conv2d().stride(2, 2).infer({x, w})[0];
    CHECK(out.dims() == shape{2, 4, 4, 4});
    CHECK(out.type() == dtype::u8);
    CHECK(out.quant().scale == 0.5f);
    CHECK(out.quant().zero_point == 7);
    CHECK(out.is_row_major());
    CHECK(out.dims().to_string() == "2x4x4x4 (NCHW)");
}

TEST_CASE("dense op validation") {
    rejects(op::fully_connected(), {f32(shape{2, 6}), f32(shape{3, 5})},
            {"tensor 'weights'", "dim 1 (I, flattened src) is 5, expected 6"});
    rejects(op::fully_connected().transposed_weights(), {f32(shape{2, 6}), f32(shape{3, 5})},
            {"tensor 'weights'", "dim 0 (I, flattened src) is 3, expected 6"});
    rejects(op::fully_connected().flatten_from(3), {f32(shape{2, 6}), f32(shape{3, 6})},
            {"tensor 'src'", "first_flatten_axis 3 is out of range for rank 2"});
    rejects(op::fully_connected().bias(), {f32(shape{2, 6}), f32(shape{3, 6}), f32(shape{2})},
            {"tensor 'bias'", "dim 0 (O) is 2, expected 3"});
    rejects(op::fully_connected(), {f32(shape{2, 6}), tensor_desc(shape{3, 6}, dtype::i16)},
            {"tensor 'weights'", "dtype is i16"});

    rejects(op::gemm(), {f32(shape{2, 3}), f32(shape{4, 2})},
            {"tensor 'B'", "dim 0 (K) is 4, expected 3"});
    rejects(op::gemm().transpose(true, false), {f32(shape{2, 3}), f32(shape{3, 2})},
            {"tensor 'B'", "dim 0 (K) is 3, expected 2"});
    rejects(op::gemm(), {f32(shape{2, 3}), f32(shape{3, 4}), f32(shape{3, 4})},
            {"tensor 'C'", "dim 0 (M) is 3, expected 2"});
    rejects(op::gemm(), {f32(shape{2, 3, 1}), f32(shape{3, 4})},
            {"tensor 'A'", "rank is 3, expected 2"});
    rejects(op::gemm(), {tensor_desc(shape{2, 3}, dtype::i8), f32(shape{3, 4})},
            {"tensor 'A'", "dtype i8 not allowed"});
    rejects(op::gemm(), {f32(shape{2, 3})}, {"expects 2 to 3 inputs, got 1"});

    rejects(op::matmul(), {f32(shape{2, 3, 4}), f32(shape{3, 4, 5})},
            {"tensor 'B'", "dim 0 (s, stacks of A) is 3, expected 2"});
    rejects(op::matmul(), {f32(shape{3, 4}), f32(shape{5, 2})},
            {"tensor 'B'", "dim 0 (n, the inner dimension) is 5, expected 4"});
    rejects(op::matmul().transpose(false, true), {f32(shape{3, 4}), f32(shape{4, 2})},
            {"tensor 'B'", "dim 1 (n, the inner dimension) is 2, expected 4"});
    rejects(op::matmul(), {f32(shape{3, 4}), f32(shape{4, 2}), f32(shape{3})},
            {"tensor 'C'", "dim 0 (p) is 3, expected 2"});
    rejects(op::matmul(), {f32(shape{3, 4}), f32(shape{4, 2}), f32(shape{2, 2})},
            {"tensor 'C'", "not stacked"});
    rejects(op::matmul().operation(matmul_kind::greater), {f32(shape{3, 4}), f32(shape{4, 2})},
            {"expects 3 inputs, got 2"});
    rejects(op::matmul(), {f32(shape{1, 2, 3, 4}), f32(shape{4, 2})},
            {"tensor 'A'", "rank is 4, expected 2 to 3"});
    op::matmul bad;
    bad = test::with_raw_params(bad, [](auto& p) { p.op = 7; });
    rejects(bad, {f32(shape{3, 4}), f32(shape{4, 2}), f32(shape{2})}, {"unknown op value 7"});

    const tensor_desc qa(shape{2, 3}, dtype::i8, layout::row_major(), {0.5f, 0, 0});
    const tensor_desc qb(shape{3, 4}, dtype::i8, layout::row_major(), {0.5f, 0, 0});
    const tensor_desc qc(shape{4}, dtype::i8, layout::row_major(), {0.5f, 0, 0});
    CHECK(op::quantized_matmul().infer({qa, qb, qc})[0].type() == dtype::f32);
    rejects(op::quantized_matmul(), {qa, f32(shape{3, 4}), qc},
            {"tensor 'B'", "dtype f32 not allowed"});
    rejects(op::quantized_matmul(), {qa, qb}, {"expects 3 inputs, got 2"});
    rejects(op::quantized_matmul().clip(5, 5), {qa, qb, qc}, {"clip range [5, 5]"});
    rejects(op::quantized_matmul(), {qa, qb.with_type(dtype::i8, {0.0f, 0, 0}), qc},
            {"tensor 'B'", "scale must be finite and non-zero"});
    rejects(op::quantized_matmul().precomputed(), {qa, qb, qc},
            {"tensor 'C'", "dtype i8 not allowed"});
    rejects(op::quantized_matmul().output_quantization(0.0f, 0), {qa, qb, qc}, {"out_scale"});
}

TEST_CASE("pooling validation") {
    const auto x = img(1, 2, 6, 6);
    rejects(op::pooling().kernel(2, 2).padding(2, 0, 0, 0), {x},
            {"pad_top is 2, must be >= 0 and smaller than the kernel 2"});
    rejects(op::pooling().kernel(7, 2), {x}, {"tensor 'src'", "dim 2 (H) is 6", "kernel 7"});
    rejects(op::pooling().kernel(0, 2), {x}, {"kernel_h is 0"});
    rejects(op::pooling(), {f32(shape{6, 6})}, {"tensor 'src'", "rank is 2, expected 4"});
    rejects(op::pooling(), {x, x}, {"expects 1 inputs, got 2"});
    rejects(op::pooling(), {img(1, 2, 6, 6, dtype::boolean)},
            {"tensor 'src'", "dtype bool not allowed"});
    op::pooling bad;
    bad = test::with_raw_params(bad, [](auto& p) { p.mode = 5; });
    rejects(bad, {x}, {"unknown mode value 5"});
    bad = op::pooling();
    bad = test::with_raw_params(bad, [](auto& p) { p.padding_mode = 3; });
    rejects(bad, {x}, {"unknown padding_mode value 3"});
    // Global pooling ignores kernel and stride.
    CHECK(op::pooling(pooling_kind::global_max).kernel(0, 0).infer({x})[0].dims() ==
          shape{1, 2, 1, 1});
}

TEST_CASE("normalisation validation") {
    const auto x = img(2, 3, 4, 4);
    const auto c3 = f32(shape{3});
    rejects(op::batchnorm(), {x, f32(shape{2}), c3},
            {"tensor 'mean'", "dim 0 (C) is 2, expected 3"});
    rejects(op::batchnorm(), {x, c3, c3, c3}, {"scale and shift come together"});
    rejects(op::batchnorm().affine(), {x, c3, f32(shape{3, 1})},
            {"tensor 'b'", "rank is 2, expected 1"});
    rejects(op::batchnorm(), {x, c3, tensor_desc(shape{3}, dtype::i32)},
            {"tensor 'variance'", "expected a floating type"});
    rejects(op::batchnorm(), {f32(shape{3}), c3, c3},
            {"tensor 'src'", "rank is 1, expected 2 to 8"});
    op::batchnorm bn;
    bn = test::with_raw_params(bn, [](auto& p) { p.mode = 4; });
    rejects(bn, {x, c3, c3}, {"unknown mode value 4"});
    rejects(op::batchnorm().eps(-1), {x, c3, c3}, {"epsilon must be >= 0"});

    rejects(op::lrn().window(4), {x}, {"size is 4, must be odd"});
    rejects(op::lrn().kind(lrn_kind::within_channel), {f32(shape{2, 3, 4})},
            {"tensor 'src'", "rank is 3, expected 4"});
    op::lrn l;
    l = test::with_raw_params(l, [](auto& p) { p.mode = 2; });
    rejects(l, {x}, {"unknown mode value 2"});

    rejects(op::layer_norm().from_axis(2).tensors(true, false), {x, f32(shape{4, 5})},
            {"tensor 'gamma'", "dim 1 is 5, expected 4"});
    rejects(op::layer_norm().from_axis(2).tensors(true, true), {x, f32(shape{4, 4}), f32(shape{4})},
            {"tensor 'beta'", "rank is 1, expected 2"});
    rejects(op::layer_norm().from_axis(4), {x},
            {"tensor 'src'", "axis 4 is out of range for rank 4"});
    rejects(op::layer_norm().statistics(), {x, img(2, 1, 1, 1), img(2, 3, 2, 1)},
            {"tensor 'variance'", "dim 2 is 2, expected 1 or 4"});
    rejects(op::layer_norm().statistics(), {x, img(2, 1, 1, 1)}, {"expects 3 inputs, got 2"});

    rejects(op::norm(), {f32(shape{2, 3}), f32(shape{2, 4})},
            {"tensor 'b'", "dim 1 is 4, expected 3"});
    rejects(op::norm().along(2), {f32(shape{2, 3}), f32(shape{2, 3})},
            {"tensor 'a'", "axis 2 is out of range"});
}

TEST_CASE("reduction and softmax validation") {
    rejects(op::moments().correction(bessel_correction::sample).from_axis(3), {img(2, 3, 4, 1)},
            {"tensor 'src'", "sample variance needs more than one element"});
    const op::moments m = test::with_raw_params(op::moments(), [](auto& p) { p.bessel = 2; });
    rejects(m, {img(2, 3, 4, 4)}, {"unknown bessel value 2"});
    rejects(op::mean_reduce2d(), {f32(shape{2, 3, 4})}, {"tensor 'src'", "rank is 3, expected 4"});
    rejects(op::reduce().along(2), {f32(shape{2, 3})},
            {"tensor 'src'", "axis 2 is out of range for rank 2"});
    op::reduce r;
    r = test::with_raw_params(r, [](auto& p) { p.op = 9; });
    rejects(r, {f32(shape{2, 3})}, {"unknown op value 9"});
    CHECK(op::reduce(reduce_kind::max_idx).infer({f32(shape{2, 3})})[0].type() == dtype::i32);
    CHECK(op::reduce().keep(false).infer({f32(shape{2, 3})})[0].dims() == shape{2});

    rejects(op::softmax().masked(4), {f32(shape{2, 3})},
            {"tensor 'src'", "mask 4 exceeds the vector length 3"});
    rejects(op::softmax().along(1, 2), {f32(shape{2, 3})},
            {"tensor 'src'", "axis_count 2 from axis 1 exceeds rank 2"});
    rejects(op::softmax(), {tensor_desc(shape{2, 3}, dtype::i8)},
            {"tensor 'src'", "dtype i8 not allowed"});
    rejects(op::softmax(), {}, {"expects 1 inputs, got 0"});
    rejects(op::softmax().scaled_by(0.0f), {f32(shape{2, 3})},
            {"softmax: ", "beta must be finite and > 0"});
}

TEST_CASE("parameter structs round-trip through the C ABI") {
    const op::conv2d c = op::conv2d()
                             .stride(2, 3)
                             .padding(1, 2, 3, 4)
                             .groups(2)
                             .dilation(2, 1)
                             .bias()
                             .batchnorm(true, 0.01f)
                             .fuse(activation_kind::clip, -1, 1);
    const op::conv2d back = op::conv2d::from_c(c.c_params());
    CHECK(back.stride().h == 2);
    CHECK(back.stride().w == 3);
    CHECK(back.pads().right == 4);
    CHECK(back.group_count() == 2);
    CHECK(back.dilation().h == 2);
    CHECK(back.has_bias());
    CHECK(back.bn_epsilon() == 0.01f);
    CHECK(back.fused_activation().kind == activation_kind::clip);
    CHECK(back.fused_activation().b == 1.0f);
    CHECK(op::conv2d::op_kind == TSR_OP_CONV2D);
    // An older, shorter struct keeps the defaults of the fields it lacks.
    tsr_softmax_params old{};
    old.struct_size = offsetof(tsr_softmax_params, log);
    old.axis = 1;
    old.axis_count = 2;
    const op::softmax s = op::softmax::from_c(&old);
    CHECK(s.axis() == 1);
    CHECK(s.axis_count() == 2);
    CHECK_FALSE(s.log());
    CHECK(s.beta() == 1.0f);  // past the old writer's struct_size: the default
    CHECK(static_cast<const tsr_softmax_params*>(s.c_params())->struct_size ==
          sizeof(tsr_softmax_params));
    const op::quantized_matmul q = op::quantized_matmul::from_c(
        op::quantized_matmul().clip(-5, 9).output_quantization(0.5f, 3).c_params());
    CHECK(q.clip_min() == -5);
    CHECK(q.out_scale() == 0.5f);
    CHECK(q.out_zero_point() == 3);
}
