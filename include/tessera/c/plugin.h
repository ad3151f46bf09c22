/* tessera/c/plugin.h: the plain-C ABI between the Tessera host and a backend plugin.
 *
 * Rules that keep it stable across compilers and releases:
 * - A plugin exports one symbol, tsr_plugin_entry, returning a table of function pointers.
 * - Every struct starts with uint32_t struct_size, written by whoever fills the struct; readers
 *   accept shorter (older) structs and never read past struct_size.
 * - Tables only grow at the end; a NULL slot, or one past struct_size, means "not supported".
 * - History: 1.0 first release; 1.1 adds tsr_compile_stats and the compiled_stats slot; 1.2 adds
 *   the compiled_node_steps slot; 1.3 the compiled_tensor_aliases slot.
 * - Same major version and plugin minor >= TSR_ABI_MIN_PLUGIN_MINOR loads; anything else is
 *   reported as an ABI mismatch naming both versions.
 * - Nothing allocated on one side is freed on the other: errors are written into a host-owned
 *   tsr_error, and every handle a plugin creates has a release slot in the plugin's table.
 */
#ifndef TESSERA_C_PLUGIN_H
#define TESSERA_C_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/c/ops.h"
#include "tessera/c/status.h"
#include "tessera/c/tensor_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_ABI_MAJOR 1
#define TSR_ABI_MINOR 3
/* The oldest plugin minor version this host still accepts. */
#define TSR_ABI_MIN_PLUGIN_MINOR 0
#define TSR_PLUGIN_ENTRY_SYMBOL "tsr_plugin_entry"

#if defined(_WIN32)
#define TSR_PLUGIN_EXPORT __declspec(dllexport)
#else
#define TSR_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Opaque handles, owned by the plugin and released through its table. */
typedef struct tsr_backend_s* tsr_backend;
typedef struct tsr_compiled_s* tsr_compiled;
typedef struct tsr_buffer_s* tsr_buffer;
typedef struct tsr_event_s* tsr_event;

/* Host-owned error record a plugin fills in on failure. */
typedef struct tsr_error {
    uint32_t struct_size;
    int32_t code; /* tsr_status */
    char op[64];
    char tensor[64];
    char message[1024];
} tsr_error;

/* Services the host offers to plugins. */
typedef enum tsr_log_level {
    TSR_LOG_TRACE = 0,
    TSR_LOG_DEBUG = 1,
    TSR_LOG_INFO = 2,
    TSR_LOG_WARN = 3,
    TSR_LOG_ERROR = 4
} tsr_log_level;

typedef struct tsr_host_api {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    /* Log through the host's logger (may be NULL). */
    void (*log)(int32_t level, const char* plugin, const char* message);
} tsr_host_api;

/* key=value options from the config string, e.g. "device=0". */
typedef struct tsr_option {
    const char* key;
    const char* value;
} tsr_option;

typedef struct tsr_backend_options {
    uint32_t struct_size;
    int32_t num_options;
    const tsr_option* options;
} tsr_backend_options;

typedef struct tsr_device_info {
    uint32_t struct_size;
    char name[128];
    char kind[32];     /* "cpu", "gpu", "accelerator", "emulator" */
    char details[512]; /* free text: driver, ISA, memory */
} tsr_device_info;

typedef enum tsr_support_level {
    TSR_SUPPORT_NONE = 0,     /* declined; reason says why */
    TSR_SUPPORT_EMULATED = 1, /* works, but slowly or with reduced precision */
    TSR_SUPPORT_NATIVE = 2    /* the backend's fast path */
} tsr_support_level;

/* Why a backend declined; hosts branch on the code, never on the text. */
typedef enum tsr_reason {
    TSR_REASON_NONE = 0,
    TSR_REASON_OP_KIND = 1,   /* the op is not implemented at all */
    TSR_REASON_DTYPE = 2,     /* a tensor's data type is not supported */
    TSR_REASON_LAYOUT = 3,    /* a requested layout is not supported */
    TSR_REASON_SHAPE = 4,     /* a shape or rank exceeds the backend's limits */
    TSR_REASON_ATTRIBUTE = 5, /* an attribute value (mode, padding, ...) is not supported */
    TSR_REASON_DEVICE = 6,    /* no usable device */
    TSR_REASON_INVALID = 7    /* the descriptor itself is invalid */
} tsr_reason;

