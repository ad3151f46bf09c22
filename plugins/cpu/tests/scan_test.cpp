// scan_test.cpp: cumsum (inclusive or exclusive, forward or reverse) and topk (largest or
// smallest, ties by lower index, NaN largest) along every axis run natively on the cpu plugin
// for every numeric dtype and match the reference backend byte for byte: running sums in the
// reference's precision, integers saturating, topk's indices i32.
#include "typed_values.hpp"

using namespace cpu_test;

namespace {

const typed_input scan_inputs[] = {
    {"f32", dtype::f32, -2.0, 0.25, 17, {}},
    {"f16", dtype::f16, -2.0, 0.25, 17, {}},
    {"bf16", dtype::bf16, -2.0, 0.5, 9, {}},
    {"i8, scale 0.5, zero point -4", dtype::i8, -128.0, 1.0, 256, {0.5f, -4, 0}},
    {"u8", dtype::u8, 0.0, 1.0, 256, {}},
    {"i16, fixed point 3", dtype::i16, -32768.0, 512.0, 128, {1.0f, 0, 3}},
    {"i32", dtype::i32, -1073741824.0, 33554432.0, 64, {}},
    {"i64", dtype::i64, -4611686018427387904.0, 144115188075855872.0, 64, {}},
    {"f64", dtype::f64, -2.0, 0.125, 33, {}},
    {"u16", dtype::u16, 0.0, 2048.0, 32, {}},
    {"u32", dtype::u32, 0.0, 268435456.0, 16, {}},
    {"u64", dtype::u64, 0.0, 1152921504606846976.0, 16, {}},
};

}  // namespace

TEST_CASE("cumsum in every form, axis and dtype runs natively and matches exactly") {
    load_cpu_plugin();
    for (const auto& in : scan_inputs) {
        CAPTURE(in.what);
        const tensor x = grid(shape{3, 4, 21}, in.type, 100, in.lo, in.step, in.steps, in.quant);
        for (int axis : {0, 1, -1})
            for (bool exclusive : {false, true})
                for (bool reverse : {false, true})
                    check_exact(op::cumsum(axis).set_exclusive(exclusive).set_reverse(reverse),
                                {x});
    }
}

TEST_CASE("cumsum of f32 values over many rows is split over threads and matches") {
    load_cpu_plugin();
    const tensor x = values(shape{40, 30, 80}, 101, -2.0f, 2.0f);
    for (int axis : {0, 1, 2}) check_exact(op::cumsum(axis).set_reverse(axis == 1), {x});
}

TEST_CASE("topk in every form, axis and dtype runs natively and matches exactly") {
    load_cpu_plugin();
    for (const auto& in : scan_inputs) {
        CAPTURE(in.what);
        const tensor x = grid(shape{3, 5, 19}, in.type, 102, in.lo, in.step, in.steps, in.quant);
        for (int axis : {0, 1, -1})
            for (bool largest : {true, false})
                for (std::int64_t k :
                     {std::int64_t{1}, std::int64_t{3}, x.dims()[axis < 0 ? 2 : axis]})
                    check_exact(op::topk(k, axis).set_largest(largest), {x});
    }
}

TEST_CASE("topk orders ties by lower index and NaN above every number, as the reference") {
    load_cpu_plugin();
    tensor x = grid(shape{4, 33}, dtype::f32, 103, -1.0, 0.5, 4);
    x.data_as<float>()[5] = std::numeric_limits<float>::quiet_NaN();
    x.data_as<float>()[40] = std::numeric_limits<float>::quiet_NaN();
    x.data_as<float>()[41] = std::numeric_limits<float>::quiet_NaN();
    for (bool largest : {true, false})
        for (int axis : {0, -1})
            for (std::int64_t k : {std::int64_t{2}, std::int64_t{4}})
                check_exact(op::topk(k, axis).set_largest(largest).set_sorted(k == 2), {x});
}
