// ops/ops.hpp: one function per op file stating its ops on the zaiu router (program.cpp calls
// them all once). An op not stated here is declined: it has no zDNN counterpart.
#pragma once

#include "../program.hpp"

namespace tessera::plugins::zaiu {

void state_elementwise(router& r);       // binary, unary, activation
void state_softmax(router& r);           // softmax
void state_matmul(router& r);            // matmul, gemm, fully_connected
void state_quantized_matmul(router& r);  // quantized_matmul
void state_conv2d(router& r);            // conv2d
void state_pooling(router& r);           // pooling, mean_reduce2d
void state_batchnorm(router& r);         // batchnorm
void state_statistics(router& r);        // moments, layer_norm, norm, reduce
void state_rnn(router& r);               // lstm, gru
void state_reorder(router& r);           // reorder between stick layouts

}  // namespace tessera::plugins::zaiu
