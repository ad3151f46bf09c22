// test_kernel_paths.cpp: the SIMD kernels of the convolution and fully connected layers give
// the scalar kernels' results bit for bit (tolerance 0). Each case runs one graph with every
// kernel path the environment can select (TESSERA_OPENVX_KERNELS=scalar / int32, the CPU's best
// int16 table, TESSERA_OPENVX_ISA=avx2) over grids of kernel sizes, pads, strides, fixed-point
// positions, overflow and rounding policies, accumulator_bits, bias forms and batches, on random
// data that includes saturating products and sums, full-range inputs, out-of-domain weights and
// rounding ties. The kernel that ran is read from the node's log entry ("runs the ... kernel"),
// and the cases that are inside the int16 path's domain must have run it.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "conv_fc_support.hpp"
#include "kernel_path_support.hpp"

using namespace vx_test;

namespace {

/// Runs every path; checks each against the scalar kernels; returns the default path's kernel.
std::string check_paths(test_context& context, vx_graph graph, vx_tensor out,
                        const std::string& what) {
    const path_result scalar = run_path(context, graph, out, "scalar", nullptr);
    REQUIRE(scalar.kernel == "scalar");
    const path_result best = run_path(context, graph, out, nullptr, nullptr);
    check_equal(best.values, scalar.values, 0, what + " [" + best.kernel + "]");
    const path_result avx2 = run_path(context, graph, out, nullptr, "avx2");
    check_equal(avx2.values, scalar.values, 0, what + " [" + avx2.kernel + "]");
    const path_result int32 = run_path(context, graph, out, "int32", nullptr);
    CHECK(int32.kernel.find("int16") == std::string::npos);
    check_equal(int32.values, scalar.values, 0, what + " [" + int32.kernel + "]");
    return best.kernel;
}

/// An int16 convolution without bias: equal pads in x and y, saturating, output size rounded
/// down.
struct int16_conv {
    std::vector<vx_size> in_dims, w_dims, out_dims;
    int in_pos = 8, w_pos = 8, out_pos = 8;  // fixed-point positions
    vx_uint32 pad = 0;
    vx_uint8 accumulator_bits = 32;
    vx_enum rounding = VX_ROUND_POLICY_TO_NEAREST_EVEN;
};

/// Runs `c` on inputs `xv` and weights `wv` on every path (check_paths); returns the default
/// path's kernel.
std::string check_conv_paths(test_context& context, const int16_conv& c, const raw_t& xv,
                             const raw_t& wv, const std::string& what) {
    vx_tensor in = make_tensor(context, c.in_dims, VX_TYPE_INT16, static_cast<vx_uint8>(c.in_pos));
    vx_tensor w = make_tensor(context, c.w_dims, VX_TYPE_INT16, static_cast<vx_uint8>(c.w_pos));
    vx_tensor out =
        make_tensor(context, c.out_dims, VX_TYPE_INT16, static_cast<vx_uint8>(c.out_pos));
    write_tensor(in, xv);
    write_tensor(w, wv);
    vx_graph graph = vxCreateGraph(context);
    vx_node node = vxConvolutionLayer(graph, in, w, nullptr, c.pad, c.pad, c.accumulator_bits,
                                      VX_CONVERT_POLICY_SATURATE, c.rounding,
                                      VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    REQUIRE(node != nullptr);
    const std::string kernel = check_paths(context, graph, out, what);
    vxReleaseNode(&node);
    vxReleaseGraph(&graph);
    vxReleaseTensor(&in);
    vxReleaseTensor(&w);
    vxReleaseTensor(&out);
    return kernel;
}

/// Data regimes of the grids.
enum class data_kind {
    in_domain,         // |w| < 1.0 (Q7.8), moderate inputs: the int16 path runs
    full_range_input,  // inputs anywhere in int16, |w| < 1.0: products and sums saturate
    large_weights,     // weights anywhere in int16: outside the int16 path's domain
    ties,              // many products exactly halfway between two results
    mixed_ties         // odd * 2^a inputs and odd * 2^b weights: ties of every tie class
};

/// odd * 2^e with |odd * 2^e| <= limit (odd drawn in [-odd_max, odd_max]); 0 one time in 16.
std::int64_t odd_times_power(rng& r, int e, std::int64_t odd_max, std::int64_t limit) {
    if (r.uniform(0, 15) == 0) return 0;
    const std::int64_t most = std::min(odd_max, limit >> e);
    if (most < 1) return 0;
    const std::int64_t odd = 2 * r.uniform(0, (most - 1) / 2) + 1;
    return (r.uniform(0, 1) ? odd : -odd) * (std::int64_t{1} << e);
}

/// Inputs odd * 2^a (a in 0..shift) and weights odd * 2^b (|w| < 2^shift): the products of
/// a + b == shift - 1 are halfway cases, the others land on every side of them.
void fill_mixed_ties(rng& r, int shift, raw_t& x, raw_t& w) {
    for (auto& v : x) v = odd_times_power(r, static_cast<int>(r.uniform(0, shift)), 15, 32767);
    const std::int64_t w_limit = (std::int64_t{1} << shift) - 1;
    for (auto& v : w)
        v = odd_times_power(r, static_cast<int>(r.uniform(0, shift - 1)), w_limit, w_limit);
}

void fill_data(rng& r, data_kind kind, raw_t& x, raw_t& w) {
    if (kind == data_kind::mixed_ties) {
        fill_mixed_ties(r, 8, x, w);
        return;
    }
    for (auto& v : x) {
        switch (kind) {
            case data_kind::in_domain:
                v = r.uniform(-3000, 3000);
                break;
            case data_kind::ties:
                v = 128 + 256 * r.uniform(-100, 100);
                break;
            default:
                v = r.uniform(-32768, 32767);
        }
    }
    for (auto& v : w) {
        switch (kind) {
            case data_kind::large_weights:
                v = r.uniform(-32768, 32767);
                break;
            case data_kind::ties:
                v = 2 * r.uniform(-3, 3) + 1;
                break;
            default:
                v = r.uniform(-255, 255);
        }
    }
}

struct conv_case {
    vx_size kx, ky, pad_x, pad_y;
};

/// One convolution case; returns the default path's kernel.
std::string conv_case_run(test_context& context, rng& r, const conv_case& k, vx_size out_w,
                          vx_size out_h, vx_size want_skip_x, vx_size want_skip_y, bool ceil,
                          vx_size ifm, vx_size ofm, vx_size batch, int bias_form, vx_enum overflow,
                          vx_enum rounding, vx_uint8 accumulator_bits, data_kind kind,
                          const std::string& what) {
    const auto input_extent = [&](vx_size out, vx_size skip, vx_size kernel, vx_size pad) {
        const vx_size span = (out - 1) * skip + kernel;
        return span > 2 * pad ? span - 2 * pad : 1;
    };
    const vx_size in_w = input_extent(out_w, want_skip_x, k.kx, k.pad_x);
    const vx_size in_h = input_extent(out_h, want_skip_y, k.ky, k.pad_y);
    // The sizes the spec's relation gives for these inputs at the smallest stride.
    const vx_size skip_x = smallest_skip(in_w, k.pad_x, k.kx, out_w, ceil);
    const vx_size skip_y = smallest_skip(in_h, k.pad_y, k.ky, out_h, ceil);
    REQUIRE(skip_x > 0);
    REQUIRE(skip_y > 0);
    std::vector<vx_size> in_dims{in_w, in_h, ifm}, out_dims{out_w, out_h, ofm};
    if (batch > 1) {
        in_dims.push_back(batch);
        out_dims.push_back(batch);
    }
    const std::vector<vx_size> w_dims{k.kx, k.ky, ifm, ofm};
    std::vector<vx_size> b_dims;
    if (bias_form == 1) b_dims = {ofm};
    if (bias_form == 2) b_dims = {out_w, out_h, ofm};
    raw_t xv(element_count(in_dims)), wv(element_count(w_dims));
    fill_data(r, kind, xv, wv);
    const raw_t bv = random_raw(element_count(b_dims), r.next(), -32768, 32767);
    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
    vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor b = bias_form ? make_tensor(context, b_dims, VX_TYPE_INT16, 8) : nullptr;
    vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(w, wv);
    if (b) write_tensor(b, bv);
    vx_graph graph = vxCreateGraph(context);
    vx_node node =
        vxConvolutionLayer(graph, in, w, b, static_cast<vx_uint32>(k.pad_x),
                           static_cast<vx_uint32>(k.pad_y), accumulator_bits, overflow, rounding,
                           ceil ? VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING
                                : VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR,
                           out);
    REQUIRE_MESSAGE(node != nullptr,
                    (context.log().empty() ? std::string("no log") : context.log().back().message));
    const std::string kernel = check_paths(
        context, graph, out,
        what + " conv " + std::to_string(k.kx) + "x" + std::to_string(k.ky) + " pad " +
            std::to_string(k.pad_x) + "," + std::to_string(k.pad_y) + " in " +
            std::to_string(in_w) + "x" + std::to_string(in_h) + "x" + std::to_string(ifm) +
            " out " + std::to_string(out_w) + "x" + std::to_string(out_h) + "x" +
            std::to_string(ofm) + " skip " + std::to_string(skip_x) + "," + std::to_string(skip_y) +
            " batch " + std::to_string(batch) + " bias " + std::to_string(bias_form) + " acc " +
            std::to_string(accumulator_bits));
    vxReleaseNode(&node);
    vxReleaseGraph(&graph);
    vxReleaseTensor(&in);
    vxReleaseTensor(&w);
    if (b) vxReleaseTensor(&b);
    vxReleaseTensor(&out);
    return kernel;
}

}  // namespace

TEST_CASE("kernel paths: convolution grid, every path bit-identical to the scalar kernel") {
    test_context context;
    rng r(2201);
    const conv_case kernels[] = {{3, 3, 1, 1}, {1, 1, 0, 0}, {5, 5, 2, 2}, {3, 4, 1, 2},
                                 {2, 2, 0, 0}, {7, 7, 3, 3}, {3, 3, 0, 0}};
    int cases = 0, int16_cases = 0;
    for (const conv_case& k : kernels)
        for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
            for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN})
                for (data_kind kind : {data_kind::in_domain, data_kind::full_range_input,
                                       data_kind::large_weights, data_kind::ties}) {
                    const auto out_w = static_cast<vx_size>(r.uniform(1, 70));
                    const auto out_h = static_cast<vx_size>(r.uniform(1, 6));
                    const auto ifm = static_cast<vx_size>(r.uniform(1, 9));
                    const auto ofm = static_cast<vx_size>(r.uniform(1, 9));
                    const auto batch = static_cast<vx_size>(r.uniform(1, 2));
                    const auto skip_y = static_cast<vx_size>(r.uniform(1, 3));
                    const bool ceil = r.uniform(0, 1) == 1;
                    const int bias_form = static_cast<int>(r.uniform(0, 2));
                    const vx_uint8 accumulator_bits =
                        std::vector<vx_uint8>{0, 32, 24, 16, 40}[r.uniform(0, 4)];
                    const std::string kernel =
                        conv_case_run(context, r, k, out_w, out_h, 1, skip_y, ceil, ifm, ofm, batch,
                                      bias_form, overflow, rounding, accumulator_bits, kind,
                                      "case " + std::to_string(cases));
                    ++cases;
                    // Inside the domain (either rounding) the int16 kernel must be the one that
                    // ran.
                    if (kind == data_kind::in_domain &&
                        (accumulator_bits == 0 || accumulator_bits >= 32 ||
                         overflow == VX_CONVERT_POLICY_WRAP)) {
                        CHECK_MESSAGE(int16_kernel(kernel), "case " << cases << ": " << kernel);
                    }
                    if (kind == data_kind::large_weights) CHECK(!int16_kernel(kernel));
                    if (int16_kernel(kernel)) ++int16_cases;
                }
    CHECK(cases == 7 * 2 * 2 * 4);
    CHECK(int16_cases >= 7 * 2 * 2 * 2);
}

