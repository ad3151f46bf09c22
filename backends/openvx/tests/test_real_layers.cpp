// test_real_layers.cpp: layers computed on real values (normalization, softmax, the nine
// activation functions) on random Q7.8 data. Activation: against Tessera's reference activation
// on i16 (the same double formulas; tolerance 0). Normalization and softmax: the reference takes
// no i16, so it runs in f32 on the exact real inputs and the test rounds its result to Q7.8;
// tolerance 1 raw unit, as the f32 result may sit on the other side of a rounding tie.
#include <algorithm>
#include <cmath>

#include "tessera/reference/activation.hpp"
#include "tessera/reference/normalization.hpp"
#include "tessera/reference/softmax.hpp"
#include "vx_test_support.hpp"

using namespace vx_test;

namespace {

/// Tessera f32 tensor holding the real values of Q7.8 raw values (exact in f32).
tessera::tensor real_reference(const std::vector<vx_size>& vx_dims, const raw_t& raw) {
    tessera::shape s;
    for (auto it = vx_dims.rbegin(); it != vx_dims.rend(); ++it)
        s.push_back(static_cast<std::int64_t>(*it));
    op_test::values_t v;
    for (std::int64_t x : raw) v.push_back(static_cast<double>(x) / 256.0);
    return op_test::make(s, v);
}

/// Real values rounded to Q7.8 (nearest, saturated).
raw_t to_q78(const op_test::values_t& values) {
    raw_t out;
    for (double v : values) {
        const double r = std::nearbyint(v * 256.0);
        out.push_back(static_cast<std::int64_t>(std::clamp(r, -32768.0, 32767.0)));
    }
    return out;
}

std::vector<vx_size> random_dims(rng& r, std::size_t rank, std::int64_t hi = 5) {
    std::vector<vx_size> dims(rank);
    for (auto& d : dims) d = static_cast<vx_size>(r.uniform(1, hi));
    return dims;
}

void run_normalization(vx_enum type, tsr_lrn_mode mode, std::uint64_t seed) {
    test_context context;
    rng r(seed);
    for (vx_uint32 size : {1u, 3u, 5u})
        for (std::size_t rank : {3u, 4u}) {
            const std::vector<vx_size> dims = random_dims(r, rank, 6);
            const raw_t xv = random_raw(element_count(dims), r.next(), -32768, 32767);
            vx_tensor in = make_tensor(context, dims, VX_TYPE_INT16, 8);
            vx_tensor out = make_tensor(context, dims, VX_TYPE_INT16, 8);
            write_tensor(in, xv);
            const float alpha = 0.0001f * static_cast<float>(r.uniform(1, 50)), beta = 0.75f;
            const raw_t got = run_single(context, out, [&](vx_graph g) {
                return vxNormalizationLayer(g, in, type, size, alpha, beta, out);
            });
            std::vector<vx_size> ref_dims = dims;
            if (rank == 3) ref_dims.push_back(1);
            auto op = tessera::op::lrn()
                          .kind(mode)
                          .window(static_cast<int>(size))
                          .coefficients(alpha, beta, 1.0f)
                          .scaled(true);
            check_equal(got,
                        to_q78(op_test::values(op_test::run1(op, {real_reference(ref_dims, xv)}))),
                        1, "normalization size " + std::to_string(size));
            vxReleaseTensor(&in);
            vxReleaseTensor(&out);
        }
}

}  // namespace

TEST_CASE("normalization: across maps") {
    run_normalization(VX_CONVOLUTIONAL_NETWORK_NORM_ACROSS_MAPS, TSR_LRN_ACROSS_CHANNELS, 41);
}

TEST_CASE("normalization: same map") {
    run_normalization(VX_CONVOLUTIONAL_NETWORK_NORM_SAME_MAP, TSR_LRN_WITHIN_CHANNEL, 42);
}

