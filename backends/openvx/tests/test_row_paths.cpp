// test_row_paths.cpp: the int16 SIMD kernels of pooling and of the element-wise tensor nodes give
// the scalar kernels' results bit for bit (tolerance 0), with the CPU's best table and the AVX2
// table, over grids of the policy corners: wrap and saturate (sums and products past int16),
// both roundings of multiply with halfway products and negative values, power-of-two scales
// (int32 lanes), odd mantissas (int64 lanes) and a scale that multiplies up (scalar), broadcasting
// in dim 0 and above, rows shorter and longer than a vector; pooling max (zero padding counting,
// negative inputs) and average (divisors of padded and ceiling windows, ties) over kernel sizes,
// pads, skips and both size roundings.
#include <string>

#include "conv_fc_support.hpp"
#include "kernel_path_support.hpp"

using namespace vx_test;

namespace {

/// Runs the graph with the scalar kernels, the best table and the AVX2 table; checks both SIMD
/// results against the scalar one; returns the kernel the default path ran.
std::string check_row_paths(test_context& context, vx_graph graph, vx_tensor out,
                            const std::string& what) {
    const path_result scalar = run_path(context, graph, out, "scalar", nullptr);
    REQUIRE(scalar.kernel == "scalar");
    const path_result best = run_path(context, graph, out, nullptr, nullptr);
    check_equal(best.values, scalar.values, 0, what + " [" + best.kernel + "]");
    const path_result avx2 = run_path(context, graph, out, nullptr, "avx2");
    check_equal(avx2.values, scalar.values, 0, what + " [" + avx2.kernel + "]");
    return best.kernel;
}

/// Element-wise operands: full-range values, or halfway products (x * y = odd * 2^(shift-1)).
raw_t operand(rng& r, std::size_t n, bool ties) {
    raw_t v(n);
    for (auto& e : v) {
        if (!ties) {
            e = r.uniform(0, 7) == 0 ? (r.uniform(0, 1) ? 32767 : -32768)
                                     : r.uniform(-32768, 32767);
        } else {
            e = (2 * r.uniform(-60, 60) + 1) * (std::int64_t{1} << r.uniform(0, 7));
        }
    }
    return v;
}

}  // namespace

TEST_CASE("row paths: add, subtract and multiply, every policy, broadcasting, both roundings") {
    test_context context;
    rng r(2301);
    // Powers of two (int32 lanes), odd mantissas (int64 lanes: 1/255, 0.7, 3), and 1024 (the
    // product scaled up: scalar kernel).
    const float scales[] = {1.0f, 0.5f, 1.0f / 32768.0f, 2.0f, 1.0f / 255.0f, 0.0625f,
                            0.7f, 3.0f, 1024.0f};
    int cases = 0, simd_cases = 0;
    for (int kind = 0; kind < 3; ++kind)
        for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
            for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN})
                for (const float scale : scales) {
                    if (kind < 2 && (rounding == VX_ROUND_POLICY_TO_ZERO || scale != 1.0f))
                        continue;  // add / subtract: one case per policy and shape set
                    for (int shape = 0; shape < 4; ++shape) {
                        // Rank 1..4, dim 0 from 1 to past two vectors; broadcasting in dim 0
                        // (shape 1), in a higher dim (shape 2), none (shapes 0, 3).
                        const vx_size rank = static_cast<vx_size>(1 + shape);
                        std::vector<vx_size> out_dims(rank);
                        for (auto& d : out_dims) d = static_cast<vx_size>(r.uniform(1, 4));
                        out_dims[0] = static_cast<vx_size>(r.uniform(1, 150));
                        std::vector<vx_size> a_dims = out_dims, b_dims = out_dims;
                        if (shape == 1) (r.uniform(0, 1) ? a_dims : b_dims)[0] = 1;
                        if (shape == 2) (r.uniform(0, 1) ? a_dims : b_dims)[rank - 1] = 1;
                        const bool ties = kind == 2 && shape % 2 == 1;
                        const raw_t av = operand(r, element_count(a_dims), ties);
                        const raw_t bv = operand(r, element_count(b_dims), ties);
                        // Positions: Q7.8 and others (the product's shift 8 - log2 scale).
                        const bool other_positions = kind == 2 && shape == 3;
                        const vx_uint8 fa = 8, fb = other_positions ? 4 : 8,
                                       fo = other_positions ? 6 : 8;
                        vx_tensor a = make_tensor(context, a_dims, VX_TYPE_INT16, fa);
                        vx_tensor b = make_tensor(context, b_dims, VX_TYPE_INT16, fb);
                        vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, fo);
                        write_tensor(a, av);
                        write_tensor(b, bv);
                        vx_scalar s = vxCreateScalar(context, VX_TYPE_FLOAT32, &scale);
                        vx_graph graph = vxCreateGraph(context);
                        vx_node node =
                            kind == 0 ? vxTensorAddNode(graph, a, b, overflow, out)
                            : kind == 1
                                ? vxTensorSubtractNode(graph, a, b, overflow, out)
                                : vxTensorMultiplyNode(graph, a, b, s, overflow, rounding, out);
                        REQUIRE(node != nullptr);
                        const std::string what =
                            "kind " + std::to_string(kind) + " overflow " +
                            std::to_string(overflow) + " rounding " + std::to_string(rounding) +
                            " scale " + std::to_string(scale) + " shape " + std::to_string(shape) +
                            " width " + std::to_string(out_dims[0]);
                        const std::string kernel = check_row_paths(context, graph, out, what);
                        // SIMD unless the product is scaled up.
                        CHECK_MESSAGE(int16_kernel(kernel) == (kind < 2 || scale != 1024.0f),
                                      what << ": " << kernel);
                        if (int16_kernel(kernel)) ++simd_cases;
                        ++cases;
                        vxReleaseNode(&node);
                        vxReleaseGraph(&graph);
                        vxReleaseScalar(&s);
                        vxReleaseTensor(&a);
                        vxReleaseTensor(&b);
                        vxReleaseTensor(&out);
                    }
                }
    CHECK(cases == (2 * 2 + 2 * 2 * 9) * 4);
    CHECK(simd_cases == (2 * 2 + 2 * 2 * 8) * 4);
}