TEST_CASE("kernel paths: convolution with horizontal stride, many channels and wide rows") {
    // Horizontal skips 2 and 3 run the int16 kernels on phase-split rows (both roundings).
    test_context context;
    rng r(2202);
    int int16_cases = 0;
    for (int i = 0; i < 18; ++i) {
        const conv_case k = i % 2 ? conv_case{3, 3, 1, 1} : conv_case{4, 5, 2, 1};
        const vx_size skip_x = vx_size{1} + static_cast<vx_size>(i % 3);
        const auto ifm = static_cast<vx_size>(r.uniform(10, 40));
        const auto ofm = static_cast<vx_size>(r.uniform(5, 19));
        const auto out_w = static_cast<vx_size>(r.uniform(60, 140));
        const std::string kernel =
            conv_case_run(context, r, k, out_w, 3, skip_x, 1 + static_cast<vx_size>(i % 4 == 1),
                          i % 5 == 4, ifm, ofm, 1 + static_cast<vx_size>(i % 7 == 3), i % 3,
                          i % 2 ? VX_CONVERT_POLICY_SATURATE : VX_CONVERT_POLICY_WRAP,
                          i % 4 < 2 ? VX_ROUND_POLICY_TO_NEAREST_EVEN : VX_ROUND_POLICY_TO_ZERO, 32,
                          i % 4 == 3 ? data_kind::full_range_input : data_kind::mixed_ties,
                          "wide " + std::to_string(i));
        if (int16_kernel(kernel)) ++int16_cases;
        CHECK_MESSAGE(int16_kernel(kernel), "wide " << i << ": " << kernel);
    }
    CHECK(int16_cases == 18);
}

