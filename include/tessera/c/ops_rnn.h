/* tessera/c/ops_rnn.h: parameter structs of the rnn ops (see tessera/c/ops.h). */
#ifndef TESSERA_C_OPS_RNN_H
#define TESSERA_C_OPS_RNN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
