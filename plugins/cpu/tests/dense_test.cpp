// dense_test.cpp: the matrix products beyond f32 matmul's addition run natively on the cpu plugin:
// matmul's comparisons, its f64/f16/bf16/dlfloat16 forms and gemm's 16-bit forms (loops in
// double, equal to the reference byte for byte), quantized_matmul in every form (exact integer dot
// products, the reference's arithmetic around them, byte for byte), fully_connected flattened from
// any axis, with transposed weights or PReLU (within the cpu tolerance) and on i16 fixed-point
// tensors (the OpenVX per-product arithmetic, byte for byte).
#include "typed_values.hpp"

using namespace cpu_test;

namespace {

/// i8 values in [lo, lo + steps) with scale `scale` and zero point `zero_point`.
tensor int8s(const shape& dims, std::uint32_t seed, int lo, int steps, float scale,
             int zero_point) {
    return grid(dims, dtype::i8, seed, lo, 1.0, steps, {scale, zero_point, 0});
}

/// Whether the cpu backend answers `op` on `inputs` with TSR_SUPPORT_EMULATED.
bool answered_emulated(const op_desc& op, const std::vector<tensor>& inputs) {
    std::vector<tensor_desc> in;
    for (const auto& t : inputs) in.push_back(t.desc());
    return backend::create("cpu")
               .query(op, in, {op.infer(in).at(0).with_layout(layout::any())})
               .level == TSR_SUPPORT_EMULATED;
}

/// A matmul form: A, B and C dims and the transposes.
struct matmul_shapes {
    const char* what;
    shape a, b, c;
    bool ta = false, tb = false;
};

const matmul_shapes matmul_forms[] = {
    {"A [5, 7], B [7, 6], C [6]", shape{5, 7}, shape{7, 6}, shape{6}},
    {"A [3, 5, 7], B [3, 7, 6], C [3, 6]", shape{3, 5, 7}, shape{3, 7, 6}, shape{3, 6}},
    {"A [3, 5, 7], B [7, 6] (shared), C [6]", shape{3, 5, 7}, shape{7, 6}, shape{6}},
    {"A [5, 7] (shared), B [3, 7, 6], C [3, 6]", shape{5, 7}, shape{3, 7, 6}, shape{3, 6}},
    {"transposed A [3, 7, 5] and B [3, 6, 7], C [6]", shape{3, 7, 5}, shape{3, 6, 7}, shape{6},
     true, true},
    {"transposed A [3, 7, 5], B [7, 6] (shared), C [3, 6]", shape{3, 7, 5}, shape{7, 6},
     shape{3, 6}, true, false},
};

}  // namespace

TEST_CASE("matmul comparisons run natively and equal the reference, ties included") {
    load_cpu_plugin();
    const matmul_kind kinds[] = {matmul_kind::greater,      matmul_kind::greater_equal,
                                 matmul_kind::equal,        matmul_kind::not_equal,
                                 matmul_kind::lesser_equal, matmul_kind::lesser};
    for (const auto& f : matmul_forms) {
        INFO(std::string(f.what));
        // Quarter steps: products and sums are exact, so many equal C exactly.
        const tensor a = grid(f.a, dtype::f32, 1, -1.0, 0.25, 9);
        const tensor b = grid(f.b, dtype::f32, 2, -1.0, 0.5, 5);
        const tensor c = grid(f.c, dtype::f32, 3, -1.0, 0.25, 9);
        for (matmul_kind k : kinds) {
            op::matmul mm;
            mm.operation(k).transpose(f.ta, f.tb);
            check_exact(mm, {a, b, c});
            // Arbitrary values: the sums in double in the reference's order decide alike.
            check_exact(mm, {values(f.a, 4), values(f.b, 5), values(f.c, 6, -0.5f, 0.5f)});
        }
    }
}