TEST_CASE("kernel paths: convolution tie counting at its edges (taps, tails, blocks, skips)") {
    // The AVX-512 kernel counts ties per 64 columns, 8 output channels and up to 1008 taps at a
    // time: shapes around each of those sizes, tie-heavy data of every tie class, both overflow
    // policies (sums leave int16), each bias form; every path against the scalar kernel.
    test_context context;
    rng r(2205);
    struct shape {
        vx_size ifm, k, pad, out_w, out_h, skip_y, ofm;
    };
    const shape shapes[] = {
        {130, 3, 1, 65, 2, 1, 9},  // 1170 taps: two counts, offsets on the heap; tail columns
        {17, 3, 0, 64, 3, 2, 8},   // 153 taps: Harley-Seal groups and single taps; rows apart
        {1, 1, 0, 1, 1, 1, 1},     // one tap, one column, one channel of a block of 8
        {5, 5, 2, 63, 4, 1, 16},   // two whole blocks
        {2, 2, 0, 129, 2, 3, 3},   // three 64-column counts per row, the last of one column
        {112, 3, 1, 7, 5, 1, 12},  // 1008 taps exactly; rows shorter than a count
    };
    int cases = 0;
    for (const shape& s : shapes)
        for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
            // Wrap: mixed classes; saturate: half of all products ties (counts past 512).
            const data_kind kind =
                overflow == VX_CONVERT_POLICY_WRAP ? data_kind::mixed_ties : data_kind::ties;
            const conv_case k{s.k, s.k, s.pad, s.pad};
            const std::string kernel =
                conv_case_run(context, r, k, s.out_w, s.out_h, 1, s.skip_y, false, s.ifm, s.ofm, 1,
                              cases % 3, overflow, VX_ROUND_POLICY_TO_NEAREST_EVEN, 32, kind,
                              "tie edges " + std::to_string(cases));
            CHECK_MESSAGE(int16_kernel(kernel), "tie edges " << cases << ": " << kernel);
            ++cases;
        }
    CHECK(cases == 12);
}

