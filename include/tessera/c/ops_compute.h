/* tessera/c/ops_compute.h: parameter structs of the compute ops (see tessera/c/ops.h). */
#ifndef TESSERA_C_OPS_COMPUTE_H
#define TESSERA_C_OPS_COMPUTE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