TEST_CASE("matmul of f64, f16, bf16 and dlfloat16 runs natively and equals the reference") {
    load_cpu_plugin();
    const typed_input types[] = {
        {"f64", dtype::f64, -1.0, 0.0078125, 257, {}},
        {"f16", dtype::f16, -2.0, 0.125, 33, {}},
        {"bf16", dtype::bf16, -2.0, 0.125, 33, {}},
        {"dlfloat16", dtype::dlfloat16, -2.0, 0.25, 17, {}},
    };
    for (const auto& t : types) {
        INFO(std::string(t.what));
        for (const auto& f : matmul_forms) {
            INFO(std::string(f.what));
            const tensor a = grid(f.a, t.type, 7, t.lo, t.step, t.steps);
            const tensor b = grid(f.b, t.type, 8, t.lo, t.step, t.steps);
            const tensor c = grid(f.c, t.type, 9, t.lo, t.step, t.steps);
            op::matmul mm;
            mm.transpose(f.ta, f.tb);
            check_exact(mm, {a, b, c});
            check_exact(mm, {a, b});
            check_exact(op::matmul(mm).operation(matmul_kind::lesser), {a, b, c});
            // Arbitrary values: sums between two values of the format.
            const auto retyped = [&](const tensor& x) {
                tensor out(tensor_desc(x.dims(), t.type));
                tensor::copy_elements(x, out);
                return out;
            };
            check_exact(
                mm, {retyped(values(f.a, 10)), retyped(values(f.b, 11)), retyped(values(f.c, 12))});
        }
    }
}

TEST_CASE("gemm of f16, bf16 and dlfloat16 runs natively and equals the reference") {
    load_cpu_plugin();
    const typed_input types[] = {
        {"f16", dtype::f16, -2.0, 0.125, 33, {}},
        {"bf16", dtype::bf16, -2.0, 0.125, 33, {}},
        {"dlfloat16", dtype::dlfloat16, -2.0, 0.25, 17, {}},
    };
    for (const auto& t : types) {
        INFO(std::string(t.what));
        for (bool ta : {false, true})
            for (bool tb : {false, true}) {
                CAPTURE(ta);
                CAPTURE(tb);
                const tensor a =
                    grid(ta ? shape{9, 6} : shape{6, 9}, t.type, 60, t.lo, t.step, t.steps);
                const tensor b =
                    grid(tb ? shape{7, 9} : shape{9, 7}, t.type, 61, t.lo, t.step, t.steps);
                const tensor c_full = grid(shape{6, 7}, t.type, 62, t.lo, t.step, t.steps);
                const tensor c_row = grid(shape{7}, t.type, 63, t.lo, t.step, t.steps);
                op::gemm gm;
                gm.transpose(ta, tb);
                check_exact(gm, {a, b});
                check_exact(gm, {a, b, c_full});
                check_exact(gm, {a, b, c_row});
                // Results between two values of the format: rounded to f32 first, as the
                // reference computes 16-bit floats in f32.
                check_exact(op::gemm(gm).scales(0.3f, -1.7f), {a, b, c_full});
                check_exact(op::gemm(gm).scales(2.0f, 0.0f), {a, b, c_row});
            }
    }
}

TEST_CASE("matmul in f64 keeps the precision f32 would lose") {
    load_cpu_plugin();
    // A [1, 2] (1 + 2^-40, 2^-30) times B [2, 1] (1 - 2^-40, 1) plus C -2: in double the product
    // rounds to 1, the sum to 1 + 2^-30, the result to -1 + 2^-30; f32 would give -1.
    tensor a(tensor_desc(shape{1, 2}, dtype::f64)), b(tensor_desc(shape{2, 1}, dtype::f64)),
        c(tensor_desc(shape{1}, dtype::f64));
    a.data_as<double>()[0] = 1.0 + std::ldexp(1.0, -40);
    a.data_as<double>()[1] = std::ldexp(1.0, -30);
    b.data_as<double>()[0] = 1.0 - std::ldexp(1.0, -40);
    b.data_as<double>()[1] = 1.0;
    c.data_as<double>()[0] = -2.0;
    const auto [got, want] = run_native(op::matmul(), {a, b, c});
    CHECK(got.at(0).data_as<double>()[0] == -1.0 + std::ldexp(1.0, -30));
    check_same_bytes(got.at(0), want.at(0), "f64 matmul");
}