TEST_CASE("kernel paths: convolution ties of every class at shifts 1..15") {
    // Each shift has its own tie classes (shift <= 8: counted by class; above: tie keys).
    test_context context;
    rng r(2206);
    for (int shift = 1; shift <= 15; ++shift) {
        int16_conv c{{70, 4, 20}, {3, 3, 20, 10}, {70, 4, 10}};
        c.in_pos = shift <= 8 ? shift : 8;
        c.w_pos = shift <= 8 ? 8 : shift;
        c.pad = 1;
        raw_t xv(element_count(c.in_dims)), wv(element_count(c.w_dims));
        fill_mixed_ties(r, shift, xv, wv);
        const std::string kernel =
            check_conv_paths(context, c, xv, wv, "ties at shift " + std::to_string(shift));
        CHECK_MESSAGE(int16_kernel(kernel), "shift " << shift << ": " << kernel);
    }
}

TEST_CASE("kernel paths: convolution over every int16 input, every tie class at shifts 1..8") {
    // A 1x1 convolution of the 65536 int16 values (one plane of 256 x 256) with weights
    // +-odd * 2^b for every b < shift and odd in {1, 3, 5, 7}: each input's tie class (from its
    // lowest set bit and the bit above it, 0 and -32768 included) meets every weight class.
    test_context context;
    for (int shift = 1; shift <= 8; ++shift) {
        raw_t weights;
        for (int b = 0; b < shift; ++b)
            for (const std::int64_t odd : {1, 3, 5, 7})
                if ((odd << b) < (std::int64_t{1} << shift)) {
                    weights.push_back(odd << b);
                    weights.push_back(-(odd << b));
                }
        const vx_size ofm = weights.size();
        raw_t xv(65536);
        for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<std::int64_t>(i) - 32768;
        int16_conv c{{256, 256, 1}, {1, 1, 1, ofm}, {256, 256, ofm}};
        c.in_pos = shift;
        const std::string kernel = check_conv_paths(
            context, c, xv, weights, "every input at shift " + std::to_string(shift));
        CHECK_MESSAGE(int16_kernel(kernel), "shift " << shift << ": " << kernel);
    }
}

