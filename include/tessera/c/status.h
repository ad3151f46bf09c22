/* tessera/c/status.h: status codes shared by the C plugin ABI and the C++ front-end. Plain C. */
#ifndef TESSERA_C_STATUS_H
#define TESSERA_C_STATUS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tsr_status {
    TSR_SUCCESS = 0,
    TSR_INVALID_ARGUMENT = 1, /* a descriptor, tensor or value is wrong */
    TSR_UNSUPPORTED = 2,      /* valid, but this backend cannot do it */
    TSR_OUT_OF_MEMORY = 3,
    TSR_NOT_FOUND = 4,       /* a plugin, device, file or name does not exist */
    TSR_ABI_MISMATCH = 5,    /* plugin and host ABI versions are incompatible */
    TSR_INVALID_GRAPH = 6,   /* cycles, several writers, unknown tensors */
    TSR_PARSE_ERROR = 7,     /* a config string or file is malformed */
    TSR_BACKEND_FAILURE = 8, /* the backend's own API reported an error */
    TSR_RUNTIME_ERROR = 9
} tsr_status;

/* Takes an int: a status read from a plugin may be any value, and an out-of-range value stored in
 * the enum type is undefined behaviour in C++. */
static inline const char* tsr_status_name(int32_t s) {
    switch (s) {
        case TSR_SUCCESS:
            return "success";
        case TSR_INVALID_ARGUMENT:
            return "invalid_argument";
        case TSR_UNSUPPORTED:
            return "unsupported";
        case TSR_OUT_OF_MEMORY:
            return "out_of_memory";
        case TSR_NOT_FOUND:
            return "not_found";
        case TSR_ABI_MISMATCH:
            return "abi_mismatch";
        case TSR_INVALID_GRAPH:
            return "invalid_graph";
        case TSR_PARSE_ERROR:
            return "parse_error";
        case TSR_BACKEND_FAILURE:
            return "backend_failure";
        case TSR_RUNTIME_ERROR:
            return "runtime_error";
    }
    return "unknown_status";
}

#ifdef __cplusplus
}
#endif
#endif
