// tessera/reference/rnn.hpp: reference kernels of op::lstm and op::gru (zDNN semantics; tensor
// shapes in tessera/c/ops_rnn.h). Inputs arrive row-major f32.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "tessera/ops/rnn.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

namespace detail {

inline float sigmoid(float x) {
    return 1.0f / (1.0f + std::exp(-x));
}

/// Row-major f32 views of one recurrent layer's tensors.
struct rnn_views {
    const float* x;  // input
    const float* h0;
    const float* c0;  // LSTM only
    const float* w;   // [D, F, G*H]
    const float* wb;  // [D, G*H]
    const float* r;   // [D, H, G*H]
    const float* rb;  // [D, G*H]
    std::int64_t T, B, F, H, D, G;
    std::int64_t prev_dirs, prev_hidden;  // input [T, D', B, H'] when prev_dirs > 0

    /// Feature f of batch row b at step t.
    float input(std::int64_t t, std::int64_t b, std::int64_t f) const {
        if (prev_dirs == 0) return x[(t * B + b) * F + f];
        const std::int64_t d = f / prev_hidden, k = f % prev_hidden;
        return x[((t * prev_dirs + d) * B + b) * prev_hidden + k];
    }
    /// x(t, b) * W[d] + Wb[d] into xg (G*H values).
    void input_gates(std::int64_t d, std::int64_t t, std::int64_t b, float* xg) const {
        const std::int64_t gh = G * H;
        for (std::int64_t j = 0; j < gh; ++j) xg[j] = wb[d * gh + j];
        for (std::int64_t f = 0; f < F; ++f) {
            const float v = input(t, b, f);
            const float* row = w + (d * F + f) * gh;
            for (std::int64_t j = 0; j < gh; ++j) xg[j] += v * row[j];
        }
    }
    /// h * R[d] + Rb[d] into hg (G*H values), h of length H.
    void hidden_gates(std::int64_t d, const float* h, float* hg) const {
        const std::int64_t gh = G * H;
        for (std::int64_t j = 0; j < gh; ++j) hg[j] = rb[d * gh + j];
        for (std::int64_t k = 0; k < H; ++k) {
            const float* row = r + (d * H + k) * gh;
            for (std::int64_t j = 0; j < gh; ++j) hg[j] += h[k] * row[j];
        }
    }
};

inline rnn_views make_rnn_views(const std::vector<tensor>& in, bool lstm) {
    rnn_views v{};
    const tensor_desc& x = in[0].desc();
    std::size_t k = 0;
    v.x = in[k++].data_as<float>();
    v.h0 = in[k++].data_as<float>();
    v.c0 = lstm ? in[k++].data_as<float>() : nullptr;
    v.w = in[k++].data_as<float>();
    v.wb = in[k++].data_as<float>();
    v.r = in[k++].data_as<float>();
    v.rb = in[k++].data_as<float>();
    v.T = x.dim(0);
    v.D = in[1].desc().dim(0);
    v.B = in[1].desc().dim(1);
    v.H = in[1].desc().dim(2);
    v.G = lstm ? 4 : 3;
    if (x.rank() == 4) {
        v.prev_dirs = x.dim(1);
        v.prev_hidden = x.dim(3);
        v.F = v.prev_dirs * v.prev_hidden;
    } else {
        v.F = x.dim(2);
    }
    return v;
}

/// Runs every direction (backward ones from the last timestep), with `step` advancing the state
/// (h, c) of one batch row at one timestep, and writes hn (and cf when not null).
template <typename Step>
void run_directions(const rnn_views& v, rnn_direction direction, bool all_timesteps, float* hn,
                    float* cf, Step&& step) {
    const std::int64_t H = v.H, B = v.B, D = v.D;
    std::vector<float> h(static_cast<std::size_t>(B * H)), c(static_cast<std::size_t>(B * H));
    for (std::int64_t d = 0; d < D; ++d) {
        const bool backward = direction == rnn_direction::backward || d == 1;
        for (std::int64_t i = 0; i < B * H; ++i) {
            h[i] = v.h0[d * B * H + i];
            c[i] = v.c0 ? v.c0[d * B * H + i] : 0.0f;
        }
        for (std::int64_t s = 0; s < v.T; ++s) {
            const std::int64_t t = backward ? v.T - 1 - s : s;
            for (std::int64_t b = 0; b < B; ++b) step(d, t, b, &h[b * H], &c[b * H]);
            if (all_timesteps) {
                for (std::int64_t i = 0; i < B * H; ++i) hn[(t * D + d) * B * H + i] = h[i];
            }
        }
        for (std::int64_t i = 0; i < B * H; ++i) {
            if (!all_timesteps) hn[d * B * H + i] = h[i];
            if (cf) cf[d * B * H + i] = c[i];
        }
    }
}

}  // namespace detail

inline void run(const op::lstm& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    const detail::rnn_views v = detail::make_rnn_views(in, true);
    const std::int64_t H = v.H;
    std::vector<float> xg(static_cast<std::size_t>(4 * H)), hg(static_cast<std::size_t>(4 * H));
    detail::run_directions(v, op.direction(), op.all_timesteps(), out[0].data_as<float>(),
                           out[1].data_as<float>(),
                           [&](std::int64_t d, std::int64_t t, std::int64_t b, float* h, float* c) {
                               v.input_gates(d, t, b, xg.data());
                               v.hidden_gates(d, h, hg.data());
                               for (std::int64_t k = 0; k < H; ++k) {  // gates F, I, C, O
                                   const float f = detail::sigmoid(xg[k] + hg[k]);
                                   const float i = detail::sigmoid(xg[H + k] + hg[H + k]);
                                   const float g = std::tanh(xg[2 * H + k] + hg[2 * H + k]);
                                   const float o = detail::sigmoid(xg[3 * H + k] + hg[3 * H + k]);
                                   c[k] = f * c[k] + i * g;
                                   h[k] = o * std::tanh(c[k]);
                               }
                           });
}

inline void run(const op::gru& op, const std::vector<tensor>& in, const std::vector<tensor>& out) {
    const detail::rnn_views v = detail::make_rnn_views(in, false);
    const std::int64_t H = v.H;
    std::vector<float> xg(static_cast<std::size_t>(3 * H)), hg(static_cast<std::size_t>(3 * H));
    detail::run_directions(v, op.direction(), op.all_timesteps(), out[0].data_as<float>(), nullptr,
                           [&](std::int64_t d, std::int64_t t, std::int64_t b, float* h, float*) {
                               v.input_gates(d, t, b, xg.data());
                               v.hidden_gates(d, h, hg.data());
                               for (std::int64_t k = 0; k < H; ++k) {  // gates Z, R, H
                                   const float z = detail::sigmoid(xg[k] + hg[k]);
                                   const float r = detail::sigmoid(xg[H + k] + hg[H + k]);
                                   const float n = std::tanh(xg[2 * H + k] + r * hg[2 * H + k]);
                                   h[k] = (1.0f - z) * n + z * h[k];
                               }
                           });
}

}  // namespace tessera::reference
