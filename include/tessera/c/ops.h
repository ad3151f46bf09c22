/* tessera/c/ops.h: op kinds and op parameter structs of the plugin ABI. Every parameter struct
 * starts with uint32_t struct_size and only grows at the end. Enum values are ABI: append only. */
#ifndef TESSERA_C_OPS_H
#define TESSERA_C_OPS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tsr_op_kind {
    TSR_OP_UNDEF = 0,
    /* compute (tessera/c/ops_compute.h) */
    TSR_OP_CONV2D = 1,
    TSR_OP_FULLY_CONNECTED = 2,
    TSR_OP_GEMM = 3,
    TSR_OP_MATMUL = 4,
    TSR_OP_QUANTIZED_MATMUL = 5,
    TSR_OP_POOLING = 6,
    TSR_OP_BATCHNORM = 7,
    TSR_OP_LRN = 8,
    TSR_OP_LAYER_NORM = 9,
    TSR_OP_NORM = 10,
    TSR_OP_MOMENTS = 11,
    TSR_OP_MEAN_REDUCE2D = 12,
    TSR_OP_REDUCE = 13,
    TSR_OP_SOFTMAX = 14,
    TSR_OP_CUMSUM = 15,
    TSR_OP_TOPK = 16,
    /* element-wise (tessera/c/ops_elementwise.h) */
    TSR_OP_ACTIVATION = 20,
    TSR_OP_BINARY = 21,
    TSR_OP_UNARY = 22,
    TSR_OP_COMPARE = 23,
    TSR_OP_LOGICAL = 24,
    TSR_OP_WHERE = 25,
    /* data movement (tessera/c/ops_data.h) */
    TSR_OP_CONCAT = 30,
    TSR_OP_PERMUTE = 31,
    TSR_OP_TRANSPOSE = 32,
    TSR_OP_RESHAPE = 33,
    TSR_OP_DEPTH_TO_SPACE = 34,
    TSR_OP_RESIZE_BILINEAR = 35,
    TSR_OP_PAD = 36,
    TSR_OP_FILL = 37,
    TSR_OP_TABLE_LOOKUP = 38,
    TSR_OP_REORDER = 39, /* layout and dtype conversion, inserted by the graph compiler */
    /* recurrent (tessera/c/ops_rnn.h) */
    TSR_OP_LSTM = 40,
    TSR_OP_GRU = 41,
    /* user-defined kernels, e.g. Myriad custom layers (tessera/c/ops_custom.h) */
    TSR_OP_CUSTOM = 50,
    /* indexing and broadcasting data movement (tessera/c/ops_data.h) */
    TSR_OP_SLICE = 60,
    TSR_OP_GATHER = 61,
    TSR_OP_EXPAND = 62,
    TSR_OP_TILE = 63,
    TSR_OP_GATHER_ELEMENTS = 64
} tsr_op_kind;

/* Activation functions, shared by the activation op and fused activations. f(x) uses a and b:
 * relu max(0,x); relu6 min(max(0,x),6); bounded_relu min(max(0,x),a); leaky_relu x>0?x:a*x;
 * prelu x>0?x:slope[c]*x (slope is an input tensor); elu x>0?x:a*(exp(x)-1);
 * tanh a*tanh(b*x); sigmoid 1/(1+exp(-x)); soft_relu log(1+exp(x)); abs |x|; square x*x;
 * sqrt sqrt(x); linear a*x+b; gelu x*0.5*(1+erf(x/sqrt(2))) (a != 0: tanh approximation);
 * clip min(max(x,a),b); hard_sigmoid min(max(a*x+b,0),1); hard_swish x*min(max(a*x+b,0),1)
 * (ONNX: a = 1/6, b = 0.5); mish x*tanh(log(1+exp(x))); selu x>0 ? b*x : b*a*(exp(x)-1);
 * thresholded_relu x>a ? x : 0; softsign x/(1+|x|). */
typedef enum tsr_activation_kind {
    TSR_ACT_NONE = 0,
    TSR_ACT_RELU = 1,
    TSR_ACT_RELU6 = 2,
    TSR_ACT_BOUNDED_RELU = 3,
    TSR_ACT_LEAKY_RELU = 4,
    TSR_ACT_PRELU = 5,
    TSR_ACT_ELU = 6,
    TSR_ACT_TANH = 7,
    TSR_ACT_SIGMOID = 8,
    TSR_ACT_SOFT_RELU = 9,
    TSR_ACT_ABS = 10,
    TSR_ACT_SQUARE = 11,
    TSR_ACT_SQRT = 12,
    TSR_ACT_LINEAR = 13,
    TSR_ACT_GELU = 14,
    TSR_ACT_CLIP = 15,
    TSR_ACT_HARD_SIGMOID = 16,
    TSR_ACT_HARD_SWISH = 17,
    TSR_ACT_MISH = 18,
    TSR_ACT_SELU = 19,
    TSR_ACT_THRESHOLDED_RELU = 20,
    TSR_ACT_SOFTSIGN = 21
} tsr_activation_kind;

/* An activation with its two parameters; also used for fused activations. */
typedef struct tsr_activation_spec {
    int32_t kind; /* tsr_activation_kind */
    float a;
    float b;
} tsr_activation_spec;

/* Integer arithmetic policies (OpenVX vx_round_policy_e / vx_convert_policy_e). */
typedef enum tsr_rounding { TSR_ROUND_TO_ZERO = 0, TSR_ROUND_TO_NEAREST_EVEN = 1 } tsr_rounding;
typedef enum tsr_overflow { TSR_OVERFLOW_WRAP = 0, TSR_OVERFLOW_SATURATE = 1 } tsr_overflow;

/* Reorder: copy with layout and/or dtype conversion; input and output differ only in layout,
 * dtype and quantisation. */
typedef struct tsr_reorder_params {
    uint32_t struct_size;
    int32_t rounding; /* tsr_rounding for integer outputs */
    int32_t overflow; /* tsr_overflow for integer outputs */
} tsr_reorder_params;

#ifdef __cplusplus
}
#endif

#include "tessera/c/ops_compute.h"
#include "tessera/c/ops_custom.h"
#include "tessera/c/ops_data.h"
#include "tessera/c/ops_elementwise.h"
#include "tessera/c/ops_rnn.h"

#endif