/* One op with its tensors, as the host asks about it or hands it over. Output descriptors may
 * have layout TSR_LAYOUT_ANY; so may inputs that come from another op of the same backend. */
typedef struct tsr_op_desc {
    uint32_t struct_size;
    int32_t kind;       /* tsr_op_kind */
    const void* params; /* the op's parameter struct; starts with its struct_size */
    const char* name;   /* node name, for messages */
    int32_t num_inputs;
    const tsr_tensor_desc* inputs;
    int32_t num_outputs;
    const tsr_tensor_desc* outputs;
} tsr_op_desc;

/* The answer to a capability query. The host provides chosen_* arrays with room for the op's
 * inputs and outputs; the backend writes the concrete layouts it wants there (a copy of the
 * request where the request was already concrete). */
typedef struct tsr_op_support {
    uint32_t struct_size;
    int32_t level;  /* tsr_support_level */
    int32_t reason; /* tsr_reason, when level is NONE or EMULATED */
    char reason_text[256];
    tsr_tensor_desc* chosen_inputs;
    tsr_tensor_desc* chosen_outputs;
} tsr_op_support;

/* A run of ops placed on one backend, in execution order. Tensor ids index `tensors`; every
 * tensor has a concrete layout. */
typedef struct tsr_node {
    uint32_t struct_size;
    tsr_op_desc op;
    const int32_t* input_ids;
    const int32_t* output_ids;
} tsr_node;

/* Per-tensor facts the host knows about a partition (bits of tsr_partition::tensor_flags). */
typedef enum tsr_tensor_flag {
    /* The tensor's contents are read after the partition has run: by a later partition, a
     * transfer between backends, or the caller (a graph output). A tensor produced and consumed
     * inside the partition without this flag may be elided (e.g. by fusing its producer and its
     * consumer). */
    TSR_TENSOR_READ_LATER = 1,
    /* The tensor is a graph constant: its contents are the same on every execution, so a backend
     * may transform them once (e.g. pack weights on the first run) and reuse the result. */
    TSR_TENSOR_CONSTANT = 2
} tsr_tensor_flag;

typedef struct tsr_partition {
    uint32_t struct_size;
    int32_t num_tensors;
    const tsr_tensor_desc* tensors;
    int32_t num_nodes;
    const tsr_node* nodes;
    /* One tsr_tensor_flag mask per tensor (ABI 1.0 addition, may be NULL or past struct_size:
     * then nothing is known and every tensor must be treated as TSR_TENSOR_READ_LATER). */
    const uint8_t* tensor_flags;
} tsr_partition;

/* What a backend made of one compiled partition (ABI 1.1). Size-prefixed both ways: the host
 * sets struct_size to its own sizeof and every count to TSR_STAT_UNKNOWN; the plugin writes the
 * counts it keeps, never past the host's struct_size, and sets struct_size to the bytes it
 * filled (its own sizeof when that is smaller). The host reads a count only when it lies within
 * that returned size, so older plugins (smaller struct) and newer ones (larger) both work. */
enum { TSR_STAT_UNKNOWN = -1 };

typedef struct tsr_compile_stats {
    uint32_t struct_size;
    int32_t nodes;          /* partition nodes compiled */
    int32_t steps;          /* executable steps (kernels, library calls) that run them */
    int32_t fused_nodes;    /* nodes folded into another node's step */
    int32_t emulated_nodes; /* nodes run by fallback code (reference kernels, host loops) */
    int32_t reorders;       /* layout conversions the backend added inside the partition */
} tsr_compile_stats;

typedef enum tsr_import_mode {
    TSR_IMPORT_COPY = 0,         /* copy now; the caller may reuse its memory at once */
    TSR_IMPORT_ZERO_COPY_RO = 1, /* use in place, read only */
    TSR_IMPORT_ZERO_COPY_RW = 2  /* use in place, read and written */
} tsr_import_mode;

typedef enum tsr_map_access { TSR_MAP_READ = 1, TSR_MAP_WRITE = 2 } tsr_map_access;