TEST_CASE("softmax: 1..4 dimensions over dimension 0") {
    test_context context;
    rng r(43);
    for (std::size_t rank = 1; rank <= 4; ++rank) {
        const std::vector<vx_size> dims = random_dims(r, rank, 8);
        // Q7.8 values in [-8, 8): exponentials spread over the output's range.
        const raw_t xv = random_raw(element_count(dims), r.next(), -2048, 2047);
        vx_tensor in = make_tensor(context, dims, VX_TYPE_INT16, 8);
        vx_tensor out = make_tensor(context, dims, VX_TYPE_INT16, 8);
        write_tensor(in, xv);
        const raw_t got =
            run_single(context, out, [&](vx_graph g) { return vxSoftmaxLayer(g, in, out); });
        const raw_t expected = to_q78(
            op_test::values(op_test::run1(tessera::op::softmax(), {real_reference(dims, xv)})));
        check_equal(got, expected, 1, "softmax rank " + std::to_string(rank));
        // Each row sums to about 1.0 (256 raw), each element rounded once.
        const vx_size length = dims[0];
        std::int64_t sum = 0;
        for (vx_size k = 0; k < length; ++k) sum += got[k];
        CHECK(std::abs(sum - 256) <= static_cast<std::int64_t>(length));
        vxReleaseTensor(&in);
        vxReleaseTensor(&out);
    }
}

TEST_CASE("activation: every function over 1..4 dimensions") {
    test_context context;
    rng r(44);
    struct function_case {
        vx_enum vx;
        tsr_activation_kind kind;
        vx_int32 a, b;
    };
    const function_case functions[] = {
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC, TSR_ACT_SIGMOID, 0, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_HYPERBOLIC_TAN, TSR_ACT_TANH, 1, 1},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_HYPERBOLIC_TAN, TSR_ACT_TANH, 2, 2},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, TSR_ACT_RELU, 0, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU, TSR_ACT_BOUNDED_RELU, 6, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SOFTRELU, TSR_ACT_SOFT_RELU, 0, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS, TSR_ACT_ABS, 0, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQUARE, TSR_ACT_SQUARE, 0, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQRT, TSR_ACT_SQRT, 0, 0},
        {VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR, TSR_ACT_LINEAR, 2, -3},
    };
    for (const function_case& f : functions)
        for (std::size_t rank = 1; rank <= 4; ++rank) {
            const std::vector<vx_size> dims = random_dims(r, rank);
            const raw_t xv = random_raw(element_count(dims), r.next(), -32768, 32767);
            vx_tensor in = make_tensor(context, dims, VX_TYPE_INT16, 8);
            vx_tensor out = make_tensor(context, dims, VX_TYPE_INT16, 8);
            write_tensor(in, xv);
            const raw_t got = run_single(context, out, [&](vx_graph g) {
                return vxActivationLayer(g, in, f.vx, f.a, f.b, out);
            });
            const tessera::op::activation op(f.kind, static_cast<float>(f.a),
                                             static_cast<float>(f.b));
            check_equal(got, raw_of(op_test::run1(op, {to_reference(dims, xv, VX_TYPE_INT16, 8)})),
                        0,
                        "activation " +
                            std::to_string(f.vx - VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC) +
                            " rank " + std::to_string(rank));
            vxReleaseTensor(&in);
            vxReleaseTensor(&out);
        }
}

TEST_CASE("activation: hand-computed Q7.8 values") {
    test_context context;
    vx_tensor in = make_tensor(context, {4}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {4}, VX_TYPE_INT16, 8);
    // -2.0, 0.0, 1.5, 100.0
    write_tensor(in, {-512, 0, 384, 25600});
    const auto run = [&](vx_enum f, vx_int32 a, vx_int32 b) {
        return run_single(context, out,
                          [&](vx_graph g) { return vxActivationLayer(g, in, f, a, b, out); });
    };
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU, 0, 0) == raw_t{0, 0, 384, 25600});
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU, 1, 0) == raw_t{0, 0, 256, 256});
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS, 0, 0) == raw_t{512, 0, 384, 25600});
    // Squares: 4.0, 0, 2.25, 10000 saturates to 32767.
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQUARE, 0, 0) == raw_t{1024, 0, 576, 32767});
    // Linear 2x - 3: -7.0, -3.0, 0.0, 197.0 saturates.
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR, 2, -3) == raw_t{-1792, -768, 0, 32767});
    // sqrt(-2) is not a number: 0; sqrt(1.5) = 1.2247 -> 313.5 -> 314 (raw, nearest); 10.0.
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQRT, 0, 0) == raw_t{0, 0, 314, 2560});
    // logistic(0) = 0.5 = 128.
    CHECK(run(VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC, 0, 0)[1] == 128);
    vxReleaseTensor(&in);
    vxReleaseTensor(&out);
}
