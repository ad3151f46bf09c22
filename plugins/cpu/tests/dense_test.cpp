// dense_test.cpp: the matrix products beyond f32 matmul's addition run natively on the cpu plugin:
// fully_connected flattened from any axis, with transposed weights or PReLU (within the cpu
// tolerance) and on i16 fixed-point tensors (the OpenVX per-product arithmetic, byte for byte).
#include "typed_values.hpp"

using namespace cpu_test;

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
