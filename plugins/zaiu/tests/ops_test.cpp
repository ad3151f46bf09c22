// ops_test.cpp: every op the zaiu plugin maps, run alone on "zaiu!" and compared with the
// reference backend within the documented tolerance, on odd shapes (partial sticks and pages).
#include "test_support.hpp"

using namespace zaiu_test;

namespace {

/// Small integers (exact in DLFLOAT16, exact sums in fp32): comparisons have no rounding ties.
tensor integers(const shape& dims, int lo, int hi, std::uint32_t seed) {
    tensor t = random_tensor(dims, static_cast<float>(lo), static_cast<float>(hi) + 0.999f, seed);
    for (std::int64_t i = 0; i < t.num_elements(); ++i)
        t.data_as<float>()[i] = std::floor(t.data_as<float>()[i]);
    return t;
}

}  // namespace

TEST_CASE("binary ops match the reference") {
    const shape s = shape::nchw(2, 3, 5, 37);
    const tensor a = random_tensor(s, -4.0f, 4.0f, 1);
    const tensor b = random_tensor(s, 0.5f, 3.0f, 2);
    for (auto o : {TSR_BINARY_ADD, TSR_BINARY_SUB, TSR_BINARY_MUL, TSR_BINARY_DIV, TSR_BINARY_MIN,
                   TSR_BINARY_MAX}) {
        CAPTURE(o);
        check_op(op::binary(o), {a, b});
    }
    SUBCASE("rank 3 and rank 1") {
        check_op(op::binary(TSR_BINARY_MUL), {random_tensor(shape{3, 33, 65}, -2, 2, 3),
                                              random_tensor(shape{3, 33, 65}, -2, 2, 4)});
        check_op(op::binary(TSR_BINARY_SUB),
                 {random_tensor(shape{130}, -2, 2, 5), random_tensor(shape{130}, -2, 2, 6)});
    }
}

TEST_CASE("unary ops match the reference") {
    const shape s{7, 45};
    check_op(op::unary(TSR_UNARY_LOG), {random_tensor(s, 0.05f, 20.0f, 7)});
    check_op(op::unary(TSR_UNARY_EXP), {random_tensor(s, -4.0f, 4.0f, 8)});
    check_op(op::unary(TSR_UNARY_SQRT), {random_tensor(s, 0.0f, 50.0f, 9)});
    check_op(op::unary(TSR_UNARY_RSQRT, 0.01f), {random_tensor(s, 0.1f, 50.0f, 10)});
}

TEST_CASE("activations match the reference") {
    const tensor x = random_tensor(shape::nchw(1, 5, 3, 35), -8.0f, 8.0f, 11);
    check_op(op::activation(TSR_ACT_RELU), {x});
    check_op(op::activation(TSR_ACT_RELU6), {x});
    check_op(op::activation(TSR_ACT_BOUNDED_RELU, 2.5f), {x});
    check_op(op::activation(TSR_ACT_CLIP, 0.0f, 1.5f), {x});
    check_op(op::activation(TSR_ACT_LEAKY_RELU, 0.1f), {x});
    check_op(op::activation(TSR_ACT_TANH, 1.0f, 1.0f), {x});
    check_op(op::activation(TSR_ACT_SIGMOID), {x});
    check_op(op::activation(TSR_ACT_GELU, 1.0f), {x});
}

TEST_CASE("softmax, log-softmax and masked softmax match the reference") {
    check_op(op::softmax(), {random_tensor(shape{3, 70}, -5, 5, 12)});
    check_op(op::softmax(), {random_tensor(shape{2, 3, 45}, -5, 5, 13)});
    check_op(op::softmax().along(1, 2), {random_tensor(shape{2, 5, 7}, -5, 5, 14)});
    check_op(op::softmax().logarithmic(), {random_tensor(shape{4, 50}, -5, 5, 15)});
    check_op(op::softmax().masked(20), {random_tensor(shape{4, 50}, -5, 5, 16)});
}

TEST_CASE("matmul: plain, stacked, broadcast, transposed and compare forms") {
    check_op(op::matmul(),
             {random_tensor(shape{5, 70}, -1, 1, 17), random_tensor(shape{70, 9}, -1, 1, 18),
              random_tensor(shape{9}, -1, 1, 19)});
    check_op(op::matmul(),
             {random_tensor(shape{2, 5, 33}, -1, 1, 20), random_tensor(shape{2, 33, 7}, -1, 1, 21),
              random_tensor(shape{2, 7}, -1, 1, 22)});
    check_op(op::matmul(), {random_tensor(shape{3, 4, 6}, -1, 1, 23),
                            random_tensor(shape{6, 5}, -1, 1, 24)});  // bcast23, no C
    check_op(op::matmul(),
             {random_tensor(shape{4, 6}, -1, 1, 25), random_tensor(shape{3, 6, 5}, -1, 1, 26),
              random_tensor(shape{3, 5}, -1, 1, 27)});  // bcast1
    check_op(op::matmul().transpose(true, true),
             {random_tensor(shape{33, 5}, -1, 1, 28), random_tensor(shape{9, 33}, -1, 1, 29)});
    const tensor a = integers(shape{6, 10}, -3, 3, 30), b = integers(shape{10, 7}, -3, 3, 31);
    tensor c = integers(shape{7}, -6, 6, 32);
    for (std::int64_t i = 0; i < 7; ++i) c.data_as<float>()[i] += 0.5f;
    for (auto o : {TSR_MATMUL_GREATER, TSR_MATMUL_GREATER_EQUAL, TSR_MATMUL_EQUAL,
                   TSR_MATMUL_NOT_EQUAL, TSR_MATMUL_LESSER_EQUAL, TSR_MATMUL_LESSER}) {
        CAPTURE(o);
        check_op(op::matmul().operation(o), {a, b, c});
    }
}