TEST_CASE("quantized_matmul of one hand-computed element") {
    load_cpu_plugin();
    // qa = {3, -2} (Sa 0.5, Za 1), qb = {4, 5} (Sb 0.25, Zb 2), qc = 10 (Sc 0.125, Zc 2):
    // D = (3 - 1)(4 - 2) + (-2 - 1)(5 - 2) = -5; Y = 0.5 * 0.25 * -5 + 0.125 * (10 - 2) = 0.375.
    tensor a(tensor_desc(shape{1, 2}, dtype::i8, layout::row_major(), {0.5f, 1, 0}));
    tensor b(tensor_desc(shape{2, 1}, dtype::i8, layout::row_major(), {0.25f, 2, 0}));
    tensor c(tensor_desc(shape{1}, dtype::i8, layout::row_major(), {0.125f, 2, 0}));
    a.data_as<std::int8_t>()[0] = 3;
    a.data_as<std::int8_t>()[1] = -2;
    b.data_as<std::int8_t>()[0] = 4;
    b.data_as<std::int8_t>()[1] = 5;
    c.data_as<std::int8_t>()[0] = 10;
    const auto [got, want] = run_native(op::quantized_matmul(), {a, b, c});
    CHECK(got.at(0).data_as<float>()[0] == 0.375f);
    CHECK(want.at(0).data_as<float>()[0] == 0.375f);
    // Quantised output (Sy 0.25, Zy 1): 0.375 / 0.25 + 1 = 2.5, rounded to even: 2.
    const auto [q_got, q_want] = run_native(
        op::quantized_matmul().dequantized(false).output_quantization(0.25f, 1), {a, b, c});
    CHECK(q_got.at(0).data_as<float>()[0] == 2.0f);
    check_same_bytes(q_got.at(0), q_want.at(0), "quantised output");
}

TEST_CASE("quantized_matmul runs natively in every form and equals the reference exactly") {
    load_cpu_plugin();
    const auto outputs = [](op::quantized_matmul q) {
        return std::vector<op::quantized_matmul>{
            q,
            op::quantized_matmul(q).dequantized(false).output_quantization(0.37f, 3),
            op::quantized_matmul(q).dequantized(false).no_clipping().output_quantization(0.05f, -7),
            op::quantized_matmul(q).operation(matmul_kind::greater),
            op::quantized_matmul(q).operation(matmul_kind::equal),
            op::quantized_matmul(q).operation(matmul_kind::lesser_equal),
        };
    };
    for (const auto& f : matmul_forms) {
        INFO(std::string(f.what));
        op::quantized_matmul base;
        base.transpose(f.ta, f.tb);
        // Zero points at the ends of the s8 range, values over all of it.
        const tensor a = int8s(f.a, 11, -128, 256, 0.5f, -128);
        const tensor b = int8s(f.b, 12, -128, 256, 0.25f, 127);
        const tensor c = int8s(f.c, 13, -128, 256, 0.125f, 5);
        for (const auto& q : outputs(base)) check_exact(q, {a, b, c});
        // Small values: comparisons hit equality.
        const tensor a_small = int8s(f.a, 14, -3, 7, 0.5f, 1);
        const tensor b_small = int8s(f.b, 15, -2, 5, 0.25f, 0);
        const tensor c_small = int8s(f.c, 16, -4, 9, 0.125f, 2);
        for (const auto& q : outputs(base)) check_exact(q, {a_small, b_small, c_small});
        // An f32 A quantised on the fly (halves round to even, values clipped).
        op::quantized_matmul fly(base);
        fly.input_quantization(0.5f, -3).clip(-100, 90);
        const tensor a_float = grid(f.a, dtype::f32, 17, -70.0, 0.25, 561);
        for (const auto& q : outputs(fly)) check_exact(q, {a_float, b, c});
        // C precomputed (f32), for the addition and a comparison.
        const tensor c_float = grid(f.c, dtype::f32, 18, -40.0, 0.5, 161);
        op::quantized_matmul pre(base);
        pre.precomputed();
        check_exact(pre, {a, b, c_float});
        check_exact(op::quantized_matmul(pre).dequantized(false), {a, b, c_float});
        check_exact(op::quantized_matmul(pre).operation(matmul_kind::greater_equal),
                    {a, b, c_float});
        check_exact(op::quantized_matmul(pre).operation(matmul_kind::not_equal),
                    {a_small, b_small, c_float});
    }
}

