/* tessera/c/ops_data.h: parameter structs of the data ops (see tessera/c/ops.h). */
#ifndef TESSERA_C_OPS_DATA_H
#define TESSERA_C_OPS_DATA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
