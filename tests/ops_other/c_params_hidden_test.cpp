// The C parameter structs are an implementation detail of the op descriptors: struct_size and the
// raw C fields cannot be named from outside (detection traits), a descriptor does not convert to
// its C struct, and the typed getters read back what the setters wrote, while c_params() still
// hands the plugin ABI the same C struct.
#include <doctest/doctest.h>

#include <type_traits>
#include <utility>
#include <vector>

#include "common/raw_params.hpp"
#include "helpers.hpp"
#include "tessera/ops/op_desc.hpp"

using namespace ops_test;

namespace {

/// Whether Probe<T> is a valid type; an inaccessible member makes it invalid.
template <typename T, template <typename> class Probe, typename = void>
struct detects : std::false_type {};
template <typename T, template <typename> class Probe>
struct detects<T, Probe, std::void_t<Probe<T>>> : std::true_type {};
template <typename T, template <typename> class Probe>
constexpr bool names_v = detects<T, Probe>::value;

template <typename T>
using struct_size_of = decltype(std::declval<const T&>().struct_size);
template <typename T>
using stride_h_of = decltype(std::declval<const T&>().stride_h);
template <typename T>
using pad_top_of = decltype(std::declval<const T&>().pad_top);
template <typename T>
using dilation_w_of = decltype(std::declval<const T&>().dilation_w);
template <typename T>
using kernel_h_of = decltype(std::declval<const T&>().kernel_h);
template <typename T>
using mode_of = decltype(std::declval<const T&>().mode);
template <typename T>
using padding_mode_of = decltype(std::declval<const T&>().padding_mode);
template <typename T>
using activation_field_of = decltype(std::declval<const T&>().activation);
template <typename T>
using act_of = decltype(std::declval<const T&>().act);
template <typename T>
using propagate_nan_of = decltype(std::declval<const T&>().propagate_nan);
template <typename T>
using axis_count_of = decltype(std::declval<const T&>().axis_count);
template <typename T>
using mask_of = decltype(std::declval<const T&>().mask);
template <typename T>
using op_field_of = decltype(std::declval<const T&>().op);
/// A getter that exists: the probe itself works on descriptors.
template <typename T>
using kind_getter_of = decltype(std::declval<const T&>().kind());

// The probes see the fields of the C structs themselves...
static_assert(names_v<tsr_conv2d_params, struct_size_of>);
static_assert(names_v<tsr_conv2d_params, stride_h_of>);
static_assert(names_v<tsr_conv2d_params, pad_top_of>);
static_assert(names_v<tsr_conv2d_params, dilation_w_of>);
static_assert(names_v<tsr_conv2d_params, mode_of>);
static_assert(names_v<tsr_conv2d_params, activation_field_of>);
static_assert(names_v<tsr_pooling_params, kernel_h_of>);
static_assert(names_v<tsr_pooling_params, padding_mode_of>);
static_assert(names_v<tsr_activation_params, act_of>);
static_assert(names_v<tsr_activation_params, propagate_nan_of>);
static_assert(names_v<tsr_softmax_params, axis_count_of>);
static_assert(names_v<tsr_softmax_params, mask_of>);
static_assert(names_v<tsr_binary_params, op_field_of>);
// ... and the descriptors' getters ...
static_assert(names_v<op::conv2d, kind_getter_of>);
static_assert(names_v<op::pooling, kind_getter_of>);
static_assert(names_v<op::activation, kind_getter_of>);

// ... but not the C fields through a descriptor.
static_assert(!names_v<op::conv2d, struct_size_of>);
static_assert(!names_v<op::conv2d, stride_h_of>);
static_assert(!names_v<op::conv2d, pad_top_of>);
static_assert(!names_v<op::conv2d, dilation_w_of>);
static_assert(!names_v<op::conv2d, mode_of>);
static_assert(!names_v<op::conv2d, padding_mode_of>);
static_assert(!names_v<op::conv2d, activation_field_of>);
static_assert(!names_v<op::pooling, struct_size_of>);
static_assert(!names_v<op::pooling, kernel_h_of>);
static_assert(!names_v<op::pooling, stride_h_of>);
static_assert(!names_v<op::pooling, mode_of>);
static_assert(!names_v<op::activation, struct_size_of>);
static_assert(!names_v<op::activation, act_of>);
static_assert(!names_v<op::activation, propagate_nan_of>);
static_assert(!names_v<op::softmax, struct_size_of>);
static_assert(!names_v<op::softmax, axis_count_of>);
static_assert(!names_v<op::softmax, mask_of>);
static_assert(!names_v<op::binary, struct_size_of>);
static_assert(!names_v<op::binary, op_field_of>);
static_assert(!names_v<op::fully_connected, activation_field_of>);
static_assert(!names_v<op::batchnorm, struct_size_of>);

// A descriptor does not convert to its C struct: only c_params() hands it out.
static_assert(!std::is_convertible_v<const op::conv2d&, const tsr_conv2d_params&>);
static_assert(!std::is_convertible_v<const op::pooling*, const tsr_pooling_params*>);
static_assert(!std::is_convertible_v<const op::activation&, const tsr_activation_params&>);
static_assert(!std::is_convertible_v<const op::softmax&, const tsr_softmax_params&>);

template <typename Op>
const typename Op::c_type& abi_params(const Op& o) {
    return *static_cast<const typename Op::c_type*>(o.c_params());
}

}  // namespace