TEST_CASE("quantized_matmul of a long inner dimension at the extremes stays exact") {
    load_cpu_plugin();
    // (qa - Za)(qb - Zb) = (127 - -128)(-128 - 127) = -65025 per product: a sum of 3001 of them
    // needs more than 16 bits per partial sum.
    tensor a(tensor_desc(shape{4, 3001}, dtype::i8, layout::row_major(), {1.0f, -128, 0}));
    tensor b(tensor_desc(shape{3001, 3}, dtype::i8, layout::row_major(), {1.0f, 127, 0}));
    const tensor c = int8s(shape{3}, 19, -10, 20, 1.0f, 0);
    for (std::int64_t i = 0; i < a.num_elements(); ++i) a.data_as<std::int8_t>()[i] = 127;
    for (std::int64_t i = 0; i < b.num_elements(); ++i) b.data_as<std::int8_t>()[i] = -128;
    const auto [got, want] = run_native(op::quantized_matmul(), {a, b, c});
    CHECK(got.at(0).data_as<float>()[0] ==
          static_cast<float>(-65025.0 * 3001 + c.data_as<std::int8_t>()[0]));
    check_same_bytes(got.at(0), want.at(0), "long inner dimension");
}

TEST_CASE("quantized_matmul forms the integer kernel cannot hold stay on the reference") {
    load_cpu_plugin();
    const tensor b = int8s(shape{7, 6}, 20, -10, 20, 0.25f, 0);
    const tensor c = int8s(shape{6}, 21, -10, 20, 0.125f, 0);
    // A zero point beyond the s8 range.
    CHECK(answered_emulated(op::quantized_matmul(),
                            {int8s(shape{5, 7}, 22, -10, 20, 0.5f, 200), b, c}));
    // Inner sizes whose s32 sums could overflow.
    CHECK(answered_emulated(op::quantized_matmul(),
                            {int8s(shape{1, 20000}, 23, -10, 20, 0.5f, 0),
                             int8s(shape{20000, 6}, 24, -10, 20, 0.5f, 0), c}));
    CHECK_FALSE(answered_emulated(op::quantized_matmul(),
                                  {int8s(shape{5, 7}, 25, -10, 20, 0.5f, 0), b, c}));
}

TEST_CASE("quantized_matmul and fully_connected see new B and weights on every run") {
    load_cpu_plugin();
    // B and the weights are graph inputs: packing them once would keep the first run's values.
    const std::vector<std::pair<op_desc, std::vector<tensor_desc>>> graphs = {
        {op::quantized_matmul(),
         {tensor_desc(shape{6, 9}, dtype::i8, layout::row_major(), {0.5f, 1, 0}),
          tensor_desc(shape{9, 5}, dtype::i8, layout::row_major(), {0.25f, -2, 0}),
          tensor_desc(shape{5}, dtype::i8, layout::row_major(), {0.125f, 0, 0})}},
        {op::fully_connected().bias(),
         {tensor_desc(shape{6, 9}, dtype::f32), tensor_desc(shape{5, 9}, dtype::f32),
          tensor_desc(shape{5}, dtype::f32)}},
    };
    for (const auto& entry : graphs) {
        const op_desc& op = entry.first;
        const auto& descs = entry.second;
        INFO(op.describe());
        graph g;
        std::vector<graph::tensor_id> ids;
        for (std::size_t i = 0; i < descs.size(); ++i)
            ids.push_back(g.input("in" + std::to_string(i), descs[i]));
        const auto out = g.add("op", op, ids).at(0);
        g.output(out);
        auto cg = g.compile("cpu!");
        for (std::uint32_t run = 0; run < 2; ++run) {
            std::map<std::string, tensor> feeds;
            std::vector<tensor> inputs;
            for (std::size_t i = 0; i < descs.size(); ++i) {
                const auto seed = static_cast<std::uint32_t>(30 + run * 3 + i);
                const tensor t =
                    descs[i].type() == dtype::f32
                        ? values(descs[i].dims(), seed)
                        : grid(descs[i].dims(), dtype::i8, seed, -128, 1.0, 256, descs[i].quant());
                feeds["in" + std::to_string(i)] = t;
                inputs.push_back(t);
            }
            const tensor got = cg.run(feeds).at(g.tensors()[static_cast<std::size_t>(out)].name);
            check_close(got, reference::execute(op, inputs).at(0), tolerance_of("cpu"));
        }
    }
}

