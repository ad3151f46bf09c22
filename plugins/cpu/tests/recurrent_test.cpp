// recurrent_test.cpp: lstm and gru run natively on the cpu plugin (runtime sgemm projections and
// the gate arithmetic, not the reference kernels) in every direction, with the last or every
// timestep's hidden state, with an input from a bidirectional layer, and match the reference
// backend within the cpu tolerance.
#include "cpu_plugin.hpp"

using namespace cpu_test;

namespace {

/// The inputs of a recurrent layer: x [T, B, F] (or [T, D', B, H'] from a bidirectional
/// layer), h0 (and c0) [D, B, H], w [D, F, G*H], wb [D, G*H], r [D, H, G*H], rb [D, G*H].
std::vector<tensor> recurrent_inputs(bool lstm, std::int64_t dirs, bool from_bidirectional,
                                     std::uint32_t seed) {
    const std::int64_t T = 5, B = 3, H = 6, G = lstm ? 4 : 3;
    const std::int64_t F = from_bidirectional ? 2 * 4 : 7;
    std::vector<tensor> in;
    in.push_back(from_bidirectional ? values(shape{T, 2, B, 4}, seed)
                                    : values(shape{T, B, F}, seed));
    in.push_back(values(shape{dirs, B, H}, seed + 1));
    if (lstm) in.push_back(values(shape{dirs, B, H}, seed + 2));
    in.push_back(values(shape{dirs, F, G * H}, seed + 3, -0.5f, 0.5f));
    in.push_back(values(shape{dirs, G * H}, seed + 4));
    in.push_back(values(shape{dirs, H, G * H}, seed + 5, -0.5f, 0.5f));
    in.push_back(values(shape{dirs, G * H}, seed + 6));
    return in;
}

/// Runs `op` on "cpu!", checks no node ran emulated and every output matches the reference.
void check_recurrent_native(const op_desc& op, const std::vector<tensor>& inputs) {
    std::string report;
    const auto got = run_op(op, inputs, "cpu!", {}, &report);
    INFO(report);
    CHECK(report.find(" 0 emulated,") != std::string::npos);
    const auto want = reference::execute(op, inputs);
    REQUIRE(got.size() == want.size());
    // Five timesteps of sums of 13 products each way: a few rounded steps per timestep.
    for (std::size_t i = 0; i < got.size(); ++i)
        check_close(got[i], want[i], tolerance_of("cpu"), 8, op.describe());
}

}  // namespace

TEST_CASE("lstm and gru run natively in every direction and timestep form") {
    load_cpu_plugin();
    for (rnn_direction direction :
         {rnn_direction::forward, rnn_direction::backward, rnn_direction::bidirectional}) {
        const std::int64_t dirs = direction == rnn_direction::bidirectional ? 2 : 1;
        for (bool all : {false, true}) {
            CAPTURE(all);
            check_recurrent_native(op::lstm(direction, all),
                                   recurrent_inputs(true, dirs, false, 3));
            check_recurrent_native(op::gru(direction, all),
                                   recurrent_inputs(false, dirs, false, 5));
        }
    }
}

TEST_CASE("lstm and gru read the output of a bidirectional layer natively") {
    load_cpu_plugin();
    check_recurrent_native(op::lstm(rnn_direction::forward, true),
                           recurrent_inputs(true, 1, true, 11));
    check_recurrent_native(op::gru(rnn_direction::bidirectional, false),
                           recurrent_inputs(false, 2, true, 13));
}
