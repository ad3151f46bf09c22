// dense_test.cpp: the matrix products beyond f32 matmul's addition run natively on the cpu plugin:
// matmul's comparisons, its f64/f16/bf16/dlfloat16 forms and gemm's 16-bit forms (loops in
// double, equal to the reference byte for byte), fully_connected flattened from any axis, with
// transposed weights or PReLU (within the cpu tolerance) and on i16 fixed-point tensors (the
// OpenVX per-product arithmetic, byte for byte).
#include "typed_values.hpp"

using namespace cpu_test;

namespace {

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
