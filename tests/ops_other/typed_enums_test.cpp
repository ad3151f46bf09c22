// typed_enums_test.cpp: the typed C++ forms of the op-descriptor enums (tessera/ops/kinds.hpp):
// their printed names, exact conversion to and from the ABI values, typed constructors that set
// the same raw fields as the C-enum ones, and op descriptions that print names, not numbers.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "common/raw_params.hpp"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/op_desc.hpp"

using namespace tessera;

TEST_CASE("typed enums print their names") {
    CHECK(to_string(activation_kind::relu) == "relu");
    CHECK(to_string(activation_kind::gelu) == "gelu");
    CHECK(to_string(activation_kind::clip) == "clip");
    CHECK(to_string(pooling_kind::max) == "max");
    CHECK(to_string(pooling_kind::average_exclude_padding) == "average_exclude_padding");
    CHECK(to_string(pooling_kind::global_average) == "global_average");
    CHECK(to_string(binary_kind::div) == "div");
    CHECK(to_string(unary_kind::rsqrt) == "rsqrt");
    CHECK(to_string(reduce_kind::max_idx) == "max_idx");
    CHECK(to_string(matmul_kind::lesser_equal) == "lesser_equal");
    CHECK(to_string(padding_kind::explicit_) == "explicit");
    CHECK(to_string(output_rounding::ceil) == "ceil");
    CHECK(to_string(rounding_policy::to_nearest_even) == "to_nearest_even");
    CHECK(to_string(overflow_policy::saturate) == "saturate");
    CHECK(to_string(conv_kind::depthwise) == "depthwise");
    CHECK(to_string(batchnorm_kind::affine) == "affine");
    CHECK(to_string(lrn_kind::within_channel) == "within_channel");
    CHECK(to_string(layer_norm_kind::statistics) == "statistics");
    CHECK(to_string(bessel_correction::sample) == "sample");
    CHECK(to_string(depth_to_space_kind::crd) == "crd");
    CHECK(to_string(pad_kind::symmetric) == "symmetric");
    CHECK(to_string(rnn_direction::bidirectional) == "bidirectional");
    CHECK(to_string(custom_source_kind::file) == "file");
    CHECK(to_string(custom_output_rule::like_input) == "like_input");
    CHECK(to_string(static_cast<activation_kind>(99)) == "unknown");
    std::ostringstream os;
    os << pooling_kind::global_max << ' ' << activation_kind::leaky_relu;
    CHECK(os.str() == "global_max leaky_relu");
}

TEST_CASE("typed enums convert exactly to and from the ABI values") {
    static_assert(to_c(activation_kind::gelu) == TSR_ACT_GELU);
    static_assert(to_c(pooling_kind::average_include_padding) == TSR_POOL_AVERAGE_INCLUDE_PADDING);
    static_assert(to_c(reduce_kind::prod) == TSR_REDUCE_PROD);
    static_assert(to_c(rounding_policy::to_zero) == TSR_ROUND_TO_ZERO);
    static_assert(from_c<binary_kind>(TSR_BINARY_MIN) == binary_kind::min);
    static_assert(from_c<rnn_direction>(TSR_RNN_BACKWARD) == rnn_direction::backward);
    CHECK(to_c(activation_kind::relu) == TSR_ACT_RELU);
    CHECK(to_c(unary_kind::abs) == TSR_UNARY_ABS);
    CHECK(from_c<pooling_kind>(TSR_POOL_GLOBAL_MAX) == pooling_kind::global_max);
    for (std::int32_t v = TSR_ACT_NONE; v <= TSR_ACT_SOFTSIGN; ++v)
        CHECK(to_c(from_c<activation_kind>(v)) == v);
    CHECK(parse_enum<pad_kind>("edge") == pad_kind::edge);
    CHECK(name_of_c<activation_kind>(TSR_ACT_SIGMOID) == "sigmoid");
    for (std::int32_t bad : {-1, TSR_ACT_SOFTSIGN + 1}) {
        try {
            (void)from_c<activation_kind>(bad);
            FAIL("expected an error");
        } catch (const error& e) {
            CHECK(e.code() == status::invalid_argument);
            CHECK(e.message() ==
                  "activation kind " + std::to_string(bad) + " is not a known value");
        }
    }
    try {
        (void)parse_enum<pooling_kind>("maximum");
        FAIL("expected an error");
    } catch (const error& e) {
        CHECK(e.code() == status::invalid_argument);
        CHECK(e.message() == "pooling kind 'maximum' is not known");
    }
}

