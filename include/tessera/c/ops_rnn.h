/* tessera/c/ops_rnn.h: parameter structs of the recurrent ops (see tessera/c/ops.h), following
 * zDNN's zdnn_lstm / zdnn_gru. Plain C99; structs start with uint32_t struct_size and only grow
 * at the end; enum values are ABI (append only).
 *
 * Tensors (D = 1 for forward/backward, 2 for bidirectional; T timesteps, B batches, F features,
 * H hidden; G = 4 gates for LSTM in order forget, input, cell, output (FICO), G = 3 for GRU in
 * order update, reset, hidden (ZRH)). Gate g occupies columns [g*H, (g+1)*H) of the last dim;
 * direction 0 is forward, 1 backward:
 *   input          [T, B, F], or [T, D', B, H'] (a previous layer's hn_output; F = D'*H',
 *                  the directions' hidden states concatenated per batch row)
 *   h0             [D, B, H]          (LSTM and GRU)
 *   c0             [D, B, H]          (LSTM only)
 *   weights        [D, F, G*H]        x(t) * weights
 *   biases         [D, G*H]
 *   hidden_weights [D, H, G*H]        h(t-1) * hidden_weights
 *   hidden_biases  [D, G*H]
 * Input order: LSTM input, h0, c0, weights, biases, hidden_weights, hidden_biases;
 *              GRU  input, h0, weights, biases, hidden_weights, hidden_biases.
 * Outputs: hn_output [T, D, B, H] (all_timesteps) or [1, D, B, H] (the state after each
 * direction's last processed step: t = T-1 forward, t = 0 backward); LSTM also cf_output
 * [1, D, B, H], the cell state after the last processed step. hn_output is indexed by input
 * timestep for both directions (zDNN: output order matches input order). */
#ifndef TESSERA_C_OPS_RNN_H
#define TESSERA_C_OPS_RNN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Numbered as zDNN's lstm_gru_direction. */
typedef enum tsr_rnn_direction {
    TSR_RNN_FORWARD = 0,
    TSR_RNN_BACKWARD = 1,
    TSR_RNN_BIDIRECTIONAL = 2
} tsr_rnn_direction;

/* LSTM (sigmoid gates, tanh cell and output activations):
 *   f = sig(x Wf + h Rf + Wbf + Rbf), i = sig(x Wi + h Ri + Wbi + Rbi),
 *   c~ = tanh(x Wc + h Rc + Wbc + Rbc), o = sig(x Wo + h Ro + Wbo + Rbo),
 *   C' = f*C + i*c~, H' = o*tanh(C'). */
typedef struct tsr_lstm_params {
    uint32_t struct_size;
    int32_t direction;     /* tsr_rnn_direction, default forward */
    int32_t all_timesteps; /* bool, default 1 */
} tsr_lstm_params;

/* GRU, reset applied after the hidden matmul (zDNN "reset after linear"):
 *   z = sig(x Wz + h Rz + Wbz + Rbz), r = sig(x Wr + h Rr + Wbr + Rbr),
 *   h~ = tanh(x Wh + Wbh + r*(h Rh + Rbh)), H' = (1-z)*h~ + z*h. */
typedef struct tsr_gru_params {
    uint32_t struct_size;
    int32_t direction;     /* tsr_rnn_direction, default forward */
    int32_t all_timesteps; /* bool, default 1 */
} tsr_gru_params;

#ifdef __cplusplus
}
#endif
#endif
