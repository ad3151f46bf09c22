// test_pooling.cpp: vxPoolingLayer: the conformance grid (max 3x3 pad 0 floor; {max, avg} x
// {floor, ceil} x 3x4 pad (1, 2), batch 0/1). Unpadded max and every average agree with Tessera's
// reference pooling (average including padding; tolerance 0); padded max follows the spec's zero
// padding (the reference skips padding), checked against an oracle written here.
#include <algorithm>

#include "conv_fc_support.hpp"
#include "tessera/reference/pooling.hpp"

using namespace vx_test;

namespace {

/// Max over the zero-padded window, written from the spec: padding counts as 0.
raw_t padded_max_oracle(const raw_t& x, vx_size w, vx_size h, vx_size planes, vx_size kx,
                        vx_size ky, vx_size px, vx_size py, const window_dim& dx,
                        const window_dim& dy) {
    raw_t out;
    for (vx_size p = 0; p < planes; ++p)
        for (vx_size oy = 0; oy < dy.out; ++oy)
            for (vx_size ox = 0; ox < dx.out; ++ox) {
                std::int64_t best = INT64_MIN;
                for (vx_size j = 0; j < ky; ++j)
                    for (vx_size i = 0; i < kx; ++i) {
                        const auto y = static_cast<std::int64_t>(oy * dy.skip + j) -
                                       static_cast<std::int64_t>(py);
                        const auto xx = static_cast<std::int64_t>(ox * dx.skip + i) -
                                        static_cast<std::int64_t>(px);
                        if (y >= static_cast<std::int64_t>(h + py) ||
                            xx >= static_cast<std::int64_t>(w + px))
                            continue;
                        const bool inside = y >= 0 && xx >= 0 && y < static_cast<std::int64_t>(h) &&
                                            xx < static_cast<std::int64_t>(w);
                        best = std::max(best, inside ? x[(p * h + static_cast<vx_size>(y)) * w +
                                                         static_cast<vx_size>(xx)]
                                                     : 0);
                    }
                out.push_back(best);
            }
    return out;
}

void run_pool(vx_enum pool_type, vx_size kx, vx_size ky, vx_size px, vx_size py, bool ceil,
              bool batched, std::uint64_t seed) {
    test_context context;
    rng r(seed);
    for (int repeat = 0; repeat < 4; ++repeat) {
        const auto agree = [&](vx_size pad) {
            return [&, pad](const window_dim& d) {
                return !ceil || (d.out - 1) * d.skip < d.in + pad;
            };
        };
        const window_dim dx = draw_window(r, kx, px, ceil, agree(px));
        const window_dim dy = draw_window(r, ky, py, ceil, agree(py));
        const auto c = static_cast<vx_size>(r.uniform(1, 5));
        const vx_size n = batched ? static_cast<vx_size>(r.uniform(2, 3)) : 1;
        std::vector<vx_size> in_dims{dx.in, dy.in, c}, out_dims{dx.out, dy.out, c};
        if (batched) {
            in_dims.push_back(n);
            out_dims.push_back(n);
        }
        const raw_t xv = random_raw(element_count(in_dims), r.next(), -32768, 32767);
        vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
        vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
        write_tensor(in, xv);
        const vx_enum rounding = ceil ? VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING
                                      : VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR;
        const raw_t got = run_single(context, out, [&](vx_graph g) {
            return vxPoolingLayer(g, in, pool_type, static_cast<vx_uint32>(kx),
                                  static_cast<vx_uint32>(ky), static_cast<vx_uint32>(px),
                                  static_cast<vx_uint32>(py), rounding, out);
        });
        const bool is_max = pool_type == VX_CONVOLUTIONAL_NETWORK_POOLING_MAX;
        raw_t expected;
        if (is_max && (px || py)) {
            expected = padded_max_oracle(xv, dx.in, dy.in, c * n, kx, ky, px, py, dx, dy);
        } else {
            std::vector<vx_size> ref_dims = in_dims;
            if (!batched) ref_dims.push_back(1);
            auto op = tessera::op::pooling(is_max ? TSR_POOL_MAX : TSR_POOL_AVERAGE_INCLUDE_PADDING)
                          .kernel(static_cast<int>(ky), static_cast<int>(kx))
                          .stride(static_cast<int>(dy.skip), static_cast<int>(dx.skip))
                          .padding(static_cast<int>(py), static_cast<int>(py), static_cast<int>(px),
                                   static_cast<int>(px))
                          .rounding_mode(ceil ? TSR_OUTPUT_CEIL : TSR_OUTPUT_FLOOR);
            expected = raw_of(op_test::run1(op, {to_reference(ref_dims, xv, VX_TYPE_INT16, 8)}));
        }
        check_equal(got, expected, 0, "pooling repeat " + std::to_string(repeat));
        vxReleaseTensor(&in);
        vxReleaseTensor(&out);
    }
}

constexpr vx_enum max_pool = VX_CONVOLUTIONAL_NETWORK_POOLING_MAX;
constexpr vx_enum avg_pool = VX_CONVOLUTIONAL_NETWORK_POOLING_AVG;

}  // namespace