TEST_CASE("typed constructors and setters set the same ABI fields as the C enums") {
    const op::activation a(activation_kind::tanh);
    const op::activation ac(TSR_ACT_TANH);
    CHECK(a.spec().kind == ac.spec().kind);
    CHECK(a.spec().a == 1.0f);  // tanh's usual parameters
    CHECK(a.spec().b == 1.0f);
    CHECK(a.kind() == activation_kind::tanh);
    const op::activation leaky(activation_kind::leaky_relu, 0.25f);
    CHECK(leaky.spec().kind == activation_kind::leaky_relu);
    CHECK(leaky.spec().a == 0.25f);

    const op::pooling p = op::pooling(pooling_kind::average_exclude_padding)
                              .padding(padding_kind::same)
                              .rounding_mode(output_rounding::ceil);
    CHECK(p.kind() == pooling_kind::average_exclude_padding);
    CHECK(p.padding() == padding_kind::same);
    CHECK(p.rounding_mode() == output_rounding::ceil);
    CHECK(p.kind() == pooling_kind::average_exclude_padding);

    const op::binary b = op::binary(binary_kind::sub)
                             .set_rounding(rounding_policy::to_zero)
                             .set_overflow(overflow_policy::wrap);
    CHECK(b.kind() == binary_kind::sub);
    CHECK(b.rounding() == rounding_policy::to_zero);
    CHECK(b.overflow() == overflow_policy::wrap);
    CHECK(op::unary(unary_kind::rsqrt, 1e-3f).kind() == unary_kind::rsqrt);
    CHECK(op::unary(unary_kind::rsqrt, 1e-3f).epsilon() == 1e-3f);
    CHECK(op::reduce(reduce_kind::mean).kind() == reduce_kind::mean);
    CHECK(op::matmul().operation(matmul_kind::greater).kind() == matmul_kind::greater);
    CHECK(op::moments().correction(bessel_correction::sample).bessel() ==
          bessel_correction::sample);
    CHECK(op::depth_to_space(3, depth_to_space_kind::crd).kind() == depth_to_space_kind::crd);
    CHECK(op::depth_to_space(3, depth_to_space_kind::crd).block_size() == 3);
    CHECK(op::pad({1}, {2}, pad_kind::reflect).kind() == pad_kind::reflect);
    CHECK(op::lstm(rnn_direction::bidirectional).direction() == rnn_direction::bidirectional);
    CHECK_FALSE(op::gru(rnn_direction::backward, false).all_timesteps());
    CHECK(op::lrn().kind(lrn_kind::within_channel).kind() == lrn_kind::within_channel);
    const op::conv2d c = op::conv2d()
                             .fuse(activation_kind::relu6)
                             .policies(rounding_policy::to_zero, overflow_policy::wrap);
    CHECK(c.fused_activation().kind == activation_kind::relu6);
    CHECK(c.rounding() == rounding_policy::to_zero);
    CHECK(c.overflow() == overflow_policy::wrap);
    CHECK(op::batchnorm().fuse(activation_kind::clip, 0.0f, 6.0f).fused_activation().b == 6.0f);
}

TEST_CASE("op descriptions print names, not numbers") {
    CHECK(op_desc(op::activation(activation_kind::relu)).describe() == "activation(relu)");
    CHECK(op_desc(op::activation(activation_kind::gelu)).describe() == "activation(gelu)");
    CHECK(op_desc(op::pooling(pooling_kind::max)).describe() == "pooling(max)");
    CHECK(op_desc(op::pooling(pooling_kind::global_average)).describe() ==
          "pooling(global_average)");
    CHECK(op_desc(op::binary(binary_kind::mul)).describe() == "binary(mul)");
    CHECK(op_desc(op::unary(unary_kind::exp)).describe() == "unary(exp)");
    CHECK(op_desc(op::reduce(reduce_kind::sum)).describe() == "reduce(sum)");
    CHECK(op_desc(op::matmul()).describe() == "matmul(addition)");
    CHECK(op_desc(op::conv2d()).describe() == "conv2d(direct)");
    CHECK(op_desc(op::conv2d().groups(8)).describe() == "conv2d(grouped)");
    CHECK(op_desc(op::conv2d().depthwise()).describe() == "conv2d(depthwise)");
    CHECK(op_desc(op::conv2d().transposed()).describe() == "conv2d(transposed)");
    CHECK(op_desc(op::lrn()).describe() == "lrn(across_channels)");
    CHECK(op_desc(op::pad({1}, {1}, pad_kind::edge)).describe() == "pad(edge)");
    CHECK(op_desc(op::lstm(rnn_direction::forward)).describe() == "lstm(forward)");
    CHECK(op_desc(op::softmax()).describe() == "softmax");
    CHECK(op_desc(op::fully_connected()).describe() == "fully_connected");
    op::activation raw;
    raw = test::with_raw_params(
        raw, [](auto& p) { p.act.kind = 77; });  // a raw ABI value outside the enum
    CHECK(op_desc(raw).describe() == "activation(unknown)");
}