TEST_CASE("gemm and fully_connected match the reference") {
    check_op(op::gemm(),
             {random_tensor(shape{7, 33}, -1, 1, 33), random_tensor(shape{33, 65}, -1, 1, 34),
              random_tensor(shape{65}, -1, 1, 35)});
    check_op(op::gemm().transpose(false, true),
             {random_tensor(shape{7, 33}, -1, 1, 36), random_tensor(shape{65, 33}, -1, 1, 37)});
    check_op(op::gemm(),
             {random_tensor(shape{7, 33}, -1, 1, 38), random_tensor(shape{33, 65}, -1, 1, 39),
              random_tensor(shape{7, 65}, -1, 1, 40)},
             {}, 2);
    const tensor src = random_tensor(shape::nchw(2, 3, 4, 5), -1, 1, 41);
    check_op(
        op::fully_connected().bias().fuse(TSR_ACT_RELU),
        {src, random_tensor(shape{10, 60}, -0.5f, 0.5f, 42), random_tensor(shape{10}, -1, 1, 43)},
        {false, true, true});
    check_op(op::fully_connected().transposed_weights(),
             {src, random_tensor(shape{60, 11}, -0.5f, 0.5f, 44)}, {false, true});
    check_op(op::fully_connected().flatten_from(2).fuse(TSR_ACT_TANH, 1.0f, 1.0f),
             {src, random_tensor(shape{3, 20}, -0.5f, 0.5f, 45)}, {}, 2);
}

TEST_CASE("conv2d: SAME and VALID, strides, fused bias and relu, weights as constants") {
    const tensor x = random_tensor(shape::nchw(2, 3, 9, 11), -1, 1, 46);
    const tensor w = random_tensor(shape{5, 3, 3, 3}, -0.5f, 0.5f, 47);
    const tensor bias = random_tensor(shape{5}, -0.5f, 0.5f, 48);
    check_op(op::conv2d().padding(1, 1, 1, 1).bias().fuse(TSR_ACT_RELU), {x, w, bias},
             {false, true, true});
    check_op(op::conv2d().padding(TSR_PADDING_SAME).stride(2, 2).bias().fuse(TSR_ACT_RELU6),
             {x, w, bias}, {false, true, true});
    check_op(op::conv2d().padding(TSR_PADDING_VALID).stride(2, 3), {x, w}, {false, true});
    check_op(op::conv2d().padding(0, 1, 1, 1).stride(2, 2),
             {x, random_tensor(shape{4, 3, 2, 3}, -0.5f, 0.5f, 49)});  // SAME, odd pad low
    check_op(op::conv2d().fuse(TSR_ACT_SIGMOID),
             {x, random_tensor(shape{70, 3, 1, 1}, -0.5f, 0.5f, 50)}, {false, true}, 2);
}

TEST_CASE("pooling: max and average with SAME/VALID, global") {
    const tensor x = random_tensor(shape::nchw(2, 3, 9, 11), -3, 3, 51);
    check_op(op::pooling(TSR_POOL_MAX).kernel(2, 2).stride(2, 2), {x});
    check_op(
        op::pooling(TSR_POOL_AVERAGE_EXCLUDE_PADDING).kernel(3, 3).stride(1, 1).padding(1, 1, 1, 1),
        {x});
    check_op(op::pooling(TSR_POOL_AVERAGE_INCLUDE_PADDING)
                 .kernel(3, 2)
                 .stride(2, 2)
                 .padding(TSR_PADDING_VALID),
             {x});
    check_op(op::pooling(TSR_POOL_MAX).kernel(3, 3).stride(2, 2).padding(TSR_PADDING_SAME), {x});
    check_op(op::pooling(TSR_POOL_GLOBAL_AVERAGE), {x});
    check_op(op::pooling(TSR_POOL_GLOBAL_MAX), {x});
}

TEST_CASE("batchnorm and mean_reduce2d match the reference") {
    const tensor x = random_tensor(shape::nchw(2, 5, 6, 7), -2, 2, 52);
    const tensor mean = random_tensor(shape{5}, -0.5f, 0.5f, 53),
                 var = random_tensor(shape{5}, 0.5f, 2.0f, 54);
    const tensor scale = random_tensor(shape{5}, 0.5f, 1.5f, 55),
                 shift = random_tensor(shape{5}, -0.5f, 0.5f, 56);
    check_op(op::batchnorm(), {x, mean, var, scale, shift}, {false, true, true, true, true}, 3);
    check_op(op::batchnorm().fuse(TSR_ACT_RELU), {x, mean, var}, {}, 3);
    check_op(op::batchnorm().affine(), {random_tensor(shape{3, 5}, -2, 2, 57), scale, shift});
    check_op(op::mean_reduce2d(), {x});
}

