// test_convolution.cpp: vxConvolutionLayer over the conformance grid (kernel/pad x overflow x
// rounding x size rounding x 3-D/4-D x no/shared/per-location bias) on random Q7.8 data against
// Tessera's reference conv2d (same provisional arithmetic; tolerance 0), plus accumulator
// overflow, 8-bit types and fixed-point positions against hand-computed values.
#include <algorithm>
#include <cmath>

#include "conv_fc_support.hpp"
#include "tessera/reference/conv2d.hpp"

using namespace vx_test;

namespace {

struct kernel_case {
    vx_size kx, ky, px, py;
};

void run_grid(const kernel_case& k, std::uint64_t seed) {
    test_context context;
    rng r(seed);
    int cases = 0;
    for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
        for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN})
            for (bool ceil : {false, true})
                for (bool batched : {false, true})
                    for (int bias_form = 0; bias_form < 3; ++bias_form) {
                        // Tessera's ceil rule drops a last window starting past the input and
                        // its leading pad, which the OpenVX relation keeps: draw shapes where
                        // both agree (the README lists the difference).
                        const auto agree = [&](vx_size pad) {
                            return [&, pad](const window_dim& d) {
                                return !ceil || (d.out - 1) * d.skip < d.in + pad;
                            };
                        };
                        const window_dim x = draw_window(r, k.kx, k.px, ceil, agree(k.px));
                        const window_dim y = draw_window(r, k.ky, k.py, ceil, agree(k.py));
                        const auto ifm = static_cast<vx_size>(r.uniform(1, 6));
                        const auto ofm = static_cast<vx_size>(r.uniform(1, 6));
                        const vx_size n = batched ? static_cast<vx_size>(r.uniform(2, 3)) : 1;
                        std::vector<vx_size> in_dims{x.in, y.in, ifm}, out_dims{x.out, y.out, ofm};
                        if (batched) {
                            in_dims.push_back(n);
                            out_dims.push_back(n);
                        }
                        const std::vector<vx_size> w_dims{k.kx, k.ky, ifm, ofm};
                        std::vector<vx_size> b_dims;
                        if (bias_form == 1) b_dims = {ofm};
                        if (bias_form == 2) b_dims = {x.out, y.out, ofm};
                        // Data scaled by sqrt(K) so that most sums fit; extremes still occur.
                        const double k_products = static_cast<double>(k.kx * k.ky * ifm);
                        const auto range = std::min<std::int64_t>(
                            32767, static_cast<std::int64_t>(32767.0 / std::sqrt(k_products)) * 4);
                        const raw_t xv =
                            random_raw(element_count(in_dims), r.next(), -range, range);
                        const raw_t wv = random_raw(element_count(w_dims), r.next(), -range, range);
                        const raw_t bv = random_raw(element_count(b_dims), r.next(), -8192, 8192);

                        vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
                        vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
                        vx_tensor b =
                            bias_form ? make_tensor(context, b_dims, VX_TYPE_INT16, 8) : nullptr;
                        vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
                        write_tensor(in, xv);
                        write_tensor(w, wv);
                        if (b) write_tensor(b, bv);
                        vx_graph graph = vxCreateGraph(context);
                        vx_node node = vxConvolutionLayer(
                            graph, in, w, b, static_cast<vx_uint32>(k.px),
                            static_cast<vx_uint32>(k.py), 32, overflow, rounding,
                            ceil ? VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING
                                 : VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                            out);
                        REQUIRE_MESSAGE(node != nullptr,
                                        (context.log().empty() ? std::string("no log")
                                                               : context.log().back().message));
                        process(graph);
                        const raw_t got = read_tensor(out);

                        std::vector<vx_size> ref_in = in_dims;
                        if (!batched) ref_in.push_back(1);
                        std::vector<tessera::tensor> inputs{
                            to_reference(ref_in, xv, VX_TYPE_INT16, 8),
                            to_reference(w_dims, wv, VX_TYPE_INT16, 8)};
                        if (bias_form) inputs.push_back(to_reference(b_dims, bv, VX_TYPE_INT16, 8));
                        auto op = tessera::op::conv2d()
                                      .stride(static_cast<int>(y.skip), static_cast<int>(x.skip))
                                      .padding(static_cast<int>(k.py), static_cast<int>(k.py),
                                               static_cast<int>(k.px), static_cast<int>(k.px))
                                      .rounding_mode(ceil ? TSR_OUTPUT_CEIL : TSR_OUTPUT_FLOOR)
                                      .policies(rounding == VX_ROUND_POLICY_TO_ZERO
                                                    ? TSR_ROUND_TO_ZERO
                                                    : TSR_ROUND_TO_NEAREST_EVEN,
                                                overflow == VX_CONVERT_POLICY_WRAP
                                                    ? TSR_OVERFLOW_WRAP
                                                    : TSR_OVERFLOW_SATURATE)
                                      .bias(bias_form != 0);
                        const tessera::tensor expected = op_test::run1(op, inputs);
                        check_equal(
                            got, raw_of(expected), 0,
                            "conv " + std::to_string(k.kx) + "x" + std::to_string(k.ky) + " case " +
                                std::to_string(cases) + " in " + std::to_string(x.in) + "x" +
                                std::to_string(y.in) + " out " + std::to_string(x.out) + "x" +
                                std::to_string(y.out) + " skip " + std::to_string(x.skip) + "," +
                                std::to_string(y.skip) + " ifm " + std::to_string(ifm));
                        ++cases;
                        vxReleaseNode(&node);
                        vxReleaseGraph(&graph);
                        vxReleaseTensor(&in);
                        vxReleaseTensor(&w);
                        if (b) vxReleaseTensor(&b);
                        vxReleaseTensor(&out);
                    }
    CHECK(cases == 48);
}

