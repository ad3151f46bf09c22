/* VX/vx.h: the OpenVX 1.1 core subset this implementation provides (types and functions the
 * Neural Network extension depends on). Include VX/vx_khr_cnn.h for the extension itself. */
#ifndef VX_H
#define VX_H

#include <VX/vx_types.h>
#include <VX/vx_api.h>

#endif /* VX_H */
