/* tessera/c/ops_custom.h: parameters of the custom op (see tessera/c/ops.h): a user kernel
 * bound by type name, e.g. a Myriad-style OpenCL custom layer. Plain C99. Pointers stay valid
 * for as long as the writer says (the C++ op::custom: while it lives unmodified); a reader
 * deep-copies what it keeps. Structs start with uint32_t struct_size and only grow at the end. */
#ifndef TESSERA_C_OPS_CUSTOM_H
#define TESSERA_C_OPS_CUSTOM_H

#include <stdint.h>

#include "tessera/c/tensor_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One layer attribute, e.g. {"stride", "2"} or {"kernel", "3,3"}; both NUL-terminated. */
typedef struct tsr_custom_attribute {
    const char* key;
    const char* value;
} tsr_custom_attribute;

typedef enum tsr_custom_source_kind {
    TSR_CUSTOM_SOURCE_TEXT = 0, /* `content` is kernel source code */
    TSR_CUSTOM_SOURCE_FILE = 1  /* `content` is a file name */
} tsr_custom_source_kind;

/* One kernel source; `entry` names the kernel function in it (may be empty). */
typedef struct tsr_custom_source {
    int32_t kind; /* tsr_custom_source_kind */
    const char* content;
    const char* entry;
} tsr_custom_source;

/* How the single output's descriptor is found. */
typedef enum tsr_custom_output_rule {
    TSR_CUSTOM_OUTPUT_DECLARED = 0,  /* `output` as given (row-major) */
    TSR_CUSTOM_OUTPUT_LIKE_INPUT = 1 /* dims, dtype and quantisation of input `like_input` */
} tsr_custom_output_rule;

typedef struct tsr_custom_params {
    uint32_t struct_size;
    const char* type_name; /* layer type the kernels implement, non-empty */
    uint32_t num_attributes;
    const tsr_custom_attribute* attributes;
    uint32_t num_sources;
    const tsr_custom_source* sources;
    int32_t num_inputs;     /* expected input count; -1 (default) accepts any */
    int32_t output_rule;    /* tsr_custom_output_rule */
    int32_t like_input;     /* TSR_CUSTOM_OUTPUT_LIKE_INPUT: input index */
    tsr_tensor_desc output; /* TSR_CUSTOM_OUTPUT_DECLARED */
} tsr_custom_params;

#ifdef __cplusplus
}
#endif
#endif