TEST_CASE("kernel paths: the largest input anywhere in a row bounds the int16 sums") {
    // Small inputs except for one stretch of columns (past the first 32, away from the row's
    // ends) with near-full-range values: the bound on a rounded product, and so how many
    // products an int16 lane may sum, must come from those.
    test_context context;
    rng r(2207);
    for (vx_size first_large : {vx_size{0}, vx_size{33}, vx_size{40}, vx_size{64}}) {
        int16_conv c{{70, 3, 64}, {3, 3, 64, 8}, {70, 3, 8}};
        c.pad = 1;
        raw_t xv(element_count(c.in_dims)), wv(element_count(c.w_dims));
        for (std::size_t i = 0; i < xv.size(); ++i) {
            const vx_size col = i % 70;
            const bool large = col >= first_large && col < first_large + 6;
            xv[i] = large ? r.uniform(29000, 32767) * (r.uniform(0, 1) ? 1 : -1) : r.uniform(-2, 2);
        }
        for (auto& v : wv) v = r.uniform(150, 255);
        // Saturate (check_conv_paths does): int16 lanes that wrapped would agree with the exact
        // sums modulo 2^16.
        const std::string kernel = check_conv_paths(
            context, c, xv, wv, "large from column " + std::to_string(first_large));
        CHECK_MESSAGE(int16_kernel(kernel), "column " << first_large << ": " << kernel);
    }
}

TEST_CASE("kernel paths: fixed-point positions other than Q7.8") {
    test_context context;
    rng r(2203);
    // (input, weights, output) positions: shift = in + w - out; 0 and 16 are outside the int16
    // path, 1..15 inside when |w| < 2^shift.
    const int positions[][3] = {{8, 8, 8}, {4, 10, 6}, {0, 15, 0},  {8, 0, 7},
                                {2, 2, 4}, {8, 8, 0},  {12, 12, 8}, {0, 1, 0}};
    for (const auto& pos : positions) {
        for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
            const int shift = pos[0] + pos[1] - pos[2];
            int16_conv c{{20, 5, 6}, {3, 3, 6, 5}, {18, 3, 5}, pos[0], pos[1], pos[2]};
            c.accumulator_bits = 0;
            c.rounding = rounding;
            raw_t xv(element_count(c.in_dims)), wv(element_count(c.w_dims));
            for (auto& v : xv) v = r.uniform(-32768, 32767);
            const std::int64_t w_limit =
                shift >= 1 && shift <= 15 ? (std::int64_t{1} << shift) - 1 : 32767;
            for (auto& v : wv) v = r.uniform(-w_limit, w_limit);
            const std::string kernel =
                check_conv_paths(context, c, xv, wv,
                                 "positions " + std::to_string(pos[0]) + "," +
                                     std::to_string(pos[1]) + "," + std::to_string(pos[2]));
            if (shift >= 1 && shift <= 15) {
                CHECK_MESSAGE(int16_kernel(kernel), "shift " << shift << ": " << kernel);
            }
            if (shift < 1 || shift > 15) CHECK(!int16_kernel(kernel));
        }
    }
}

