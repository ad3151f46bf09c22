/* tessera/c/ops_custom.h: parameter structs of the custom ops (see tessera/c/ops.h). */
#ifndef TESSERA_C_OPS_CUSTOM_H
#define TESSERA_C_OPS_CUSTOM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
