/* tessera/c/tensor_desc.h: plain-C tensor descriptor shared by the front-end and plugins.
 * Dimensions are logical and in canonical order (N, C, [D,] H, W for images; any order for
 * generic N-D tensors); the layout says how they are laid out in memory. */
#ifndef TESSERA_C_TENSOR_DESC_H
#define TESSERA_C_TENSOR_DESC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_MAX_DIMS 8

typedef enum tsr_dtype {
    TSR_DTYPE_UNDEF = 0,
    TSR_F32 = 1,
    TSR_F16 = 2,
    TSR_BF16 = 3,
    TSR_DLFLOAT16 = 4, /* IBM zAIU 16-bit: 1 sign, 6 exponent (bias 31), 9 fraction bits */
    TSR_I8 = 5,        /* quantised: real = scale * (q - zero_point) */
    TSR_U8 = 6,        /* quantised: real = scale * (q - zero_point) */
    TSR_I16 = 7,       /* fixed point: real = q / 2^fixed_point_pos (Q7.8 when pos = 8) */
    TSR_I32 = 8,
    TSR_BOOL = 9,
    TSR_I64 = 10, /* plain 64-bit integer (indices, shapes); never quantised */
    TSR_F64 = 11, /* IEEE 754 binary64 */
    TSR_U16 = 12, /* plain unsigned integers; never quantised */
    TSR_U32 = 13,
    TSR_U64 = 14
} tsr_dtype;

/* Semantic name of one dimension. */
typedef enum tsr_dim_label {
    TSR_DIM_ANY = 0, /* generic N-D axis */
    TSR_DIM_N = 1,
    TSR_DIM_C = 2,
    TSR_DIM_D = 3,
    TSR_DIM_H = 4,
    TSR_DIM_W = 5
} tsr_dim_label;

typedef enum tsr_layout_kind {
    TSR_LAYOUT_STRIDED = 0, /* strides[] (in elements) are valid */
    TSR_LAYOUT_ANY = 1,     /* the backend chooses; it answers with a concrete layout */
    TSR_LAYOUT_OPAQUE = 2   /* backend-private; only that backend can read it */
} tsr_layout_kind;

/* A backend-private layout, e.g. channel blocks of 16 or zDNN sticks. Two opaque layouts are the
 * same when backend and format agree; size_bytes is what a buffer of it needs. */
typedef struct tsr_opaque_layout {
    char backend[24]; /* owning backend's name, NUL terminated */
    char format[40];  /* backend-defined format name, e.g. "nChw16c" */
    int64_t size_bytes;
} tsr_opaque_layout;

typedef struct tsr_tensor_desc {
    uint32_t struct_size; /* sizeof(tsr_tensor_desc) of the writer */
    int32_t rank;
    int64_t dims[TSR_MAX_DIMS];
    int32_t labels[TSR_MAX_DIMS];  /* tsr_dim_label per dimension */
    int32_t dtype;                 /* tsr_dtype */
    float scale;                   /* i8/u8 quantisation */
    int32_t zero_point;            /* i8/u8 quantisation */
    int32_t fixed_point_pos;       /* i16 fixed point */
    int32_t layout_kind;           /* tsr_layout_kind */
    int64_t strides[TSR_MAX_DIMS]; /* elements; for TSR_LAYOUT_STRIDED */
    int64_t offset;                /* elements from the buffer start; views */
    tsr_opaque_layout opaque;      /* for TSR_LAYOUT_OPAQUE */
} tsr_tensor_desc;

#ifdef __cplusplus
}
#endif
#endif