TEST_CASE("kernel paths: fully connected grid, every path bit-identical to the scalar kernel") {
    test_context context;
    rng r(2204);
    int cases = 0, int16_cases = 0;
    // (core dims, weight dims, batch dims) as in the conformance grid, plus long inner sizes.
    const int shapes[][3] = {{1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {3, 2, 0},
                             {3, 2, 1}, {3, 4, 0}, {3, 4, 1}, {1, 2, 0}};
    for (const auto& shape : shapes)
        for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
            for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN})
                for (data_kind kind : {data_kind::in_domain, data_kind::full_range_input,
                                       data_kind::large_weights, data_kind::ties}) {
                    const bool long_inner = &shape == &shapes[7];
                    std::vector<vx_size> core;
                    if (shape[0] == 1) {
                        core = {static_cast<vx_size>(long_inner ? r.uniform(300, 2100)
                                                                : r.uniform(1, 70))};
                    } else {
                        core = {static_cast<vx_size>(r.uniform(1, 6)),
                                static_cast<vx_size>(r.uniform(1, 6)),
                                static_cast<vx_size>(r.uniform(1, 6))};
                    }
                    const vx_size inner = element_count(core);
                    const auto ofm = static_cast<vx_size>(r.uniform(1, 80));
                    std::vector<vx_size> batch;
                    for (int b = 0; b < shape[2]; ++b)
                        batch.push_back(static_cast<vx_size>(r.uniform(1, 3)));
                    std::vector<vx_size> in_dims = core, out_dims{ofm};
                    in_dims.insert(in_dims.end(), batch.begin(), batch.end());
                    out_dims.insert(out_dims.end(), batch.begin(), batch.end());
                    std::vector<vx_size> w_dims =
                        shape[1] == 2 ? std::vector<vx_size>{inner, ofm} : core;
                    if (shape[1] == 4) w_dims.push_back(ofm);
                    raw_t xv(element_count(in_dims)), wv(element_count(w_dims));
                    fill_data(r, kind, xv, wv);
                    const bool with_bias = r.uniform(0, 1) == 1;
                    const raw_t bv = random_raw(ofm, r.next(), -32768, 32767);
                    const vx_uint8 accumulator_bits =
                        std::vector<vx_uint8>{0, 32, 24, 16}[r.uniform(0, 3)];
                    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
                    vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
                    vx_tensor b =
                        with_bias ? make_tensor(context, {ofm}, VX_TYPE_INT16, 8) : nullptr;
                    vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
                    write_tensor(in, xv);
                    write_tensor(w, wv);
                    if (b) write_tensor(b, bv);
                    vx_graph graph = vxCreateGraph(context);
                    vx_node node = vxFullyConnectedLayer(
                        graph, in, w, b, 0, accumulator_bits, overflow, rounding,
                        VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
                    REQUIRE_MESSAGE(node != nullptr,
                                    (context.log().empty() ? std::string("no log")
                                                           : context.log().back().message));
                    const std::string kernel =
                        check_paths(context, graph, out,
                                    "fc case " + std::to_string(cases) + " inner " +
                                        std::to_string(inner) + " ofm " + std::to_string(ofm) +
                                        " acc " + std::to_string(accumulator_bits));
                    if (kind == data_kind::in_domain &&
                        (accumulator_bits == 0 || accumulator_bits == 32 ||
                         overflow == VX_CONVERT_POLICY_WRAP)) {
                        CHECK_MESSAGE(int16_kernel(kernel), "fc case " << cases << ": " << kernel);
                    }
                    if (kind == data_kind::large_weights) CHECK(!int16_kernel(kernel));
                    // Outside the int16 domain the int32-lane kernel runs where its sums are
                    // exact.
                    if (kind == data_kind::large_weights &&
                        (accumulator_bits == 0 || accumulator_bits == 32 ||
                         overflow == VX_CONVERT_POLICY_WRAP)) {
                        CHECK_MESSAGE(kernel == "int32 SIMD",
                                      "fc case " << cases << ": " << kernel);
                    }
                    if (int16_kernel(kernel)) ++int16_cases;
                    ++cases;
                    vxReleaseNode(&node);
                    vxReleaseGraph(&graph);
                    vxReleaseTensor(&in);
                    vxReleaseTensor(&w);
                    if (b) vxReleaseTensor(&b);
                    vxReleaseTensor(&out);
                }
    CHECK(cases == 8 * 2 * 2 * 4);
    CHECK(int16_cases >= 8 * 2 * 2 * 2);
}