TEST_CASE("conv2d getters read back the window, epilogue and integer policies") {
    const op::conv2d c = op::conv2d()
                             .stride(2, 3)
                             .padding(1, 2, 3, 4)
                             .dilation(2, 1)
                             .bias()
                             .batchnorm(true, 1e-3f)
                             .policies(rounding_policy::to_zero, overflow_policy::wrap);
    CHECK(c.stride() == op::hw{2, 3});
    CHECK(c.pads() == op::pads2d{1, 2, 3, 4});
    CHECK(c.dilation() == op::hw{2, 1});
    CHECK(c.has_bias());
    CHECK(c.fuse_batchnorm());
    CHECK(c.bn_epsilon() == 1e-3f);
    CHECK(c.rounding() == rounding_policy::to_zero);
    CHECK(c.overflow() == overflow_policy::wrap);
    const op::conv2d plain;
    CHECK(plain.stride() == op::hw{1, 1});
    CHECK(plain.dilation() == op::hw{1, 1});
    CHECK_FALSE(plain.has_bias());
    CHECK_FALSE(plain.fuse_batchnorm());
    CHECK(plain.rounding() == rounding_policy::to_nearest_even);
    CHECK(plain.overflow() == overflow_policy::saturate);

    // The ABI still sees the same C struct, and from_c rebuilds the same descriptor.
    const tsr_conv2d_params& p = abi_params(c);
    CHECK(p.struct_size == sizeof(tsr_conv2d_params));
    CHECK(p.stride_h == 2);
    CHECK(p.stride_w == 3);
    CHECK(p.pad_top == 1);
    CHECK(p.pad_right == 4);
    CHECK(p.dilation_h == 2);
    CHECK(p.has_bias == 1);
    CHECK(p.rounding == TSR_ROUND_TO_ZERO);
    const op::conv2d back = op::conv2d::from_c(&p);
    CHECK(back.pads() == c.pads());
    CHECK(back.bn_epsilon() == 1e-3f);
}

TEST_CASE("pooling getters read back kernel, stride, padding and rounding") {
    const op::pooling p = op::pooling(pooling_kind::average_exclude_padding)
                              .kernel(3, 2)
                              .stride(2, 1)
                              .padding(1, 0, 1, 0)
                              .set_rounding(rounding_policy::to_zero);
    CHECK(p.kernel() == op::hw{3, 2});
    CHECK(p.stride() == op::hw{2, 1});
    CHECK(p.pads() == op::pads2d{1, 0, 1, 0});
    CHECK(p.rounding() == rounding_policy::to_zero);
    CHECK(abi_params(p).kernel_h == 3);
    CHECK(abi_params(p).rounding == TSR_ROUND_TO_ZERO);
    const auto bad = test::with_raw_params(op::pooling(), [](auto& r) { r.rounding = 7; });
    CHECK_THROWS_AS(bad.rounding(), error);
}

