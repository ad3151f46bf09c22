// ops/recurrent.cpp: lstm and gru (zDNN semantics, tessera/c/ops_rnn.h) on row-major f32 tensors.
// Per direction, the input projection of every timestep is one runtime sgemm ([T*B, F] x
// [F, G*H] plus the input bias), each timestep's hidden projection another ([B, H] x [H, G*H]
// plus the hidden bias); the gate arithmetic then runs per batch row in the order the
// reference kernel uses (LSTM gates F, I, C, O; GRU gates Z, R, H with the reset applied after
// the hidden projection). An input from a bidirectional layer ([T, D', B, H']) is first packed
// into [T, B, D' * H'].
#include <cmath>
#include <vector>

#include <tessera/cpu/blas.hpp>

#include "ops.hpp"

namespace tessera::plugins::cpu {

namespace {

route_choice recurrent_route(const descs& in) {
    if (!all_f32(in)) return reference_because("non-f32 recurrent layer");
    return native(route::native_plain);
}

float logistic(float x) {
    return 1.0f / (1.0f + std::exp(-x));
}

class recurrent_step final : public step {
  public:
    recurrent_step(const build_context& b, bool lstm, rnn_direction direction, bool all_timesteps)
        : ctx_(b.ctx),
          ids_(b.node.n.inputs),
          outs_(b.node.n.outputs),
          lstm_(lstm),
          all_timesteps_(all_timesteps),
          direction_(direction) {
        const tensor_desc& x = b.node.in[0];
        const tensor_desc& h0 = b.node.in[1];
        T_ = x.dim(0);
        D_ = h0.dim(0);
        B_ = h0.dim(1);
        H_ = h0.dim(2);
        G_ = lstm ? 4 : 3;
        if (x.rank() == 4) {
            prev_dirs_ = x.dim(1);
            prev_hidden_ = x.dim(3);
            F_ = prev_dirs_ * prev_hidden_;
            packed_.resize(static_cast<std::size_t>(T_ * B_ * F_));
        } else {
            F_ = x.dim(2);
        }
        input_gates_.resize(static_cast<std::size_t>(T_ * B_ * G_ * H_));
        hidden_gates_.resize(static_cast<std::size_t>(B_ * G_ * H_));
        h_.resize(static_cast<std::size_t>(B_ * H_));
        c_.resize(static_cast<std::size_t>(B_ * H_));
    }

    void run(const buffers& b) override {
        std::size_t k = 0;
        const float* x = input(b, k++);
        const float* h0 = input(b, k++);
        const float* c0 = lstm_ ? input(b, k++) : nullptr;
        const float* w = input(b, k++);
        const float* wb = input(b, k++);
        const float* r = input(b, k++);
        const float* rb = input(b, k++);
        float* hn = output(b, 0);
        float* cf = lstm_ ? output(b, 1) : nullptr;
        if (prev_dirs_ > 0) x = pack_input(x);
        const std::int64_t gh = G_ * H_, bh = B_ * H_;
        for (std::int64_t d = 0; d < D_; ++d) {
            project_inputs(x, w + d * F_ * gh, wb + d * gh);
            std::copy_n(h0 + d * bh, bh, h_.data());
            if (c0) std::copy_n(c0 + d * bh, bh, c_.data());
            const bool backward = direction_ == rnn_direction::backward || d == 1;
            for (std::int64_t s = 0; s < T_; ++s) {
                const std::int64_t t = backward ? T_ - 1 - s : s;
                project_hidden(r + d * H_ * gh, rb + d * gh);
                for (std::int64_t row = 0; row < B_; ++row) {
                    const float* xg = input_gates_.data() + (t * B_ + row) * gh;
                    const float* hg = hidden_gates_.data() + row * gh;
                    if (lstm_)
                        lstm_cell(xg, hg, h_.data() + row * H_, c_.data() + row * H_);
                    else
                        gru_cell(xg, hg, h_.data() + row * H_);
                }
                if (all_timesteps_) std::copy_n(h_.data(), bh, hn + (t * D_ + d) * bh);
            }
            if (!all_timesteps_) std::copy_n(h_.data(), bh, hn + d * bh);
            if (cf) std::copy_n(c_.data(), bh, cf + d * bh);
        }
    }