TEST_CASE("kernel paths: weights changed between runs are packed again") {
    test_context context;
    rng r(2205);
    const std::vector<vx_size> in_dims{9, 4, 3}, w_dims{3, 3, 3, 2}, out_dims{7, 2, 2};
    raw_t xv(element_count(in_dims)), wv(element_count(w_dims));
    fill_data(r, data_kind::in_domain, xv, wv);
    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
    vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(w, wv);
    vx_graph graph = vxCreateGraph(context);
    vx_node node = vxConvolutionLayer(graph, in, w, nullptr, 0, 0, 0, VX_CONVERT_POLICY_SATURATE,
                                      VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                      VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    REQUIRE(node != nullptr);
    REQUIRE(int16_kernel(check_paths(context, graph, out, "first weights")));
    const raw_t first = run_path(context, graph, out, nullptr, nullptr).values;
    // New weights in the domain: the int16 kernel must use them, not the packed old ones.
    for (auto& v : wv) v = r.uniform(-255, 255);
    write_tensor(w, wv);
    const raw_t second = run_path(context, graph, out, nullptr, nullptr).values;
    CHECK(second != first);
    CHECK(int16_kernel(check_paths(context, graph, out, "second weights")));
    // Weights outside the domain: the int16 kernel must decline.
    wv[5] = 20000;
    write_tensor(w, wv);
    CHECK(!int16_kernel(check_paths(context, graph, out, "large weight")));
    vxReleaseNode(&node);
    vxReleaseGraph(&graph);
    vxReleaseTensor(&in);
    vxReleaseTensor(&w);
    vxReleaseTensor(&out);
}

TEST_CASE("kernel paths: weights written by a node of the graph are packed on every run") {
    test_context context;
    rng r(2206);
    const std::vector<vx_size> in_dims{40}, w_dims{40, 10}, out_dims{10};
    raw_t xv(40), wa(400), wb(400);
    fill_data(r, data_kind::in_domain, xv, wa);
    for (auto& v : wb) v = r.uniform(-100, 100);
    for (auto& v : wa) v = v / 2;
    vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
    vx_tensor w_a = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor w_b = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(w_a, wa);
    write_tensor(w_b, wb);
    vx_graph graph = vxCreateGraph(context);
    vx_node add = vxTensorAddNode(graph, w_a, w_b, VX_CONVERT_POLICY_SATURATE, w);
    vx_node fc = vxFullyConnectedLayer(graph, in, w, nullptr, 0, 0, VX_CONVERT_POLICY_SATURATE,
                                       VX_ROUND_POLICY_TO_NEAREST_EVEN,
                                       VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
    REQUIRE(add != nullptr);
    REQUIRE(fc != nullptr);
    CHECK(int16_kernel(check_paths(context, graph, out, "weights from a node")));
    for (auto& v : wb) v = -v;
    write_tensor(w_b, wb);
    CHECK(int16_kernel(check_paths(context, graph, out, "weights from a node, changed")));
    vxReleaseNode(&add);
    vxReleaseNode(&fc);
    vxReleaseGraph(&graph);
    for (vx_tensor* t : {&in, &w_a, &w_b, &w, &out}) vxReleaseTensor(t);
}

TEST_CASE("kernel paths: every int16 input times the corner weights, both roundings") {
    // One product per output (a fully connected layer of inner size 1 over a batch of every
    // int16 value), weights at the corners of the int16 path's domain (0, +-1, +-2^(shift-1),
    // +-(2^shift - 1), odd multiples of powers of two): every rounding tie, every sign and the
    // largest products, each rounded by the int16 kernel and by the scalar kernel.
    test_context context;
    for (const int shift : {8, 1, 15}) {
        const int in_pos = shift <= 8 ? shift : 8, w_pos = shift <= 8 ? 8 : shift;
        const std::int64_t top = (std::int64_t{1} << shift) - 1;
        raw_t weights;
        for (const std::int64_t v : {std::int64_t{0}, std::int64_t{1}, top, (top + 1) / 2,
                                     std::int64_t{3}, std::int64_t{6}, std::int64_t{12}})
            if (v <= top && (v != 0 || weights.empty())) {
                weights.push_back(v);
                if (v != 0) weights.push_back(-v);
            }
        for (std::int64_t odd = 5; odd <= top; odd = odd * 3 + 2)
            weights.push_back(odd % 4 == 1 ? -odd : odd);
        const vx_size ofm = weights.size();
        raw_t xv(65536);
        for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<std::int64_t>(i) - 32768;
        vx_tensor in =
            make_tensor(context, {1, 65536}, VX_TYPE_INT16, static_cast<vx_uint8>(in_pos));
        vx_tensor w = make_tensor(context, {1, ofm}, VX_TYPE_INT16, static_cast<vx_uint8>(w_pos));
        vx_tensor out = make_tensor(context, {ofm, 65536}, VX_TYPE_INT16, 8);
        write_tensor(in, xv);
        write_tensor(w, weights);
        for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
            vx_graph graph = vxCreateGraph(context);
            vx_node node = vxFullyConnectedLayer(
                graph, in, w, nullptr, 0, 32, VX_CONVERT_POLICY_WRAP, rounding,
                VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
            REQUIRE(node != nullptr);
            const std::string kernel = check_paths(
                context, graph, out,
                "corners shift " + std::to_string(shift) + " rounding " + std::to_string(rounding));
            CHECK_MESSAGE(int16_kernel(kernel), "shift " << shift << ": " << kernel);
            vxReleaseNode(&node);
            vxReleaseGraph(&graph);
        }
        vxReleaseTensor(&in);
        vxReleaseTensor(&w);
        vxReleaseTensor(&out);
    }
}

TEST_CASE(
    "kernel paths: weights past the int16 domain with horizontal skips run the int32 kernel") {
    // |w| >= 2^shift: rounded products leave int16 and each is narrowed with the overflow
    // policy, which the int32-lane kernel does exactly, also on phase-split rows.
    test_context context;
    rng r(2208);
    int cases = 0;
    for (const vx_size skip_x : {vx_size{1}, vx_size{2}, vx_size{3}})
        for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
            for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
                const conv_case k = cases % 2 ? conv_case{3, 3, 1, 1} : conv_case{5, 2, 2, 0};
                const auto out_w = static_cast<vx_size>(r.uniform(1, 40));
                const std::string kernel = conv_case_run(
                    context, r, k, out_w, 3, skip_x, 1 + static_cast<vx_size>(cases % 3 == 1),
                    cases % 4 == 3, static_cast<vx_size>(r.uniform(1, 6)),
                    static_cast<vx_size>(r.uniform(1, 5)), 1, cases % 3, overflow, rounding, 32,
                    data_kind::large_weights, "large weights " + std::to_string(cases));
                CHECK_MESSAGE(kernel == "int32 SIMD", "large weights " << cases << ": " << kernel);
                ++cases;
            }
    CHECK(cases == 12);
}

TEST_CASE("kernel paths: narrow accumulators that overflow, wrapping and saturating") {
    // Wrapping narrows modulo 2^bits after every addition and modulo 2^16 at the end, so the
    // output is the sum modulo 2^16 for every accumulator width: the SIMD kernels run (int16
    // inside the weights' domain, int32 lanes outside it). Saturating at a narrow accumulator
    // depends on the order of the additions: the scalar kernel runs where the sums can leave it.
    test_context context;
    rng r(2209);
    int cases = 0;
    for (const vx_uint8 bits :
         {vx_uint8{16}, vx_uint8{17}, vx_uint8{24}, vx_uint8{31}, vx_uint8{40}})
        for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
            for (const data_kind kind : {data_kind::full_range_input, data_kind::large_weights}) {
                const conv_case k{3, 3, 1, 1};
                const std::string kernel = conv_case_run(
                    context, r, k, static_cast<vx_size>(r.uniform(20, 70)), 3, 1, 1, false,
                    static_cast<vx_size>(r.uniform(20, 40)), static_cast<vx_size>(r.uniform(1, 9)),
                    1, cases % 3, overflow,
                    cases % 4 < 2 ? VX_ROUND_POLICY_TO_NEAREST_EVEN : VX_ROUND_POLICY_TO_ZERO, bits,
                    kind, "narrow accumulator " + std::to_string(cases));
                // Saturating: SIMD only where the sums provably stay inside the accumulator,
                // which 16 bits never are for these data (any kernel for wider ones).
                std::string want;
                if (overflow == VX_CONVERT_POLICY_WRAP) {
                    want = kind == data_kind::large_weights ? "int32 SIMD" : "int16";
                } else if (bits == 16) {
                    want = "scalar";
                }
                CHECK_MESSAGE(kernel.find(want) == 0,
                              "narrow accumulator " << cases << ": " << kernel);
                ++cases;
            }
    CHECK(cases == 20);
}

TEST_CASE("kernel paths: wrapping sums past the int32 range keep their value modulo 2^16") {
    // 70000 products of up to 32767 * 255 / 256 each: the exact sums leave int32, the scalar
    // kernel's 64-bit accumulator keeps them; the SIMD sums wrap modulo 2^32, which keeps the
    // output (the sum modulo 2^16).
    test_context context;
    rng r(2210);
    const vx_size inner = 70000, ofm = 3;
    raw_t xv(inner), wv(inner * ofm);
    for (auto& v : xv) v = r.uniform(32000, 32767);
    for (auto& v : wv) v = r.uniform(250, 255);
    vx_tensor in = make_tensor(context, {inner}, VX_TYPE_INT16, 8);
    vx_tensor w = make_tensor(context, {inner, ofm}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {ofm}, VX_TYPE_INT16, 8);
    write_tensor(in, xv);
    write_tensor(w, wv);
    for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
        vx_graph graph = vxCreateGraph(context);
        vx_node node =
            vxFullyConnectedLayer(graph, in, w, nullptr, 0, 0, VX_CONVERT_POLICY_WRAP, rounding,
                                  VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
        REQUIRE(node != nullptr);
        const std::string kernel = check_paths(context, graph, out, "sums past int32");
        CHECK_MESSAGE(int16_kernel(kernel), kernel);
        vxReleaseNode(&node);
        vxReleaseGraph(&graph);
    }
    vxReleaseTensor(&in);
    vxReleaseTensor(&w);
    vxReleaseTensor(&out);
}
