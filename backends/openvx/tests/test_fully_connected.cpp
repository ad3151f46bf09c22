// test_fully_connected.cpp: vxFullyConnectedLayer over the conformance grid ((core dims, weight
// dims, batch dims) x overflow x rounding x bias) on random Q7.8 data against Tessera's reference
// fully_connected (same provisional arithmetic; tolerance 0).
#include <algorithm>
#include <cmath>

#include "tessera/reference/fully_connected.hpp"
#include "vx_test_support.hpp"

using namespace vx_test;

namespace {

struct fc_shape {
    int core_dims, weight_dims, batch_dims;
};

void run_fc(const fc_shape& shape, std::uint64_t seed) {
    test_context context;
    rng r(seed);
    int cases = 0;
    for (vx_enum overflow : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE})
        for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN})
            for (bool with_bias : {false, true}) {
                std::vector<vx_size> core;
                if (shape.core_dims == 1) {
                    core = {static_cast<vx_size>(r.uniform(1, 20))};
                } else {
                    core = {static_cast<vx_size>(r.uniform(1, 4)),
                            static_cast<vx_size>(r.uniform(1, 4)),
                            static_cast<vx_size>(r.uniform(1, 4))};
                }
                const vx_size inner = element_count(core);
                const auto ofm = static_cast<vx_size>(r.uniform(1, 20));
                std::vector<vx_size> batch;
                for (int b = 0; b < shape.batch_dims; ++b)
                    batch.push_back(static_cast<vx_size>(r.uniform(1, 3)));
                std::vector<vx_size> in_dims = core, out_dims{ofm};
                in_dims.insert(in_dims.end(), batch.begin(), batch.end());
                out_dims.insert(out_dims.end(), batch.begin(), batch.end());
                std::vector<vx_size> w_dims =
                    shape.weight_dims == 2 ? std::vector<vx_size>{inner, ofm} : core;
                if (shape.weight_dims == 4) w_dims.push_back(ofm);
                const auto range = std::min<std::int64_t>(
                    32767,
                    static_cast<std::int64_t>(32767.0 / std::sqrt(static_cast<double>(inner))) * 4);
                const raw_t xv = random_raw(element_count(in_dims), r.next(), -range, range);
                const raw_t wv = random_raw(element_count(w_dims), r.next(), -range, range);
                const raw_t bv = random_raw(ofm, r.next(), -8192, 8192);

                vx_tensor in = make_tensor(context, in_dims, VX_TYPE_INT16, 8);
                vx_tensor w = make_tensor(context, w_dims, VX_TYPE_INT16, 8);
                vx_tensor b = with_bias ? make_tensor(context, {ofm}, VX_TYPE_INT16, 8) : nullptr;
                vx_tensor out = make_tensor(context, out_dims, VX_TYPE_INT16, 8);
                write_tensor(in, xv);
                write_tensor(w, wv);
                if (b) write_tensor(b, bv);
                vx_graph graph = vxCreateGraph(context);
                vx_node node =
                    vxFullyConnectedLayer(graph, in, w, b, 0, 32, overflow, rounding,
                                          VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR, out);
                REQUIRE_MESSAGE(
                    node != nullptr,
                    (context.log().empty() ? std::string("no log") : context.log().back().message));
                process(graph);
                const raw_t got = read_tensor(out);

                const vx_size rows = element_count(batch);
                std::vector<tessera::tensor> inputs{
                    to_reference({inner, rows}, xv, VX_TYPE_INT16, 8),
                    to_reference({inner, ofm}, wv, VX_TYPE_INT16, 8)};
                if (with_bias) inputs.push_back(to_reference({ofm}, bv, VX_TYPE_INT16, 8));
                auto op =
                    tessera::op::fully_connected()
                        .policies(rounding == VX_ROUND_POLICY_TO_ZERO ? TSR_ROUND_TO_ZERO
                                                                      : TSR_ROUND_TO_NEAREST_EVEN,
                                  overflow == VX_CONVERT_POLICY_WRAP ? TSR_OVERFLOW_WRAP
                                                                     : TSR_OVERFLOW_SATURATE)
                        .bias(with_bias);
                check_equal(got, raw_of(op_test::run1(op, inputs)), 0,
                            "fully connected case " + std::to_string(cases));
                ++cases;
                vxReleaseNode(&node);
                vxReleaseGraph(&graph);
                vxReleaseTensor(&in);
                vxReleaseTensor(&w);
                if (b) vxReleaseTensor(&b);
                vxReleaseTensor(&out);
            }
    CHECK(cases == 8);
}

}  // namespace

TEST_CASE("fully connected: core 1, weights 2, batch 0") {
    run_fc({1, 2, 0}, 11);
}
TEST_CASE("fully connected: core 1, weights 2, batch 1") {
    run_fc({1, 2, 1}, 12);
}
TEST_CASE("fully connected: core 1, weights 2, batch 2") {
    run_fc({1, 2, 2}, 13);
}
TEST_CASE("fully connected: core 1, weights 2, batch 3") {
    run_fc({1, 2, 3}, 14);
}
TEST_CASE("fully connected: core 3, weights 2, batch 0") {
    run_fc({3, 2, 0}, 15);
}
TEST_CASE("fully connected: core 3, weights 2, batch 1") {
    run_fc({3, 2, 1}, 16);
}
TEST_CASE("fully connected: core 3, weights 4, batch 0") {
    run_fc({3, 4, 0}, 17);
}
TEST_CASE("fully connected: core 3, weights 4, batch 1") {
    run_fc({3, 4, 1}, 18);
}
