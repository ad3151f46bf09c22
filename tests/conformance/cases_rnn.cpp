// cases_rnn.cpp: conformance cases of the recurrent ops: lstm and gru in every direction, all
// timesteps or the last one only, batch > 1, odd hidden sizes, and input from a bidirectional
// previous layer ([T, 2, B, H']).
#include "case_support.hpp"

namespace conformance {

namespace {

struct rnn_form {
    const char* name;
    rnn_direction direction;
    bool all_timesteps;
    bool bidirectional_input = false;
};

const rnn_form rnn_forms[] = {
    {"forward, all timesteps", rnn_direction::forward, true},
    {"backward, last step", rnn_direction::backward, false},
    {"bidirectional, all timesteps", rnn_direction::bidirectional, true},
    {"forward, input from a bidirectional layer", rnn_direction::forward, true, true},
};

/// The inputs of one layer (LSTM: with c0); see tessera/c/ops_rnn.h for the order.
std::vector<tensor> rnn_inputs(draw& d, int gates, int dirs, bool with_c0, bool bidir_input) {
    const std::int64_t t = d.dim(1, 4), b = d.dim(1, 3), h = d.dim(1, 9);
    const std::int64_t prev_h = d.dim(1, 5);
    const shape x = bidir_input ? shape{t, 2, b, prev_h} : shape{t, b, d.dim(1, 9)};
    const std::int64_t features = bidir_input ? 2 * prev_h : x[2];
    std::vector<tensor> in{d.values(x), d.values(shape{dirs, b, h}, -0.5f, 0.5f)};
    if (with_c0) in.push_back(d.values(shape{dirs, b, h}, -0.5f, 0.5f));
    in.push_back(d.values(shape{dirs, features, gates * h}, -0.4f, 0.4f));
    in.push_back(d.values(shape{dirs, gates * h}, -0.2f, 0.2f));
    in.push_back(d.values(shape{dirs, h, gates * h}, -0.4f, 0.4f));
    in.push_back(d.values(shape{dirs, gates * h}, -0.2f, 0.2f));
    return in;
}

}  // namespace

case_list rnn_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : rnn_forms) {
        const int dirs = f.direction == rnn_direction::bidirectional ? 2 : 1;
        for (int r = 0; r < repeats; ++r) {
            std::vector<tensor> lstm_in = rnn_inputs(d, 4, dirs, true, f.bidirectional_input);
            // Rounded steps per timestep: input and hidden products, then the states.
            const int steps = 3 * static_cast<int>(lstm_in[0].dims()[0]);
            cases.push_back({"lstm", f.name, op::lstm(f.direction, f.all_timesteps),
                             std::move(lstm_in), steps});
            std::vector<tensor> gru_in = rnn_inputs(d, 3, dirs, false, f.bidirectional_input);
            const int gru_steps = 3 * static_cast<int>(gru_in[0].dims()[0]);
            cases.push_back({"gru", f.name, op::gru(f.direction, f.all_timesteps),
                             std::move(gru_in), gru_steps});
        }
    }
    return cases;
}

}  // namespace conformance