  private:
    const float* input(const buffers& b, std::size_t i) const {
        return static_cast<const float*>(b[static_cast<std::size_t>(ids_[i])]->host_data());
    }
    float* output(const buffers& b, std::size_t i) const {
        return static_cast<float*>(b[static_cast<std::size_t>(outs_[i])]->host_data());
    }

    /// [T, D', B, H'] into [T, B, D' * H'].
    const float* pack_input(const float* x) {
        for (std::int64_t t = 0; t < T_; ++t)
            for (std::int64_t pd = 0; pd < prev_dirs_; ++pd)
                for (std::int64_t row = 0; row < B_; ++row)
                    std::copy_n(x + ((t * prev_dirs_ + pd) * B_ + row) * prev_hidden_, prev_hidden_,
                                packed_.data() + (t * B_ + row) * F_ + pd * prev_hidden_);
        return packed_.data();
    }

    /// input_gates = x [T*B, F] * w [F, G*H] + wb, every timestep at once.
    void project_inputs(const float* x, const float* w, const float* wb) {
        const std::int64_t gh = G_ * H_, rows = T_ * B_;
        for (std::int64_t i = 0; i < rows; ++i) std::copy_n(wb, gh, input_gates_.data() + i * gh);
        runtime::sgemm(false, false, rows, gh, F_, 1.0f, x, F_, w, gh, 1.0f, input_gates_.data(),
                       gh, ctx_);
    }

    /// hidden_gates = h [B, H] * r [H, G*H] + rb.
    void project_hidden(const float* r, const float* rb) {
        const std::int64_t gh = G_ * H_;
        for (std::int64_t i = 0; i < B_; ++i) std::copy_n(rb, gh, hidden_gates_.data() + i * gh);
        runtime::sgemm(false, false, B_, gh, H_, 1.0f, h_.data(), H_, r, gh, 1.0f,
                       hidden_gates_.data(), gh, ctx_);
    }

    void lstm_cell(const float* xg, const float* hg, float* h, float* c) const {
        const std::int64_t H = H_;
        for (std::int64_t k = 0; k < H; ++k) {
            const float f = logistic(xg[k] + hg[k]);
            const float i = logistic(xg[H + k] + hg[H + k]);
            const float g = std::tanh(xg[2 * H + k] + hg[2 * H + k]);
            const float o = logistic(xg[3 * H + k] + hg[3 * H + k]);
            c[k] = f * c[k] + i * g;
            h[k] = o * std::tanh(c[k]);
        }
    }

    void gru_cell(const float* xg, const float* hg, float* h) const {
        const std::int64_t H = H_;
        for (std::int64_t k = 0; k < H; ++k) {
            const float z = logistic(xg[k] + hg[k]);
            const float reset = logistic(xg[H + k] + hg[H + k]);
            const float n = std::tanh(xg[2 * H + k] + reset * hg[2 * H + k]);
            h[k] = (1.0f - z) * n + z * h[k];
        }
    }

    const runtime::Context& ctx_;
    std::vector<int> ids_, outs_;
    bool lstm_, all_timesteps_;
    rnn_direction direction_;
    std::int64_t T_ = 0, B_ = 0, F_ = 0, H_ = 0, D_ = 0, G_ = 0;
    std::int64_t prev_dirs_ = 0, prev_hidden_ = 0;
    std::vector<float> packed_, input_gates_, hidden_gates_, h_, c_;
};

template <typename Op>
void state_recurrent_op(router& r, bool lstm) {
    r.state<Op>(
        [](const Op&, const query_view& v) {
            return answer(recurrent_route(v.q.inputs), v.in, v.out);
        },
        [lstm](const Op& o, const build_context& b) {
            return routed_step(recurrent_route(b.node.in), b, [&] {
                return std::make_unique<recurrent_step>(b, lstm, o.direction(), o.all_timesteps());
            });
        });
}

}  // namespace

void state_recurrent(router& r) {
    state_recurrent_op<op::lstm>(r, true);
    state_recurrent_op<op::gru>(r, false);
}

}  // namespace tessera::plugins::cpu
