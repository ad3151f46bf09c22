// test_tensor_ops.cpp: vxTensorAdd/Subtract/MultiplyNode ({wrap, saturate} x {add, sub, mul x
// {to zero, nearest even} x scale {1, 1/255, 1/32768}} over 1..max dims with random
// broadcasting), table lookup and transpose (every dim pair, 1..6 dims), all against Tessera's
// reference binary, table_lookup and transpose (exact arithmetic; tolerance 0).
#include "tessera/reference/data_movement.hpp"
#include "tessera/reference/elementwise.hpp"
#include "vx_test_support.hpp"

using namespace vx_test;

namespace {

vx_size max_dims(vx_context context) {
    vx_size n = 0;
    vxQueryContext(context, VX_CONTEXT_MAX_TENSOR_DIMENSIONS, &n, sizeof(n));
    return n;
}

enum class arith { add, sub, mul };

void run_arith(arith kind, vx_enum overflow, vx_enum rounding, float scale, std::uint64_t seed) {
    test_context context;
    rng r(seed);
    for (vx_size rank = 1; rank <= max_dims(context); ++rank) {
        std::vector<vx_size> out_dims(rank), a_dims, b_dims;
        for (auto& d : out_dims) d = static_cast<vx_size>(r.uniform(1, 4));
        a_dims = b_dims = out_dims;
        for (vx_size d = 0; d < rank; ++d) {  // broadcast a dim of one input now and then
            const std::int64_t pick = r.uniform(0, 3);
            if (pick == 0) a_dims[d] = 1;
            if (pick == 1) b_dims[d] = 1;
        }
        for (vx_size d = 0; d < rank; ++d) out_dims[d] = std::max(a_dims[d], b_dims[d]);
        const raw_t av = random_raw(element_count(a_dims), r.next(), -32768, 32767);
        const raw_t bv = random_raw(element_count(b_dims), r.next(), -32768, 32767);
        vx_tensor a = make_tensor(context, a_dims, VX_TYPE_INT16, 8);
        vx_tensor b = make_tensor(context, b_dims, VX_TYPE_INT16, 8);
        vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
        write_tensor(a, av);
        write_tensor(b, bv);
        vx_scalar s = vxCreateScalar(context, VX_TYPE_FLOAT32, &scale);
        const raw_t got = run_single(context, out, [&](vx_graph g) {
            switch (kind) {
                case arith::add:
                    return vxTensorAddNode(g, a, b, overflow, out);
                case arith::sub:
                    return vxTensorSubtractNode(g, a, b, overflow, out);
                default:
                    return vxTensorMultiplyNode(g, a, b, s, overflow, rounding, out);
            }
        });
        auto op =
            tessera::op::binary(kind == arith::add   ? TSR_BINARY_ADD
                                : kind == arith::sub ? TSR_BINARY_SUB
                                                     : TSR_BINARY_MUL)
                .set_overflow(overflow == VX_CONVERT_POLICY_WRAP ? TSR_OVERFLOW_WRAP
                                                                 : TSR_OVERFLOW_SATURATE)
                .set_rounding(rounding == VX_ROUND_POLICY_TO_ZERO ? TSR_ROUND_TO_ZERO
                                                                  : TSR_ROUND_TO_NEAREST_EVEN);
        if (kind == arith::mul) op.set_scale(scale);
        const raw_t expected =
            raw_of(op_test::run1(op, {to_reference(a_dims, av, VX_TYPE_INT16, 8),
                                      to_reference(b_dims, bv, VX_TYPE_INT16, 8)}));
        check_equal(got, expected, 0, "rank " + std::to_string(rank));
        vxReleaseScalar(&s);
        vxReleaseTensor(&a);
        vxReleaseTensor(&b);
        vxReleaseTensor(&out);
    }
}

constexpr vx_enum wrap = VX_CONVERT_POLICY_WRAP, saturate = VX_CONVERT_POLICY_SATURATE;
constexpr vx_enum to_zero = VX_ROUND_POLICY_TO_ZERO, nearest = VX_ROUND_POLICY_TO_NEAREST_EVEN;

}  // namespace

TEST_CASE("tensor add: wrap and saturate with broadcasting") {
    run_arith(arith::add, wrap, to_zero, 1.0f, 51);
    run_arith(arith::add, saturate, to_zero, 1.0f, 52);
}

TEST_CASE("tensor subtract: wrap and saturate with broadcasting") {
    run_arith(arith::sub, wrap, to_zero, 1.0f, 53);
    run_arith(arith::sub, saturate, to_zero, 1.0f, 54);
}

TEST_CASE("tensor multiply: policies x roundings x scale 1") {
    for (vx_enum o : {wrap, saturate})
        for (vx_enum rd : {to_zero, nearest}) run_arith(arith::mul, o, rd, 1.0f, 55);
}

TEST_CASE("tensor multiply: policies x roundings x scale 1/255") {
    for (vx_enum o : {wrap, saturate})
        for (vx_enum rd : {to_zero, nearest}) run_arith(arith::mul, o, rd, 1.0f / 255.0f, 56);
}

TEST_CASE("tensor multiply: policies x roundings x scale 1/32768") {
    for (vx_enum o : {wrap, saturate})
        for (vx_enum rd : {to_zero, nearest}) run_arith(arith::mul, o, rd, 1.0f / 32768.0f, 57);
}

