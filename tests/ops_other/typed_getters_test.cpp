// Typed getters of the op descriptors: enum parameters come back as the typed enums of
// tessera/ops/kinds.hpp, flags as bool, activations as activation_spec; every getter reads back
// what its setter wrote, and a raw ABI value outside its enum makes the getter throw.
#include <doctest/doctest.h>

#include <type_traits>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/op_desc.hpp"

using namespace ops_test;

namespace {

template <typename Getter, typename Expected>
constexpr bool returns = std::is_same_v<Getter, Expected>;

// The getters' types, checked at compile time.
static_assert(returns<decltype(op::activation().kind()), activation_kind>);
static_assert(returns<decltype(op::activation().spec()), activation_spec>);
static_assert(returns<decltype(op::conv2d().kind()), conv_kind>);
static_assert(returns<decltype(op::conv2d().padding()), padding_kind>);
static_assert(returns<decltype(op::conv2d().rounding_mode()), output_rounding>);
static_assert(returns<decltype(op::conv2d().fused_activation()), activation_spec>);
static_assert(returns<decltype(op::conv2d().groups()), int>);
static_assert(returns<decltype(op::pooling().kind()), pooling_kind>);
static_assert(returns<decltype(op::pooling().padding()), padding_kind>);
static_assert(returns<decltype(op::fully_connected().fused_activation()), activation_spec>);
static_assert(returns<decltype(op::batchnorm().kind()), batchnorm_kind>);
static_assert(returns<decltype(op::batchnorm().fused_activation()), activation_spec>);
static_assert(returns<decltype(op::lrn().kind()), lrn_kind>);
static_assert(returns<decltype(op::layer_norm().kind()), layer_norm_kind>);
static_assert(returns<decltype(op::layer_norm().has_gamma()), bool>);
static_assert(returns<decltype(op::matmul().kind()), matmul_kind>);
static_assert(returns<decltype(op::matmul().transpose_a()), bool>);
static_assert(returns<decltype(op::quantized_matmul().dequantize()), bool>);
static_assert(returns<decltype(op::moments().bessel()), bessel_correction>);
static_assert(returns<decltype(op::reduce().kind()), reduce_kind>);
static_assert(returns<decltype(op::reduce().keep_dims()), bool>);
static_assert(returns<decltype(op::binary().kind()), binary_kind>);
static_assert(returns<decltype(op::unary().kind()), unary_kind>);
static_assert(returns<decltype(op::pad().kind()), pad_kind>);
static_assert(returns<decltype(op::depth_to_space().kind()), depth_to_space_kind>);
static_assert(returns<decltype(op::lstm().direction()), rnn_direction>);
static_assert(returns<decltype(op::gru().all_timesteps()), bool>);
static_assert(returns<decltype(op::resize_bilinear().align_corners()), bool>);
static_assert(returns<decltype(op::table_lookup().has_offset()), bool>);

}  // namespace