TEST_CASE("fully_connected flattened from any axis, with transposed weights or PReLU") {
    load_cpu_plugin();
    const tolerance tol = tolerance_of("cpu");
    const tensor src = values(shape{2, 3, 4, 5}, 40);
    for (int axis : {1, 2, 3, -1}) {
        CAPTURE(axis);
        const std::int64_t inner = axis == 1 ? 60 : axis == 2 ? 20 : 5;
        for (bool transposed : {false, true}) {
            CAPTURE(transposed);
            const tensor w = values(transposed ? shape{inner, 7} : shape{7, inner}, 41);
            const tensor bias = values(shape{7}, 42);
            op::fully_connected fc;
            fc.flatten_from(axis).transposed_weights(transposed);
            for (bool constant : {false, true}) {
                check_op("cpu!", op::fully_connected(fc), {src, w}, tol, 1, {false, constant});
                check_op("cpu!", op::fully_connected(fc).bias().fuse(activation_kind::relu),
                         {src, w, bias}, tol, 1, {false, constant});
            }
            check_op("cpu!", op::fully_connected(fc).bias().fuse(activation_kind::prelu),
                     {src, w, bias, values(shape{7}, 43, -0.5f, 0.5f)}, tol);
            check_op("cpu!", op::fully_connected(fc).fuse(activation_kind::prelu),
                     {src, w, values(shape{1}, 44, -0.5f, 0.5f)}, tol);
        }
    }
}

TEST_CASE("i16 fully_connected runs natively with the reference's fixed-point arithmetic") {
    load_cpu_plugin();
    const auto q = [](int pos) { return quantization{1.0f, 0, pos}; };
    // Wide values: products round and saturate at 16 bits, sums go beyond 16 bits.
    const tensor src = grid(shape{3, 4, 10}, dtype::i16, 50, -32768.0, 97.0, 676, q(8));
    const tensor w = grid(shape{6, 40}, dtype::i16, 51, -32768.0, 131.0, 501, q(6));
    const tensor w_t = grid(shape{40, 6}, dtype::i16, 52, -4096.0, 13.0, 631, q(10));
    const tensor bias16 = grid(shape{6}, dtype::i16, 53, -20000.0, 77.0, 520, q(4));
    const tensor bias32 = grid(shape{6}, dtype::i32, 54, -100000.0, 333.0, 600, {});
    const tensor slope = grid(shape{6}, dtype::i16, 55, -128.0, 16.0, 17, q(8));
    for (rounding_policy r : {rounding_policy::to_zero, rounding_policy::to_nearest_even})
        for (overflow_policy o : {overflow_policy::wrap, overflow_policy::saturate}) {
            CAPTURE(static_cast<int>(r));
            CAPTURE(static_cast<int>(o));
            op::fully_connected fc;
            fc.policies(r, o);
            check_exact(op::fully_connected(fc), {src, w});
            check_exact(op::fully_connected(fc).bias(), {src, w, bias16});
            check_exact(op::fully_connected(fc).bias().fuse(activation_kind::relu),
                        {src, w, bias32});
            check_exact(op::fully_connected(fc).transposed_weights().bias(), {src, w_t, bias16});
            check_exact(op::fully_connected(fc).flatten_from(2).fuse(activation_kind::prelu),
                        {src, grid(shape{6, 10}, dtype::i16, 56, -300.0, 1.0, 600, q(3)), slope});
        }
}
