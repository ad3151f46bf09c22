// reduce_test.cpp: reduce in every kind (min, max, their index forms with select_last_index
// either way, sum, mean, prod) along every axis, keeping the dim or not, runs natively on the
// cpu plugin for every dtype the op accepts and matches the reference backend byte for byte
// (grid values make the sums exact in any order; integers saturate as the reference does);
// f32 sums of arbitrary values stay within the cpu tolerance.
#include "typed_values.hpp"

using namespace cpu_test;

namespace {

/// Value grids with ties, beyond-range sums and products for the integer types.
const typed_input reduce_inputs[] = {
    {"f32", dtype::f32, -4.0, 0.25, 33, {}},
    {"f16", dtype::f16, -4.0, 0.25, 33, {}},
    {"bf16", dtype::bf16, -4.0, 0.5, 17, {}},
    {"dlfloat16", dtype::dlfloat16, -2.0, 0.5, 9, {}},
    {"i8, scale 0.5, zero point 3", dtype::i8, -128.0, 1.0, 256, {0.5f, 3, 0}},
    {"u8, scale 0.25, zero point 10", dtype::u8, 0.0, 1.0, 256, {0.25f, 10, 0}},
    {"i16, fixed point 4", dtype::i16, -32768.0, 256.0, 256, {1.0f, 0, 4}},
    {"i32", dtype::i32, -1073741824.0, 16777216.0, 128, {}},
    {"i64", dtype::i64, -4611686018427387904.0, 72057594037927936.0, 128, {}},
    {"f64", dtype::f64, -4.0, 0.25, 33, {}},
    {"u16", dtype::u16, 0.0, 1024.0, 64, {}},
    {"u32", dtype::u32, 0.0, 67108864.0, 64, {}},
    {"u64", dtype::u64, 0.0, 288230376151711744.0, 64, {}},
};

const reduce_kind all_kinds[] = {reduce_kind::min,     reduce_kind::min_idx, reduce_kind::max,
                                 reduce_kind::max_idx, reduce_kind::sum,     reduce_kind::mean,
                                 reduce_kind::prod};

}  // namespace

TEST_CASE("reduce of every kind, axis and dtype runs natively and matches the reference exactly") {
    load_cpu_plugin();
    for (const auto& in : reduce_inputs) {
        CAPTURE(in.what);
        const tensor x = grid(shape{3, 5, 37}, in.type, 90, in.lo, in.step, in.steps, in.quant);
        for (reduce_kind kind : all_kinds)
            for (int axis : {0, 1, -1})
                for (bool keep : {true, false}) {
                    op::reduce r(kind);
                    r.along(axis).keep(keep);
                    check_exact(r, {x});
                }
    }
}

TEST_CASE("index reductions return the first or the last extreme, ties and NaN as the reference") {
    load_cpu_plugin();
    // Few distinct values: every line has ties. NaN first makes a line's answer NaN at index 0;
    // NaN later is never an extreme.
    const tensor ties = grid(shape{4, 6, 29}, dtype::f32, 91, -1.0, 0.5, 5);
    const tensor nan_first = grid(shape{2, 29}, dtype::f32, 92, -1.0, 0.5, 5, {}, 29);
    const tensor nan_later = grid(shape{2, 29}, dtype::f32, 93, -1.0, 0.5, 5, {}, 17);
    for (reduce_kind kind : all_kinds)
        for (bool last : {false, true})
            for (int axis : {0, 1, -1}) {
                op::reduce r(kind);
                r.along(axis).set_select_last_index(last);
                check_exact(r, {ties});
                if (axis == 1) continue;
                check_exact(r, {nan_first});
                check_exact(r, {nan_later});
            }
}

TEST_CASE("signed zeros: min and max keep the reference's first extreme") {
    load_cpu_plugin();
    tensor x(tensor_desc(shape{2, 20}, dtype::f32));
    for (std::int64_t i = 0; i < 40; ++i) x.data_as<float>()[i] = (i * 7) % 3 == 0 ? -0.0f : 0.0f;
    for (reduce_kind kind : {reduce_kind::min, reduce_kind::max})
        for (int axis : {0, -1}) check_exact(op::reduce(kind).along(axis), {x});
}

TEST_CASE("large reductions split over threads match the reference") {
    load_cpu_plugin();
    const tensor x = values(shape{6, 40, 300}, 94, -3.0f, 3.0f);
    for (int axis : {0, 1, -1}) {
        CAPTURE(axis);
        for (reduce_kind kind : {reduce_kind::max, reduce_kind::min_idx, reduce_kind::prod})
            check_exact(op::reduce(kind).along(axis), {x});
        for (reduce_kind kind : {reduce_kind::sum, reduce_kind::mean})
            check_near(op::reduce(kind).along(axis), {x});
    }
    const tensor ints = grid(shape{3, 70000}, dtype::i32, 95, -100000.0, 1.0, 200001);
    for (reduce_kind kind : {reduce_kind::sum, reduce_kind::mean, reduce_kind::max_idx})
        check_exact(op::reduce(kind).along(-1), {ints});
}

TEST_CASE("reduce is answered native for every kind") {
    load_cpu_plugin();
    for (reduce_kind kind : all_kinds) {
        const op_desc r = op::reduce(kind);
        const std::vector<tensor_desc> in{tensor_desc(shape{2, 8}, dtype::u8)};
        CHECK(backend::create("cpu")
                  .query(r, in, {r.infer(in).at(0).with_layout(layout::any())})
                  .level == TSR_SUPPORT_NATIVE);
    }
}
