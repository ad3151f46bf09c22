// tessera/ops/rnn.hpp: lstm and gru, zDNN's recurrent layers (gate orders FICO and ZRH,
// forward/backward/bidirectional, reset-after GRU). Tensor shapes in tessera/c/ops_rnn.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tessera/c/ops_rnn.h"
#include "tessera/ops/kinds.hpp"
#include "tessera/ops/pod_op.hpp"
#include "tessera/ops/shape_rules.hpp"
#include "tessera/ops/validate.hpp"

namespace tessera::op {

namespace detail {

/// Sizes of one recurrent layer, read from validated inputs.
struct rnn_sizes {
    std::int64_t steps = 0, batch = 0, features = 0, hidden = 0, dirs = 0;
};

/// Validates the tensors of an LSTM (gates = 4, with c0) or GRU (gates = 3) and returns sizes.
/// `names` lists the inputs in order.
inline rnn_sizes check_rnn(const checker& check, const std::vector<tensor_desc>& in,
                           const std::vector<std::string_view>& names, int gates,
                           std::int32_t direction) {
    check.enum_in_range("direction", direction, TSR_RNN_FORWARD, TSR_RNN_BIDIRECTIONAL);
    check.count(in, names.size(), names.size());
    const tensor_desc& x = in[0];
    check.type_in("input", x, {dtype::f32, dtype::f16, dtype::bf16, dtype::dlfloat16});
    for (std::size_t k = 1; k < in.size(); ++k) check.same_type(names[k], in[k], x);
    check.rank_between("input", x, 3, 4);
    check.positive_dims("input", x);
    rnn_sizes s;
    s.dirs = direction == TSR_RNN_BIDIRECTIONAL ? 2 : 1;
    s.steps = x.dim(0);
    if (x.rank() == 3) {
        s.batch = x.dim(1);
        s.features = x.dim(2);
    } else {  // a previous layer's hn_output [T, D', B, H']
        s.batch = x.dim(2);
        s.features = check.mul("input", x.dim(1), x.dim(3));
    }
    const tensor_desc& h0 = in[1];
    check.rank("h0", h0, 3);
    check.dim("h0", h0, 0, s.dirs, "directions");
    check.dim("h0", h0, 1, s.batch, "batch");
    check.positive_dims("h0", h0);
    s.hidden = h0.dim(2);
    const std::int64_t gh = check.mul("h0", gates, s.hidden);
    std::size_t k = 2;
    if (gates == 4) {
        const tensor_desc& c0 = in[k++];
        check.rank("c0", c0, 3);
        check.dim("c0", c0, 0, s.dirs, "directions");
        check.dim("c0", c0, 1, s.batch, "batch");
        check.dim("c0", c0, 2, s.hidden, "hidden");
    }
    const auto matrix = [&](std::string_view t, const tensor_desc& d, std::int64_t rows) {
        check.rank(t, d, 3);
        check.dim(t, d, 0, s.dirs, "directions");
        check.dim(t, d, 1, rows);
        check.dim(t, d, 2, gh, "gates*hidden");
    };
    const auto vector = [&](std::string_view t, const tensor_desc& d) {
        check.rank(t, d, 2);
        check.dim(t, d, 0, s.dirs, "directions");
        check.dim(t, d, 1, gh, "gates*hidden");
    };
    matrix(names[k], in[k], s.features);
    ++k;
    vector(names[k], in[k]);
    ++k;
    matrix(names[k], in[k], s.hidden);
    ++k;
    vector(names[k], in[k]);
    check.fits("hn_output", shape{s.steps, s.dirs, s.batch, s.hidden}, x.type());
    return s;
}

inline tensor_desc rnn_state_output(const rnn_sizes& s, std::int64_t steps,
                                    const tensor_desc& like) {
    return output_like(shape{steps, s.dirs, s.batch, s.hidden}, like);
}

/// What lstm and gru share: direction and all-timesteps fields with their setters, and the
/// validation of the inputs named by Derived::input_names (Derived::gates gates each).
template <typename Derived, typename CParams, tsr_op_kind Kind>
struct rnn_op : pod_op<Derived, CParams, Kind> {
    rnn_op() {
        this->raw().direction = TSR_RNN_FORWARD;
        this->raw().all_timesteps = 1;
    }
    explicit rnn_op(tsr_rnn_direction d, bool all = true) : rnn_op() {
        this->raw().direction = d;
        this->raw().all_timesteps = all ? 1 : 0;
    }

    Derived& set_direction(tsr_rnn_direction d) {
        this->raw().direction = d;
        return static_cast<Derived&>(*this);
    }
    explicit rnn_op(rnn_direction d, bool all = true) : rnn_op(to_c(d), all) {}
    Derived& set_direction(rnn_direction d) { return set_direction(to_c(d)); }
    Derived& set_all_timesteps(bool all) {
        this->raw().all_timesteps = all ? 1 : 0;
        return static_cast<Derived&>(*this);
    }
    /// Which way the sequence is processed (throws for a raw value outside the enum).
    rnn_direction direction() const {
        return tessera::from_c<rnn_direction>(this->raw().direction);
    }
    /// hn_output holds every timestep (else only the last processed one).
    bool all_timesteps() const { return this->raw().all_timesteps != 0; }

  protected:
    /// Validates the fields and inputs; returns the layer's sizes.
    rnn_sizes checked_sizes(const checker& check, const std::vector<tensor_desc>& inputs) const {
        check_flag(check, "all_timesteps", this->raw().all_timesteps);
        return check_rnn(check, inputs, Derived::input_names(), Derived::gates,
                         this->raw().direction);
    }
    /// hn_output: every timestep or only the last one.
    tensor_desc hn_output(const rnn_sizes& s, const tensor_desc& like) const {
        return rnn_state_output(s, this->raw().all_timesteps ? s.steps : 1, like);
    }
};

}  // namespace detail

/// LSTM. Input order: input, h0, c0, weights, biases, hidden_weights, hidden_biases.
/// Outputs: hn_output [T or 1, D, B, H], cf_output [1, D, B, H]. Floating dtypes only.
struct lstm : detail::rnn_op<lstm, tsr_lstm_params, TSR_OP_LSTM> {
    static constexpr std::string_view name = "lstm";
    static constexpr int gates = 4;
    using rnn_op::rnn_op;

    static std::vector<std::string_view> input_names() {
        return {"input", "h0", "c0", "weights", "biases", "hidden_weights", "hidden_biases"};
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        const auto s = checked_sizes(checker{name}, inputs);
        return {hn_output(s, inputs[0]), detail::rnn_state_output(s, 1, inputs[0])};
    }
};

/// GRU (reset after the hidden matmul). Input order: input, h0, weights, biases,
/// hidden_weights, hidden_biases. Output: hn_output [T or 1, D, B, H]. Floating dtypes only.
struct gru : detail::rnn_op<gru, tsr_gru_params, TSR_OP_GRU> {
    static constexpr std::string_view name = "gru";
    static constexpr int gates = 3;
    using rnn_op::rnn_op;

    static std::vector<std::string_view> input_names() {
        return {"input", "h0", "weights", "biases", "hidden_weights", "hidden_biases"};
    }

    std::vector<tensor_desc> infer(const std::vector<tensor_desc>& inputs) const {
        // Validate first: argument evaluation order would let inputs[0] run before the count check.
        const auto s = checked_sizes(checker{name}, inputs);
        return {hn_output(s, inputs[0])};
    }
};

}  // namespace tessera::op