TEST_CASE("typed getters read back what the setters wrote") {
    const op::conv2d c = op::conv2d()
                             .transposed()
                             .groups(3)
                             .padding(padding_kind::same)
                             .rounding_mode(output_rounding::ceil)
                             .output_padding(1, 0)
                             .fuse(activation_kind::clip, -1.0f, 2.0f);
    CHECK(c.kind() == conv_kind::transposed);
    CHECK(c.groups() == 3);
    CHECK(c.padding() == padding_kind::same);
    CHECK(c.rounding_mode() == output_rounding::ceil);
    CHECK(c.output_padding_h() == 1);
    CHECK(c.output_padding_w() == 0);
    CHECK(c.fused_activation() == activation_spec{activation_kind::clip, -1.0f, 2.0f});
    CHECK(op::conv2d().depthwise().kind() == conv_kind::depthwise);
    CHECK(op::conv2d().fused_activation().kind == activation_kind::none);

    const op::activation a(activation_kind::leaky_relu, 0.25f);
    CHECK(a.spec() == activation_spec{activation_kind::leaky_relu, 0.25f, 0.0f});
    CHECK(a.a() == 0.25f);
    CHECK(op::activation().set_spec({activation_kind::tanh, 2.0f, 0.5f}).b() == 0.5f);

    CHECK(op::pooling(pooling_kind::global_average).kind() == pooling_kind::global_average);
    CHECK(op::batchnorm().affine().kind() == batchnorm_kind::affine);
    CHECK(op::batchnorm().fuse(activation_kind::relu6).fused_activation().kind ==
          activation_kind::relu6);
    CHECK(op::fully_connected().fuse(activation_kind::elu, 1.5f).fused_activation().a == 1.5f);
    CHECK(op::lrn().kind(lrn_kind::within_channel).kind() == lrn_kind::within_channel);

    const op::layer_norm ln = op::layer_norm().from_axis(2).eps(1e-3f).affine(2.0f, 3.0f);
    CHECK(ln.kind() == layer_norm_kind::axes);
    CHECK(ln.axis() == 2);
    CHECK(ln.epsilon() == 1e-3f);
    CHECK(ln.gamma() == 2.0f);
    CHECK(ln.beta() == 3.0f);
    CHECK(op::layer_norm().tensors(true, false).has_gamma());
    CHECK_FALSE(op::layer_norm().tensors(true, false).has_beta());

    const op::matmul m = op::matmul().operation(matmul_kind::lesser).transpose(false, true);
    CHECK(m.kind() == matmul_kind::lesser);
    CHECK_FALSE(m.transpose_a());
    CHECK(m.transpose_b());
    const op::quantized_matmul q = op::quantized_matmul()
                                       .clip(-10, 20)
                                       .no_clipping()
                                       .dequantized(false)
                                       .precomputed()
                                       .input_quantization(0.5f, 4)
                                       .output_quantization(0.25f, -3);
    CHECK(q.clip_min() == -10);
    CHECK(q.clip_max() == 20);
    CHECK(q.disable_clipping());
    CHECK_FALSE(q.dequantize());
    CHECK(q.pre_computed());
    CHECK(q.a_scale() == 0.5f);
    CHECK(q.a_zero_point() == 4);
    CHECK(q.out_scale() == 0.25f);
    CHECK(q.out_zero_point() == -3);

    CHECK(op::moments().correction(bessel_correction::sample).from_axis(2).first_axis() == 2);
    const op::reduce r = op::reduce(reduce_kind::max_idx).along(-2).keep(false);
    CHECK(r.kind() == reduce_kind::max_idx);
    CHECK(r.axis() == -2);
    CHECK_FALSE(r.keep_dims());
    CHECK(op::concat(3).axis() == 3);
    CHECK(op::norm().along(1).axis() == 1);
    CHECK(op::unary(unary_kind::rsqrt, 0.125f).epsilon() == 0.125f);

    const op::pad p({1, 2}, {3, 4}, pad_kind::edge, 7.0);
    CHECK(p.kind() == pad_kind::edge);
    CHECK(p.pad_before(1) == 2);
    CHECK(p.pad_after(0) == 3);
    CHECK(p.pad_after(2) == 0);
    CHECK(p.pad_before(-1) == 0);
    CHECK(p.value() == 7.0);
    CHECK(op::depth_to_space(3, depth_to_space_kind::crd).kind() == depth_to_space_kind::crd);
    CHECK(op::transpose().set_dims(0, 2).dim_b() == 2);
    const op::reshape rs = op::reshape().set_dims({2, -1, 4});
    CHECK(rs.rank() == 3);
    CHECK(rs.dim(1) == -1);
    CHECK(rs.dim(3) == 0);
    CHECK(op::table_lookup(5).offset() == 5);
    CHECK_FALSE(op::table_lookup().has_offset());
    const op::fill f(tensor_desc(shape{2, 3}, dtype::i16), 1.5);
    CHECK(f.output().dims() == shape{2, 3});
    CHECK(f.value() == 1.5);
    const op::resize_bilinear rb = op::resize_bilinear(4, 6).set_half_pixel_centers(true);
    CHECK(rb.out_h() == 4);
    CHECK(rb.out_w() == 6);
    CHECK(rb.half_pixel_centers());
    CHECK_FALSE(rb.align_corners());
    CHECK(op::resize_bilinear().set_scale(2.0f, 0.5f).scale_w() == 0.5f);
    CHECK(op::gru(rnn_direction::backward, false).direction() == rnn_direction::backward);
    CHECK_FALSE(op::gru(rnn_direction::backward, false).all_timesteps());
}

TEST_CASE("typed getters reject a raw ABI value outside the enum") {
    const auto conv = test::with_raw_params(op::conv2d(), [](auto& p) { p.mode = 7; });
    check_error([&] { (void)conv.kind(); }, {"conv mode 7 is not a known value"});
    const auto fused = test::with_raw_params(op::conv2d(), [](auto& p) { p.activation.kind = 99; });
    check_error([&] { (void)fused.fused_activation(); }, {"activation kind 99"});
    const auto pool = test::with_raw_params(op::pooling(), [](auto& p) { p.padding_mode = -1; });
    check_error([&] { (void)pool.padding(); }, {"padding mode -1"});
    const auto rnn = test::with_raw_params(op::lstm(), [](auto& p) { p.direction = 3; });
    check_error([&] { (void)rnn.direction(); }, {"rnn direction 3"});
}
