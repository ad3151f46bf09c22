/* tessera/c/ops_elementwise.h: parameter structs of the element-wise ops (see tessera/c/ops.h):
 * activation, binary, unary, compare, logical and where. Plain C99; every struct starts with
 * uint32_t struct_size and only grows at the end; enum values are ABI (append only). */
#ifndef TESSERA_C_OPS_ELEMENTWISE_H
#define TESSERA_C_OPS_ELEMENTWISE_H

#include <stdint.h>

#include "tessera/c/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Activation: y = f(x) with f and its parameters a, b from tsr_activation_spec (formulas in
 * tessera/c/ops.h). Inputs: src, and for TSR_ACT_PRELU also slope (rank 1 of extent C = src
 * dim 1, or any shape broadcastable to src). Output: src's shape, dtype and quantisation.
 * Integer tensors (i8/u8 quantised, i16 fixed point such as Q7.8, i32) are computed on their
 * real values and stored rounding to nearest even with saturation. */
typedef struct tsr_activation_params {
    uint32_t struct_size;
    tsr_activation_spec act;
    int32_t propagate_nan; /* 1 (default): NaN in, NaN out; 0: a NaN input gives 0 (CLML) */
    float clipping_value;  /* > 0: y = min(f(x), clipping_value) (zDNN relu/leaky_relu); 0: none */
} tsr_activation_params;

/* Binary operation, numbered as CLML numbers its binary ops. */
typedef enum tsr_binary_op {
    TSR_BINARY_ADD = 0,
    TSR_BINARY_SUB = 1,
    TSR_BINARY_MUL = 2,
    TSR_BINARY_MIN = 3,
    TSR_BINARY_MAX = 4,
    TSR_BINARY_DIV = 5,
    TSR_BINARY_POW = 6 /* a^b (C pow: a negative base needs an integral exponent, else NaN) */
} tsr_binary_op;

/* Binary: out = (alpha*A) op (beta*B) + gamma*C, numpy broadcasting of A and B (CLML form).
 * Inputs: A, B and optionally C (the output's previous content; required when gamma != 0,
 * ignored when gamma == 0; must be broadcastable to the output shape). OpenVX multiply's scale
 * is alpha. CLML's form with B unused, C = (gamma*C) op (alpha*A), is A' = C, B' = A,
 * alpha' = gamma, beta' = alpha, gamma' = 0. Integer tensors are computed exactly on their real
 * values (dequantised), then rounded with `rounding` and narrowed with `overflow` to the output's
 * dtype; an integer division by zero gives 0. */
typedef struct tsr_binary_params {
    uint32_t struct_size;
    int32_t op; /* tsr_binary_op */
    float alpha;
    float beta;
    float gamma;
    int32_t rounding; /* tsr_rounding, integer outputs; default TSR_ROUND_TO_NEAREST_EVEN */
    int32_t overflow; /* tsr_overflow, integer outputs; default TSR_OVERFLOW_SATURATE */
} tsr_binary_params;

typedef enum tsr_unary_op {
    TSR_UNARY_LOG = 0, /* natural logarithm */
    TSR_UNARY_EXP = 1,
    TSR_UNARY_SQRT = 2,
    TSR_UNARY_RSQRT = 3, /* 1/sqrt(x + epsilon) (zDNN invsqrt) */
    TSR_UNARY_NEG = 4,
    TSR_UNARY_ABS = 5,
    TSR_UNARY_ERF = 6,
    TSR_UNARY_FLOOR = 7,
    TSR_UNARY_CEIL = 8,
    TSR_UNARY_ROUND = 9, /* to nearest, halves to even */
    TSR_UNARY_SIGN = 10, /* -1, 0 or 1 (NaN stays NaN) */
    TSR_UNARY_RECIPROCAL = 11,
    TSR_UNARY_SIN = 12, /* trigonometric and hyperbolic functions in radians */
    TSR_UNARY_COS = 13,
    TSR_UNARY_TAN = 14,
    TSR_UNARY_ASIN = 15,
    TSR_UNARY_ACOS = 16,
    TSR_UNARY_ATAN = 17,
    TSR_UNARY_SINH = 18,
    TSR_UNARY_COSH = 19,
    TSR_UNARY_ASINH = 20,
    TSR_UNARY_ACOSH = 21,
    TSR_UNARY_ATANH = 22
} tsr_unary_op;

/* Unary: out = op(src), same shape, dtype and quantisation. Integer tensors as for activation. */
typedef struct tsr_unary_params {
    uint32_t struct_size;
    int32_t op;    /* tsr_unary_op */
    float epsilon; /* TSR_UNARY_RSQRT only; default 0 */
} tsr_unary_params;

typedef enum tsr_compare_op {
    TSR_COMPARE_EQUAL = 0,
    TSR_COMPARE_LESS = 1,
    TSR_COMPARE_LESS_EQUAL = 2,
    TSR_COMPARE_GREATER = 3,
    TSR_COMPARE_GREATER_EQUAL = 4
} tsr_compare_op;

/* Compare: out = A op B, numpy broadcasting. A and B share a dtype (any, bool only for EQUAL);
 * quantised tensors compare their real values. Output: bool of the broadcast shape. Any
 * comparison with a NaN is false. */
typedef struct tsr_compare_params {
    uint32_t struct_size;
    int32_t op; /* tsr_compare_op */
} tsr_compare_params;

typedef enum tsr_logical_op {
    TSR_LOGICAL_AND = 0,
    TSR_LOGICAL_OR = 1,
    TSR_LOGICAL_XOR = 2,
    TSR_LOGICAL_NOT = 3 /* one input */
} tsr_logical_op;

/* Logical: bool inputs A and B (numpy broadcasting), or A alone for NOT; bool output. */
typedef struct tsr_logical_params {
    uint32_t struct_size;
    int32_t op; /* tsr_logical_op */
} tsr_logical_params;

/* Where: inputs condition (bool), X and Y (same dtype and quantisation), all three broadcast
 * numpy style; out = condition ? X : Y, with X's dtype and quantisation. */
typedef struct tsr_where_params {
    uint32_t struct_size;
} tsr_where_params;

#ifdef __cplusplus
}
#endif
#endif