/// A 1x1 convolution of one pixel with `ifm` channels: inputs x, weights w (all Q7.8).
raw_t conv_pixel(test_context& context, const raw_t& x, const raw_t& w, vx_uint8 accumulator_bits,
                 vx_enum overflow, vx_enum rounding, vx_enum type = VX_TYPE_INT16, vx_uint8 pos = 8,
                 vx_uint8 out_pos = 8) {
    const vx_size ifm = x.size();
    vx_tensor in = make_tensor(context, {1, 1, ifm}, type, pos);
    vx_tensor weights = make_tensor(context, {1, 1, ifm, 1}, type, pos);
    vx_tensor out = make_tensor(context, {1, 1, 1}, type, out_pos);
    write_tensor(in, x);
    write_tensor(weights, w);
    vx_graph graph = vxCreateGraph(context);
    vx_node node =
        vxConvolutionLayer(graph, in, weights, nullptr, 0, 0, accumulator_bits, overflow, rounding,
                           VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    REQUIRE(node != nullptr);
    process(graph);
    const raw_t result = read_tensor(out);
    vxReleaseNode(&node);
    vxReleaseGraph(&graph);
    vxReleaseTensor(&in);
    vxReleaseTensor(&weights);
    vxReleaseTensor(&out);
    return result;
}

}  // namespace

TEST_CASE("convolution grid: 11x11 pad 0") {
    run_grid({11, 11, 0, 0}, 1);
}
TEST_CASE("convolution grid: 6x6 pad 0") {
    run_grid({6, 6, 0, 0}, 2);
}
TEST_CASE("convolution grid: 5x5 pad 0") {
    run_grid({5, 5, 0, 0}, 3);
}
TEST_CASE("convolution grid: 3x3 pad 0") {
    run_grid({3, 3, 0, 0}, 4);
}
TEST_CASE("convolution grid: 3x4 pad (1, 2)") {
    run_grid({3, 4, 1, 2}, 5);
}

