// pooling_test.cpp: pooling forms the runtime's Pooling does not take as declared run natively
// on the cpu plugin: ceil rounding (on the runtime with the padding widened, or in the plugin's
// own loops where a divisor counts padding) and the 16-bit and integer dtypes (own loops on
// stored values, averages rounded with the op's rounding: byte for byte the reference's).
#include "stored_values.hpp"

using namespace cpu_test;

TEST_CASE("ceil-rounded pooling counts only the declared padding in its divisors") {
    load_cpu_plugin();
    // Width 5, kernel 3, stride 2, right padding 1, ceil: windows [1 2 3] [3 4 5] [5 pad -];
    // the last window's second position is declared padding, its third lies beyond.
    const tensor x = f32_tensor(shape{1, 1, 1, 5}, {1, 2, 3, 4, 5});
    const auto pool = [](pooling_kind k) {
        return op::pooling(k)
            .kernel(1, 3)
            .stride(1, 2)
            .padding(0, 0, 0, 1)
            .rounding_mode(output_rounding::ceil);
    };
    check_stored(run_native(pool(pooling_kind::max), {x}).first.at(0), {3, 5, 5});
    check_stored(run_native(pool(pooling_kind::average_include_padding), {x}).first.at(0),
                 {2, 4, 2.5});
    check_stored(run_native(pool(pooling_kind::average_exclude_padding), {x}).first.at(0),
                 {2, 4, 5});
}

TEST_CASE("ceil-rounded f32 pooling matches the reference in every mode") {
    load_cpu_plugin();
    const tensor x = values(shape{2, 19, 10, 9}, 13, -3.0f, 3.0f);
    for (const auto kind : {pooling_kind::max, pooling_kind::average_include_padding,
                            pooling_kind::average_exclude_padding}) {
        op::pooling ceil_2x2 =
            op::pooling(kind).kernel(2, 2).stride(2, 2).rounding_mode(output_rounding::ceil);
        op::pooling ceil_3x3 = op::pooling(kind).kernel(3, 3).stride(2, 2).padding(1, 0, 0, 1);
        ceil_3x3.rounding_mode(output_rounding::ceil);
        check_near(ceil_2x2, {x});
        check_near(ceil_3x3, {x});
    }
}

TEST_CASE("pooling on 16-bit floats and integers runs natively and matches exactly") {
    load_cpu_plugin();
    const std::vector<typed_input> types = {
        {"f16", dtype::f16, -4.0, 0.125, 65, {}},
        {"bf16", dtype::bf16, -4.0, 0.125, 65, {}},
        {"dlfloat16", dtype::dlfloat16, -4.0, 0.125, 65, {}},
        {"i8", dtype::i8, -128.0, 7.0, 37, {0.125f, 0, 0}},
        {"u8", dtype::u8, 0.0, 7.0, 37, {0.05f, 128, 0}},
        {"i16", dtype::i16, -32768.0, 1771.0, 38, {1.0f, 0, 8}}};
    for (const auto& t : types) {
        INFO(t.what);
        const tensor x = grid(shape{2, 5, 9, 8}, t.type, 14, t.lo, t.step, t.steps, t.quant);
        for (const auto kind : {pooling_kind::max, pooling_kind::average_include_padding,
                                pooling_kind::average_exclude_padding}) {
            for (const auto rounding :
                 {rounding_policy::to_nearest_even, rounding_policy::to_zero}) {
                op::pooling p = op::pooling(kind).kernel(3, 2).stride(2, 2).padding(1, 1, 0, 1);
                p.set_rounding(rounding);
                check_exact(p, {x});
                p.rounding_mode(output_rounding::ceil);
                check_exact(p, {x});
            }
        }
        check_exact(op::pooling(pooling_kind::global_average), {x});
        check_exact(op::pooling(pooling_kind::global_max), {x});
    }
}

TEST_CASE("integer average pooling rounds with the op's rounding") {
    load_cpu_plugin();
    const tensor x = stored_tensor(shape{1, 1, 1, 4}, dtype::i8, {0.5f, 0, 0}, {1, 2, 3, 3});
    op::pooling p = op::pooling(pooling_kind::average_exclude_padding).kernel(1, 2).stride(1, 2);
    check_stored(run_native(p, {x}).first.at(0), {2, 3});  // 1.5 to nearest even
    p.set_rounding(rounding_policy::to_zero);
    check_stored(run_native(p, {x}).first.at(0), {1, 3});
}
