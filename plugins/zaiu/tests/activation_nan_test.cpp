// activation_nan_test.cpp: the activation op's NaN policy and clipping_value on the zaiu backend
// against the reference: propagate_nan = 1 keeps NaN (the zAIU carries it as NINF),
// propagate_nan = 0 turns a NaN input into 0 (post-processed by the plugin).
#include <limits>

#include "zaiu_plugin.hpp"

using namespace zaiu_test;

namespace {

/// DLFLOAT16-exact values in [-4, 4] with a NaN every 7th element.
tensor with_nans(const shape& dims, std::uint32_t seed) {
    tensor t = values(dims, seed, -4.0f, 4.0f);
    for (std::int64_t i = 0; i < t.num_elements(); i += 7)
        t.data_as<float>()[i] = std::numeric_limits<float>::quiet_NaN();
    return t;
}

/// NaN exactly where the reference has NaN; elsewhere within the one-op tolerance.
void check_nan_policy(const op::activation& a, const tensor& x) {
    const tensor expected = reference::execute(a, {x}).at(0);
    const tensor actual = run_op(a, {x}, "zaiu!").at(0);
    REQUIRE(actual.dims() == expected.dims());
    tensor e = expected.clone(), got = actual.clone();
    int nan_mismatches = 0;
    for (std::int64_t i = 0; i < e.num_elements(); ++i) {
        float& r = e.data_as<float>()[i];
        float& z = got.data_as<float>()[i];
        if (std::isnan(r) != std::isnan(z)) ++nan_mismatches;
        if (std::isnan(r) || std::isnan(z)) r = z = 0.0f;  // compare the rest numerically
    }
    CHECK(nan_mismatches == 0);
    check_close(got, e, tolerance_of("zaiu"), 1, "activation with NaN inputs");
}

}  // namespace

TEST_CASE("activations with NaN inputs follow propagate_nan like the reference") {
    const tensor x = with_nans(shape::nchw(1, 3, 5, 37), 200);
    for (const op::activation& base :
         {op::activation(activation_kind::relu), op::activation(activation_kind::relu6),
          op::activation(activation_kind::leaky_relu, 0.1f), op::activation(activation_kind::tanh),
          op::activation(activation_kind::sigmoid), op::activation(activation_kind::gelu, 1.0f)}) {
        CAPTURE(base.spec().kind);
        op::activation keep = base, zero = base;
        check_nan_policy(keep.set_propagate_nan(true), x);
        check_nan_policy(zero.set_propagate_nan(false), x);
    }
    // the policy value is final: a clipping value does not touch the zeros
    check_nan_policy(
        op::activation(activation_kind::relu).set_clipping_value(2.5f).set_propagate_nan(false), x);
}

TEST_CASE("activation clipping_value clips relu and leaky relu, other kinds decline") {
    const tensor x = values(shape{4, 70}, 201, -8.0f, 8.0f);
    check_op(op::activation(activation_kind::relu).set_clipping_value(2.5f), {x});
    check_op(op::activation(activation_kind::relu6).set_clipping_value(3.0f), {x});  // min(6, 3)
    check_op(op::activation(activation_kind::bounded_relu, 2.0f).set_clipping_value(5.0f),
             {x});  // min(2, 5)
    check_op(op::activation(activation_kind::leaky_relu, 0.2f).set_clipping_value(1.5f), {x});
    const op::activation tanh_clipped =
        op::activation(activation_kind::tanh).set_clipping_value(0.5f);
    std::string report;
    const tensor y = run_op(tanh_clipped, {x}, "zaiu|reference", {}, &report).at(0);
    CAPTURE(report);
    CHECK(report.find("[activation] -> reference") != std::string::npos);
    CHECK(report.find("zDNN clips only relu and leaky_relu results (attribute)") !=
          std::string::npos);
    check_close(y, reference::execute(tanh_clipped, {x}).at(0), tolerance_of("zaiu"), 1,
                "fallback");
}