TEST_CASE("tensor multiply: hand-computed Q7.8 products") {
    test_context context;
    vx_tensor a = make_tensor(context, {4}, VX_TYPE_INT16, 8);
    vx_tensor b = make_tensor(context, {1}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {4}, VX_TYPE_INT16, 8);
    // {1.5, -1.5, 0.5 + 1/256, 100} times 1 + 1/256 (raw 257).
    write_tensor(a, {384, -384, 129, 25600});
    write_tensor(b, {257});
    const float one = 1.0f;
    vx_scalar s = vxCreateScalar(context, VX_TYPE_FLOAT32, &one);
    // 384*257/256 = 385.5 -> 385 (zero) / 386 (even); 129*257/256 = 129.504 -> 129 / 130;
    // 25600*257/256 = 25700.
    CHECK(run_single(context, out, [&](vx_graph g) {
              return vxTensorMultiplyNode(g, a, b, s, saturate, to_zero, out);
          }) == raw_t{385, -385, 129, 25700});
    CHECK(run_single(context, out, [&](vx_graph g) {
              return vxTensorMultiplyNode(g, a, b, s, saturate, nearest, out);
          }) == raw_t{386, -386, 130, 25700});
    vxReleaseScalar(&s);
    vxReleaseTensor(&a);
    vxReleaseTensor(&b);
    vxReleaseTensor(&out);
}

TEST_CASE("table lookup: Q7.8 input with an int16 LUT, index = value + count/2") {
    test_context context;
    rng r(58);
    for (vx_size count : {vx_size{65536}, vx_size{256}}) {
        vx_lut lut = vxCreateLUT(context, VX_TYPE_INT16, count);
        const raw_t table = random_raw(count, r.next(), -32768, 32767);
        std::vector<std::int16_t> table16(table.begin(), table.end());
        REQUIRE(vxCopyLUT(lut, table16.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST) == VX_SUCCESS);
        const std::vector<vx_size> dims{5, 4, 3};
        const raw_t xv = random_raw(60, r.next(), -32768, 32767);
        vx_tensor in = make_tensor(context, dims, VX_TYPE_INT16, 8);
        vx_tensor out = make_tensor(context, dims, VX_TYPE_INT16, 8);
        write_tensor(in, xv);
        const raw_t got = run_single(
            context, out, [&](vx_graph g) { return vxTensorTableLookupNode(g, in, lut, out); });
        const raw_t expected = raw_of(op_test::run1(
            tessera::op::table_lookup(), {to_reference(dims, xv, VX_TYPE_INT16, 8),
                                          to_reference({count}, table, VX_TYPE_INT16, 8)}));
        check_equal(got, expected, 0, "lut of " + std::to_string(count));
        if (count == 65536) {  // and by hand
            for (std::size_t i = 0; i < xv.size(); ++i)
                CHECK(got[i] == table[static_cast<std::size_t>(xv[i] + 32768)]);
        }
        vxReleaseLUT(&lut);
        vxReleaseTensor(&in);
        vxReleaseTensor(&out);
    }
    // UINT8 with a UINT8 LUT: index = value.
    vx_lut lut8 = vxCreateLUT(context, VX_TYPE_UINT8, 256);
    std::vector<std::uint8_t> table8(256);
    for (std::size_t i = 0; i < 256; ++i) table8[i] = static_cast<std::uint8_t>(255 - i);
    vxCopyLUT(lut8, table8.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    vx_tensor in8 = make_tensor(context, {3}, VX_TYPE_UINT8, 0);
    vx_tensor out8 = make_tensor(context, {3}, VX_TYPE_UINT8, 0);
    write_tensor(in8, {0, 7, 255});
    CHECK(run_single(context, out8, [&](vx_graph g) {
              return vxTensorTableLookupNode(g, in8, lut8, out8);
          }) == raw_t{255, 248, 0});
    vxReleaseLUT(&lut8);
    vxReleaseTensor(&in8);
    vxReleaseTensor(&out8);
}

TEST_CASE("transpose: every dimension pair for 1..6 dimensions") {
    test_context context;
    rng r(59);
    int pairs = 0;
    for (vx_size rank = 1; rank <= 6; ++rank)
        for (vx_uint32 d1 = 0; d1 < rank; ++d1)
            for (vx_uint32 d2 = 0; d2 < rank; ++d2) {
                std::vector<vx_size> dims(rank);
                for (auto& d : dims) d = static_cast<vx_size>(r.uniform(1, 3));
                std::vector<vx_size> out_dims = dims;
                std::swap(out_dims[d1], out_dims[d2]);
                const raw_t xv = random_raw(element_count(dims), r.next(), -32768, 32767);
                vx_tensor in = make_tensor(context, dims, VX_TYPE_INT16, 8);
                vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
                write_tensor(in, xv);
                const raw_t got = run_single(context, out, [&](vx_graph g) {
                    return vxTensorTransposeNode(g, in, out, d1, d2);
                });
                raw_t expected = xv;
                if (rank >= 2) {
                    const auto a = static_cast<int>(rank - 1 - d1),
                               b = static_cast<int>(rank - 1 - d2);
                    expected = raw_of(op_test::run1(tessera::op::transpose(a, b),
                                                    {to_reference(dims, xv, VX_TYPE_INT16, 8)}));
                }
                check_equal(got, expected, 0,
                            "transpose " + std::to_string(d1) + "," + std::to_string(d2));
                ++pairs;
                vxReleaseTensor(&in);
                vxReleaseTensor(&out);
            }
    CHECK(pairs == 1 + 4 + 9 + 16 + 25 + 36);
}