TEST_CASE("moments, layer_norm, norm and reduce match the reference") {
    const tensor x = random_tensor(shape::nchw(2, 3, 4, 5), -2, 2, 58);
    check_op(op::moments(), {x});
    check_op(op::moments().correction(TSR_BESSEL_SAMPLE).from_axis(2),
             {random_tensor(shape{3, 4, 35}, -2, 2, 59)});
    const auto stats = reference::execute(op::moments(), {x});
    check_op(op::layer_norm().statistics().affine(1.5f, 0.25f), {x, stats[0], stats[1]}, {}, 2);
    check_op(op::layer_norm().from_axis(1).affine(1.5f, 0.25f), {x}, {}, 3);
    check_op(op::layer_norm().from_axis(-1), {random_tensor(shape{3, 70}, -2, 2, 60)}, {}, 3);
    check_op(op::norm(),
             {random_tensor(shape{3, 4, 33}, -2, 2, 61), random_tensor(shape{3, 4, 33}, -2, 2, 62)},
             {}, 2);
    const tensor r = random_tensor(shape{3, 5, 37}, -4, 4, 63);
    check_op(op::reduce(TSR_REDUCE_MAX), {r});
    check_op(op::reduce(TSR_REDUCE_MIN).keep(false), {r});
    check_op(op::reduce(TSR_REDUCE_MAX_IDX), {r});
    check_op(op::reduce(TSR_REDUCE_MIN_IDX).keep(false), {r});
}

TEST_CASE("f16 and bf16 tensors are transformed from their own types") {
    const tensor a = random_tensor(shape{3, 40}, -2, 2, 64).clone();
    tensor a16(tensor_desc(a.dims(), dtype::f16)), b16(tensor_desc(a.dims(), dtype::bf16));
    tensor::copy_elements(a, a16);
    tensor::copy_elements(a, b16);
    check_op(op::activation(TSR_ACT_SIGMOID), {a16}, {},
             2);  // both sides also round to the 16-bit output type
    check_op(op::binary(TSR_BINARY_ADD), {b16, b16}, {}, 2);
}

TEST_CASE("lstm and gru: directions, last step only, bidirectional previous layer") {
    const std::int64_t T = 3, B = 2, F = 5, H = 7;
    auto rnn_inputs = [&](int gates, int dirs, const shape& x, std::uint32_t seed, bool with_c0) {
        const std::int64_t features = x.rank() == 3 ? x[2] : x[1] * x[3];
        std::vector<tensor> in{random_tensor(x, -1, 1, seed),
                               random_tensor(shape{dirs, B, H}, -0.5f, 0.5f, seed + 1)};
        if (with_c0) in.push_back(random_tensor(shape{dirs, B, H}, -0.5f, 0.5f, seed + 2));
        in.push_back(random_tensor(shape{dirs, features, gates * H}, -0.4f, 0.4f, seed + 3));
        in.push_back(random_tensor(shape{dirs, gates * H}, -0.2f, 0.2f, seed + 4));
        in.push_back(random_tensor(shape{dirs, H, gates * H}, -0.4f, 0.4f, seed + 5));
        in.push_back(random_tensor(shape{dirs, gates * H}, -0.2f, 0.2f, seed + 6));
        return in;
    };
    const std::vector<bool> lstm_consts{false, false, false, true, true, true, true};
    const std::vector<bool> gru_consts{false, false, true, true, true, true};
    const int k = static_cast<int>(3 * T);  // roundings per step: input and hidden matmuls, states
    check_op(op::lstm(TSR_RNN_FORWARD), rnn_inputs(4, 1, shape{T, B, F}, 100, true), lstm_consts,
             k);
    check_op(op::lstm(TSR_RNN_BACKWARD, false), rnn_inputs(4, 1, shape{T, B, F}, 110, true),
             lstm_consts, k);
    check_op(op::lstm(TSR_RNN_BIDIRECTIONAL), rnn_inputs(4, 2, shape{T, B, F}, 120, true),
             lstm_consts, k);
    check_op(op::gru(TSR_RNN_FORWARD), rnn_inputs(3, 1, shape{T, B, F}, 130, false), gru_consts, k);
    check_op(op::gru(TSR_RNN_BIDIRECTIONAL, false), rnn_inputs(3, 2, shape{T, B, F}, 140, false),
             gru_consts, k);
    // input from a bidirectional layer: [T, 2, B, H'] read through BIDIR_FICO weights
    check_op(op::lstm(TSR_RNN_FORWARD), rnn_inputs(4, 1, shape{T, 2, B, 6}, 150, true), lstm_consts,
             k);
}