/* The plugin's table. Slots marked [required] must be set. */
typedef struct tsr_plugin_api {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    const char* name;        /* [required] backend name used in config strings, e.g. "cpu" */
    const char* version;     /* plugin version text */
    const char* description; /* one line */

    /* [required] */
    tsr_status (*create_backend)(const tsr_backend_options* options, tsr_backend* out,
                                 tsr_error* err);
    void (*release_backend)(tsr_backend backend);

    int32_t (*device_count)(tsr_backend backend);
    tsr_status (*device_info)(tsr_backend backend, int32_t index, tsr_device_info* out);

    /* [required] Fills `support`; returns an error only for failures of the query itself. */
    tsr_status (*query_op)(tsr_backend backend, const tsr_op_desc* op, tsr_op_support* support);

    /* [required] */
    tsr_status (*compile)(tsr_backend backend, const tsr_partition* partition, tsr_compiled* out,
                          tsr_error* err);
    void (*release_compiled)(tsr_compiled compiled);
    /* [required] One buffer per partition tensor, in id order. With out_event NULL the call
     * returns when the work is done; otherwise it may return early and signal the event. */
    tsr_status (*execute)(tsr_compiled compiled, const tsr_buffer* buffers, int32_t num_buffers,
                          tsr_event* out_event, tsr_error* err);

    /* [required] Memory. A buffer holds bytes; descriptors say how to read them. */
    tsr_status (*buffer_allocate)(tsr_backend backend, int64_t size_bytes, tsr_buffer* out,
                                  tsr_error* err);
    tsr_status (*buffer_import)(tsr_backend backend, void* host, int64_t size_bytes, int32_t mode,
                                tsr_buffer* out, tsr_error* err);
    void (*buffer_release)(tsr_buffer buffer);
    /* Map for host access (NULL slot: not mappable; use the copy slots). */
    tsr_status (*buffer_map)(tsr_buffer buffer, int32_t access, void** host, tsr_error* err);
    tsr_status (*buffer_unmap)(tsr_buffer buffer, void* host, tsr_error* err);
    /* [required] Copies converting layout: any layout of this backend <-> a strided host layout. */
    tsr_status (*copy_to_host)(tsr_backend backend, tsr_buffer src, const tsr_tensor_desc* src_desc,
                               void* host, const tsr_tensor_desc* host_desc, tsr_error* err);
    tsr_status (*copy_from_host)(tsr_backend backend, const void* host,
                                 const tsr_tensor_desc* host_desc, tsr_buffer dst,
                                 const tsr_tensor_desc* dst_desc, tsr_error* err);

    tsr_status (*event_wait)(tsr_event event, tsr_error* err);
    void (*event_release)(tsr_event event);

    /* Optional (ABI 1.1): statistics of a compiled partition, filled as tsr_compile_stats says.
     * A plugin without it (NULL, or a 1.0 table that ends before it) reports none. */
    tsr_status (*compiled_stats)(tsr_compiled compiled, tsr_compile_stats* stats);

    /* Optional (ABI 1.2): the step each node of a compiled partition runs in, written as one
     * int32 per partition node, in node order, into `steps` (num_nodes entries; -1: a step of its
     * own). Nodes sharing a step run as one: it may write their outputs before it has read all
     * of their inputs, so the host's memory plan keeps every tensor they read or write live
     * from the first of them to the last. NULL, a table that ends before it, or TSR_UNSUPPORTED:
     * every node is a step of its own. */
    tsr_status (*compiled_node_steps)(tsr_compiled compiled, int32_t num_nodes, int32_t* steps);

    /* Optional (ABI 1.3): tensors of a compiled partition that may share a buffer, written as one
     * int32 per partition tensor, in id order, into `alias_of` (num_tensors entries): the id of
     * the tensor whose bytes it holds unchanged (a reshape's output its input), or -1. The plugin
     * computes such a tensor whichever buffer it is given, skipping the copy when it is its
     * source's buffer, so the host's memory plan may give both one buffer, kept live until the
     * last use of either. NULL, a table that ends before it, or TSR_UNSUPPORTED: none. */
    tsr_status (*compiled_tensor_aliases)(tsr_compiled compiled, int32_t num_tensors,
                                          int32_t* alias_of);
} tsr_plugin_api;

/* The one exported symbol. Returns NULL when the plugin cannot work here at all (no device, a
 * missing driver), after writing the reason into `err` (host-owned; may be NULL). */
typedef const tsr_plugin_api* (*tsr_plugin_entry_fn)(const tsr_host_api* host, tsr_error* err);

#ifdef __cplusplus
}
#endif
#endif
