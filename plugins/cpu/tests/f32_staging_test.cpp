// f32_staging_test.cpp: compute ops on 16-bit float and quantised tensors run natively as their
// f32 step between conversions (plugins/cpu/src/f32_staging.hpp): answered native, stored with
// the op's own rounding policy, and never used where the reference's arithmetic is not real
// arithmetic followed by one rounding (i16 fixed-point convolution).
#include <cmath>

#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// `t`'s values stored as `type` with `q` (converted as the reference converts).
tensor stored_as(const tensor& t, dtype type, const quantization& q = {}) {
    tensor out(tensor_desc(t.dims(), type, layout::row_major(), q));
    tensor::copy_elements(t, out);
    return out;
}

/// Small integers times 1/4: every product and sum of a small convolution is exact in f32 and
/// in double, so the staged result and the reference's round the same real values.
tensor quarter_steps(const shape& dims, std::uint32_t seed) {
    tensor t(tensor_desc(dims, dtype::f32));
    std::uint32_t state = seed;
    for (std::int64_t i = 0; i < t.num_elements(); ++i) {
        state = state * 1664525u + 1013904223u;
        t.data_as<float>()[i] = static_cast<float>(static_cast<int>(state >> 28) - 8) / 4.0f;
    }
    return t;
}

op_support query(const op_desc& op, const std::vector<tensor>& inputs) {
    std::vector<tensor_desc> in;
    for (const auto& t : inputs) in.push_back(t.desc());
    std::vector<tensor_desc> out;
    for (const auto& d : op.infer(in)) out.push_back(d.with_layout(layout::any()));
    return backend::create("cpu").query(op, in, out);
}

/// Every element of `got` equals `want`'s.
void check_equal(const tensor& got, const tensor& want) {
    const tensor g = as_f32(got), w = as_f32(want);
    REQUIRE(g.dims() == w.dims());
    int bad = 0;
    for (std::int64_t i = 0; i < w.num_elements(); ++i)
        if (g.data_as<float>()[i] != w.data_as<float>()[i] && ++bad <= 5)
            FAIL_CHECK("element " << i << ": " << g.data_as<float>()[i] << " vs reference "
                                  << w.data_as<float>()[i]);
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("an f16 convolution runs natively on its f32 step, within fp32 plus one f16 step") {
    load_cpu_plugin();
    const op_desc conv = op::conv2d().padding(1, 1, 1, 1).bias().fuse(activation_kind::relu);
    const std::vector<tensor> in{stored_as(values(shape::nchw(2, 5, 7, 9), 1), dtype::f16),
                                 stored_as(values(shape{6, 5, 3, 3}, 2, -0.3f, 0.3f), dtype::f16),
                                 stored_as(values(shape{6}, 3), dtype::f16)};
    const op_support s = query(conv, in);
    CHECK_MESSAGE(s.level == TSR_SUPPORT_NATIVE, s.text);
    std::string report;
    const tensor got = run_op(conv, in, "cpu!", {}, &report).at(0);
    INFO(report);
    CHECK(report.find(" 0 emulated") != std::string::npos);
    CHECK(got.type() == dtype::f16);
    const tensor want = reference::execute(conv, in).at(0);
    const tensor g = as_f32(got), w = as_f32(want);
    const tolerance cpu = tolerance_of("cpu");
    for (std::int64_t i = 0; i < w.num_elements(); ++i) {
        const double r = w.data_as<float>()[i];
        const double f16_step = std::max(std::ldexp(std::fabs(r), -10), std::ldexp(1.0, -24));
        CHECK(std::fabs(g.data_as<float>()[i] - r) <=
              cpu.rel * std::fabs(r) + cpu.rel_to_max * 4.0 + cpu.abs + f16_step);
    }
}

TEST_CASE("a quantised i8 convolution stores with the op's rounding policy") {
    load_cpu_plugin();
    // Inputs in quarter steps: products and sums fall on 1/16 steps, exact in f32 and in double,
    // so both round the same real values into the output's quarter steps (and saturate alike).
    const quantization quarter{0.25f, 0, 0};
    const std::vector<tensor> in{
        stored_as(quarter_steps(shape::nchw(1, 3, 6, 6), 5), dtype::i8, quarter),
        stored_as(quarter_steps(shape{4, 3, 3, 3}, 6), dtype::i8, quarter)};
    for (const auto rounding : {rounding_policy::to_zero, rounding_policy::to_nearest_even}) {
        CAPTURE(static_cast<int>(rounding));
        const op_desc conv =
            op::conv2d().padding(1, 1, 1, 1).policies(rounding, overflow_policy::saturate);
        CHECK(query(conv, in).level == TSR_SUPPORT_NATIVE);
        std::string report;
        const tensor got = run_op(conv, in, "cpu!", {false, true}, &report).at(0);
        INFO(report);
        CHECK(report.find(" 0 emulated") != std::string::npos);
        check_equal(got, reference::execute(conv, in).at(0));
    }
}

TEST_CASE("i16 fixed-point convolution does not stage: its products round one by one") {
    load_cpu_plugin();
    const quantization q78{1.0f, 0, 8};
    const op_desc conv = op::conv2d();
    const std::vector<tensor> in{stored_as(values(shape::nchw(1, 2, 4, 4), 7), dtype::i16, q78),
                                 stored_as(values(shape{2, 2, 3, 3}, 8), dtype::i16, q78)};
    // Native in the plugin's integer loops (ops/conv_fixed_point.cpp), not through f32: the
    // result is the reference's exactly.
    CHECK(query(conv, in).level == TSR_SUPPORT_NATIVE);
    check_equal(run_op(conv, in, "cpu!").at(0), reference::execute(conv, in).at(0));
}