TEST_CASE("convolution: each product is rounded with the policy") {
    test_context context;
    // x = {1.5, -1.5, 2.5, 0.5} raw, w = 1 raw (1/256): products are those reals in raw units.
    const raw_t x{384, -384, 640, 128}, w{1, 1, 1, 1};
    // To zero: 1 - 1 + 2 + 0 = 2; nearest even: 2 - 2 + 2 + 0 = 2; a single final rounding of
    // the exact sum 3.0 would give 3.
    CHECK(conv_pixel(context, x, w, 32, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{2});
    CHECK(conv_pixel(context, x, w, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_NEAREST_EVEN) == raw_t{2});
    // Two products of 0.5 raw units: each rounds to 0 (to even) and the sum is 0.
    CHECK(conv_pixel(context, {128, 128}, {1, 1}, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_NEAREST_EVEN) == raw_t{0});
    // 1.5 units round to 2 (even), 2.5 units to 2, -2.5 to -2.
    CHECK(conv_pixel(context, {640}, {1}, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_NEAREST_EVEN) == raw_t{2});
    CHECK(conv_pixel(context, {-640}, {1}, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_NEAREST_EVEN) == raw_t{-2});
}

TEST_CASE("convolution: products and accumulator narrow with the overflow policy") {
    test_context context;
    // 127.0 * 2.0 = 254.0: raw 65024 saturates to 32767 or wraps to -512 per product.
    CHECK(conv_pixel(context, {32512}, {512}, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_ZERO) == raw_t{32767});
    CHECK(conv_pixel(context, {32512}, {512}, 32, VX_CONVERT_POLICY_WRAP,
                     VX_ROUND_POLICY_TO_ZERO) == raw_t{-512});
    // Three products of 100.0 (raw 25600 each) fit one by one; the sum 76800 does not fit the
    // output: saturate 32767, wrap 76800 - 65536 = 11264.
    const raw_t x{25600, 25600, 25600}, w{256, 256, 256};
    CHECK(conv_pixel(context, x, w, 32, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{32767});
    CHECK(conv_pixel(context, x, w, 32, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{11264});
    // A 16-bit accumulator saturates during the sum: 25600 + 25600 -> 32767, then + (-25600)
    // = 7167; with 32 bits the sum is exact: 25600.
    const raw_t x2{25600, 25600, -25600}, w2{256, 256, 256};
    CHECK(conv_pixel(context, x2, w2, 16, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{7167});
    CHECK(conv_pixel(context, x2, w2, 32, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{25600});
    // 17 bits hold +-65535: 51200 fits, + (-25600) = 25600.
    CHECK(conv_pixel(context, x2, w2, 17, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{25600});
    // A 16-bit wrapping accumulator wraps at 2^16 too: 51200 -> -14336, then -39936 -> 25600.
    CHECK(conv_pixel(context, x2, w2, 16, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_ZERO) ==
          raw_t{25600});
}

TEST_CASE("convolution: 8-bit integers and other fixed-point positions") {
    test_context context;
    // INT8, position 0: products 100*2 = 200 saturate to 127 each; 127 + 127 + (-6) = 248 -> 127.
    CHECK(conv_pixel(context, {100, 100, -3}, {2, 2, 2}, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_ZERO, VX_TYPE_INT8, 0, 0) == raw_t{127});
    // Wrap: 200 -> -56 each: -56 - 56 - 6 = -118.
    CHECK(conv_pixel(context, {100, 100, -3}, {2, 2, 2}, 32, VX_CONVERT_POLICY_WRAP,
                     VX_ROUND_POLICY_TO_ZERO, VX_TYPE_INT8, 0, 0) == raw_t{-118});
    // UINT8: 10*20 + 3*4 = 212.
    CHECK(conv_pixel(context, {10, 3}, {20, 4}, 32, VX_CONVERT_POLICY_SATURATE,
                     VX_ROUND_POLICY_TO_ZERO, VX_TYPE_UINT8, 0, 0) == raw_t{212});
    // Q11.4 inputs and weights into Q11.4: 2.5 * 1.5 = 3.75 -> raw 60 exactly.
    CHECK(conv_pixel(context, {40}, {24}, 32, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO,
                     VX_TYPE_INT16, 4, 4) == raw_t{60});
    // Q7.8 x Q7.8 into Q3.12: 0.5 * 0.5 = 0.25 -> raw 1024.
    CHECK(conv_pixel(context, {128}, {128}, 32, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO,
                     VX_TYPE_INT16, 8, 12) == raw_t{1024});
}

TEST_CASE("convolution: the SIMD path equals the scalar path bit for bit") {
    // accumulator_bits 32 takes the SIMD path (skip 1, no partial sum can overflow); 31 bits
    // takes the scalar kernel, and with 3x3x5 products no 31-bit sum overflows either.
    test_context context;
    rng r(81);
    for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
        for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN})
            for (vx_uint8 pos : {vx_uint8{8}, vx_uint8{0}, vx_uint8{3}}) {
                const std::vector<vx_size> in_dims{13, 7, 5, 2}, w_dims{3, 3, 5, 4},
                    out_dims{13, 7, 4, 2};
                const raw_t xv = random_raw(element_count(in_dims), r.next(), -32768, 32767);
                const raw_t wv = random_raw(element_count(w_dims), r.next(), -32768, 32767);
                const raw_t bv = random_raw(4, r.next(), -32768, 32767);
                vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, pos);
                vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, pos);
                vx_tensor b = make_tensor(context, {4}, VX_TYPE_INT16, pos);
                vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, pos);
                write_tensor(in, xv);
                write_tensor(w, wv);
                write_tensor(b, bv);
                const auto run = [&](vx_uint8 bits) {
                    return run_single(context, out, [&](vx_graph g) {
                        return vxConvolutionLayer(g, in, w, b, 1, 1, bits, overflow, rounding,
                                                  VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                                                  out);
                    });
                };
                const raw_t fast = run(32), scalar = run(31);
                check_equal(fast, scalar, 0, "simd vs scalar, position " + std::to_string(pos));
                // And both against the reference.
                auto op =
                    tessera::op::conv2d()
                        .padding(1, 1, 1, 1)
                        .policies(rounding == VX_ROUND_POLICY_TO_ZERO ? TSR_ROUND_TO_ZERO
                                                                      : TSR_ROUND_TO_NEAREST_EVEN,
                                  overflow == VX_CONVERT_POLICY_WRAP ? TSR_OVERFLOW_WRAP
                                                                     : TSR_OVERFLOW_SATURATE)
                        .bias(true);
                const raw_t expected =
                    raw_of(op_test::run1(op, {to_reference(in_dims, xv, VX_TYPE_INT16, pos),
                                              to_reference(w_dims, wv, VX_TYPE_INT16, pos),
                                              to_reference({4}, bv, VX_TYPE_INT16, pos)}));
                check_equal(fast, expected, 0, "simd vs reference");
                for (vx_tensor* t : {&in, &w, &b, &out}) vxReleaseTensor(t);
            }
}