TEST_CASE("row paths: pooling max and average over sizes, pads, skips and size roundings") {
    test_context context;
    rng r(2302);
    struct window {
        vx_size kx, ky, pad_x, pad_y;
    };
    const window windows[] = {{3, 3, 0, 0}, {3, 4, 1, 2}, {2, 2, 0, 0}, {3, 3, 1, 1},
                              {5, 5, 2, 2}, {1, 1, 0, 0}, {7, 2, 3, 1}};
    int cases = 0, max_skip2 = 0;  // max pooling with skip 2 has its own column pick
    for (const window& wdw : windows)
        for (vx_enum type :
             {VX_CONVOLUTIONAL_NETWORK_POOLING_MAX, VX_CONVOLUTIONAL_NETWORK_POOLING_AVG})
            for (const bool ceil : {false, true})
                for (const vx_size want_skip : {vx_size{1}, vx_size{2}, vx_size{3}}) {
                    const auto out_w = static_cast<vx_size>(r.uniform(1, 45));
                    const auto out_h = static_cast<vx_size>(r.uniform(1, 6));
                    const auto extent = [&](vx_size out, vx_size k, vx_size pad) {
                        const vx_size span = (out - 1) * want_skip + k;
                        return span > 2 * pad ? span - 2 * pad : 1;
                    };
                    const vx_size in_w = extent(out_w, wdw.kx, wdw.pad_x) +
                                         static_cast<vx_size>(ceil ? r.uniform(0, 1) : 0);
                    const vx_size in_h = extent(out_h, wdw.ky, wdw.pad_y);
                    const vx_size skip_x = smallest_skip(in_w, wdw.pad_x, wdw.kx, out_w, ceil);
                    const vx_size skip_y = smallest_skip(in_h, wdw.pad_y, wdw.ky, out_h, ceil);
                    if (skip_x == 0 || skip_y == 0) continue;  // no stride gives these sizes
                    const auto planes = static_cast<vx_size>(r.uniform(1, 5));
                    const std::vector<vx_size> in_dims{in_w, in_h, planes, 2},
                        out_dims{out_w, out_h, planes, 2};
                    // Mostly negative values (zero padding wins the max), full-range extremes
                    // (sums past int16), and small values (average ties).
                    raw_t xv(element_count(in_dims));
                    for (auto& v : xv) {
                        const std::int64_t pick = r.uniform(0, 9);
                        v = pick < 5   ? r.uniform(-32768, -1)
                            : pick < 7 ? (r.uniform(0, 1) ? 32767 : -32768)
                                       : r.uniform(-3, 3);
                    }
                    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
                    vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
                    write_tensor(in, xv);
                    vx_graph graph = vxCreateGraph(context);
                    vx_node node =
                        vxPoolingLayer(graph, in, type, wdw.kx, wdw.ky, wdw.pad_x, wdw.pad_y,
                                       ceil ? VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING
                                            : VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                                       out);
                    REQUIRE_MESSAGE(node != nullptr,
                                    (context.log().empty() ? std::string("no log")
                                                           : context.log().back().message));
                    const std::string what =
                        "pool " + std::to_string(type) + " " + std::to_string(wdw.kx) + "x" +
                        std::to_string(wdw.ky) + " pad " + std::to_string(wdw.pad_x) + "," +
                        std::to_string(wdw.pad_y) + " in " + std::to_string(in_w) + "x" +
                        std::to_string(in_h) + " out " + std::to_string(out_w) + "x" +
                        std::to_string(out_h) + " skip " + std::to_string(skip_x) + "," +
                        std::to_string(skip_y) + (ceil ? " ceil" : " floor");
                    const std::string kernel = check_row_paths(context, graph, out, what);
                    CHECK_MESSAGE(int16_kernel(kernel), what << ": " << kernel);
                    ++cases;
                    if (type == VX_CONVOLUTIONAL_NETWORK_POOLING_MAX && skip_x == 2) ++max_skip2;
                    vxReleaseNode(&node);
                    vxReleaseGraph(&graph);
                    vxReleaseTensor(&in);
                    vxReleaseTensor(&out);
                }
    CHECK(cases >= 7 * 2 * 2 * 2);
    CHECK(max_skip2 >= 8);
}