TEST_CASE("pooling: max 3x3 pad 0 floor (AlexNet)") {
    run_pool(max_pool, 3, 3, 0, 0, false, false, 21);
    run_pool(max_pool, 3, 3, 0, 0, false, true, 22);
}
TEST_CASE("pooling: max 3x4 pad (1, 2) floor") {
    run_pool(max_pool, 3, 4, 1, 2, false, false, 23);
    run_pool(max_pool, 3, 4, 1, 2, false, true, 24);
}
TEST_CASE("pooling: max 3x4 pad (1, 2) ceil") {
    run_pool(max_pool, 3, 4, 1, 2, true, false, 25);
    run_pool(max_pool, 3, 4, 1, 2, true, true, 26);
}
TEST_CASE("pooling: avg 3x4 pad (1, 2) floor") {
    run_pool(avg_pool, 3, 4, 1, 2, false, false, 27);
    run_pool(avg_pool, 3, 4, 1, 2, false, true, 28);
}
TEST_CASE("pooling: avg 3x4 pad (1, 2) ceil") {
    run_pool(avg_pool, 3, 4, 1, 2, true, false, 29);
    run_pool(avg_pool, 3, 4, 1, 2, true, true, 30);
}
TEST_CASE("pooling: max and avg 2x2 pad 0 on hand-computed values") {
    test_context context;
    vx_tensor in = make_tensor(context, {4, 2, 1}, VX_TYPE_INT16, 8);
    vx_tensor out = make_tensor(context, {2, 1, 1}, VX_TYPE_INT16, 8);
    // Windows {1, 2, 5, 6} and {3, -4, 7, -9}: avg 3.5 -> 4 (ties to even), -3/4 -> -1.
    write_tensor(in, {1, 2, 3, -4, 5, 6, 7, -9});
    CHECK(run_single(context, out, [&](vx_graph g) {
              return vxPoolingLayer(g, in, max_pool, 2, 2, 0, 0,
                                    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
          }) == raw_t{6, 7});
    CHECK(run_single(context, out, [&](vx_graph g) {
              return vxPoolingLayer(g, in, avg_pool, 2, 2, 0, 0,
                                    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
          }) == raw_t{4, -1});
    // With pad 1 on a 1x1 negative input, max over the zero padding is 0.
    vx_tensor one = make_tensor(context, {1, 1, 1}, VX_TYPE_INT16, 8);
    vx_tensor one_out = make_tensor(context, {1, 1, 1}, VX_TYPE_INT16, 8);
    write_tensor(one, {-300});
    CHECK(run_single(context, one_out, [&](vx_graph g) {
              return vxPoolingLayer(g, one, max_pool, 3, 3, 1, 1,
                                    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, one_out);
          }) == raw_t{0});
    // avg over 9 positions: -300 / 9 = -33.3 -> -33.
    CHECK(run_single(context, one_out, [&](vx_graph g) {
              return vxPoolingLayer(g, one, avg_pool, 3, 3, 1, 1,
                                    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, one_out);
          }) == raw_t{-33});
    vxReleaseTensor(&in);
    vxReleaseTensor(&out);
    vxReleaseTensor(&one);
    vxReleaseTensor(&one_out);
}
