/* tessera/c/ops_elementwise.h: parameter structs of the elementwise ops (see tessera/c/ops.h). */
#ifndef TESSERA_C_OPS_ELEMENTWISE_H
#define TESSERA_C_OPS_ELEMENTWISE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