TEST_CASE("activation and softmax getters read back their parameters") {
    const op::activation a =
        op::activation(activation_kind::relu).set_propagate_nan(false).set_clipping_value(6.0f);
    CHECK_FALSE(a.propagate_nan());
    CHECK(a.clipping_value() == 6.0f);
    CHECK(op::activation().propagate_nan());
    CHECK(op::activation().clipping_value() == 0.0f);
    CHECK(abi_params(a).propagate_nan == 0);

    const op::softmax s = op::softmax().along(1, 2).scaled_by(0.5f).logarithmic().masked(3);
    CHECK(s.axis() == 1);
    CHECK(s.axis_count() == 2);
    CHECK(s.beta() == 0.5f);
    CHECK(s.log());
    CHECK(s.mask() == 3u);
    const op::softmax d;
    CHECK(d.axis() == -1);
    CHECK(d.axis_count() == 1);
    CHECK_FALSE(d.log());
    CHECK(d.mask() == 0u);
    CHECK(d.beta() == 1.0f);
    CHECK(abi_params(s).axis_count == 2);
}

TEST_CASE("gemm, fully_connected, binary, lrn and batchnorm getters read back their setters") {
    const op::gemm g = op::gemm().scales(0.5f, 2.0f).transpose(true, false);
    CHECK(g.alpha() == 0.5f);
    CHECK(g.beta() == 2.0f);
    CHECK(g.trans_a());
    CHECK_FALSE(g.trans_b());

    const op::fully_connected f =
        op::fully_connected().flatten_from(2).transposed_weights().bias().policies(
            rounding_policy::to_zero, overflow_policy::wrap);
    CHECK(f.first_flatten_axis() == 2);
    CHECK(f.weights_transposed());
    CHECK(f.has_bias());
    CHECK(f.rounding() == rounding_policy::to_zero);
    CHECK(f.overflow() == overflow_policy::wrap);

    const op::binary b = op::binary(binary_kind::mul)
                             .set_alpha(2.0f)
                             .set_beta(3.0f)
                             .set_gamma(0.25f)
                             .set_rounding(rounding_policy::to_zero)
                             .set_overflow(overflow_policy::wrap);
    CHECK(b.alpha() == 2.0f);
    CHECK(b.beta() == 3.0f);
    CHECK(b.gamma() == 0.25f);
    CHECK(b.rounding() == rounding_policy::to_zero);
    CHECK(b.overflow() == overflow_policy::wrap);

    const op::lrn l = op::lrn().window(3).coefficients(0.1f, 0.5f, 2.0f).scaled(false);
    CHECK(l.size() == 3);
    CHECK(l.alpha() == 0.1f);
    CHECK(l.beta() == 0.5f);
    CHECK(l.bias() == 2.0f);
    CHECK_FALSE(l.alpha_scaled_by_size());

    CHECK(op::batchnorm().eps(0.125f).epsilon() == 0.125f);
}

TEST_CASE("permute, reorder and reduction getters read back their setters") {
    const op::permute p{2, 0, 1};
    CHECK(p.rank() == 3);
    CHECK(p.order() == std::vector<int>{2, 0, 1});
    CHECK(p.inverse().order() == std::vector<int>{1, 2, 0});
    CHECK(op::transpose(0, -1).as_permute(3).order() == std::vector<int>{2, 1, 0});

    const op::reorder r =
        op::reorder().set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    CHECK(r.rounding() == rounding_policy::to_zero);
    CHECK(r.overflow() == overflow_policy::wrap);
    CHECK(op::reduce().rounding() == rounding_policy::to_nearest_even);
    CHECK(op::mean_reduce2d().rounding() == rounding_policy::to_nearest_even);
}
