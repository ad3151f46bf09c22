/* tessera/c/ops_compute.h: parameter structs of the compute ops (see tessera/c/ops.h).
 * Every struct starts with uint32_t struct_size and only grows at the end; enum values are ABI
 * (append only); enums are stored as int32_t, booleans as int32_t 0/1. Input orders are listed
 * per op; logical dims are canonical (images N, C, H, W whatever the memory layout). */
#ifndef TESSERA_C_OPS_COMPUTE_H
#define TESSERA_C_OPS_COMPUTE_H

#include <stdint.h>

#include "tessera/c/ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- shared enums ---------------------------------------------------------------------- */

/* How the spatial padding of conv2d and pooling is chosen.
 * EXPLICIT: pad_top/bottom/left/right as given.
 * SAME (zDNN/TensorFlow): out = ceil(in / stride); total = max((out-1)*stride + k_eff - in, 0),
 *   before = total / 2, after = total - before (the odd element goes to the bottom/right).
 * VALID: no padding; out = ceil((in - k_eff + 1) / stride) = floor((in - k_eff) / stride) + 1. */
typedef enum tsr_padding_mode {
    TSR_PADDING_EXPLICIT = 0,
    TSR_PADDING_SAME = 1,
    TSR_PADDING_VALID = 2
} tsr_padding_mode;

/* Output size rounding with explicit padding (OpenVX down_scale_size_rounding):
 * out = round((in + pad_before + pad_after - k_eff) / stride) + 1 with floor or ceil. With ceil,
 * a last window that would start past the input and its leading padding is dropped (as Caffe and
 * ONNX do), so every window touches the input or the leading padding. */
typedef enum tsr_output_rounding { TSR_OUTPUT_FLOOR = 0, TSR_OUTPUT_CEIL = 1 } tsr_output_rounding;

/* ---- conv2d ---------------------------------------------------------------------------- */

/* Values follow CLML's convolution modes. DIRECT: cross-correlation (no kernel flip). TRANSPOSED
 * (CLML mode TRANSPOSE, a.k.a. deconvolution): the adjoint of the direct convolution with the same
 * parameters; weights are [C_in, C_out/groups, KH, KW]; out = (in-1)*stride - pad_before -
 * pad_after + dil*(k-1) + 1
 * + output_padding (SAME: out = in*stride; VALID: out = (in-1)*stride + dil*(k-1) + 1). */
typedef enum tsr_conv_mode {
    TSR_CONV_DIRECT = 0,
    TSR_CONV_TRANSPOSED = 1,
    TSR_CONV_DEPTHWISE =
        2 /* CLML DEPTHWISE: direct with groups = C (the groups field is ignored) */
} tsr_conv_mode;

/* Inputs, in order: src [N,C,H,W]; weights [O, C/groups, KH, KW] (transposed: [C, O/groups, KH,
 * KW]); bias [O] or per-location [O, OH, OW] when has_bias; bn mean, variance, scale, shift [O]
 * when fuse_batchnorm; PReLU slope [O] (or [1]) when activation.kind == TSR_ACT_PRELU.
 * Order of the epilogue: conv, + bias, batchnorm, activation.
 * Integer semantics: i16 fixed point (OpenVX provisional): each product is rescaled to the output's
 * fixed_point_pos, rounded with `rounding` and narrowed to 16 bits with `overflow`; products
 * accumulate in 64 bits, the bias (converted to the output position) is added, and the sum is
 * narrowed with `overflow`. i8/u8: dequantised (scale, zero point), computed in double, and
 * requantised to the output with `rounding`/`overflow`. */
typedef struct tsr_conv2d_params {
    uint32_t struct_size;
    int32_t mode;         /* tsr_conv_mode */
    int32_t padding_mode; /* tsr_padding_mode */
    int32_t pad_top;
    int32_t pad_bottom;
    int32_t pad_left;
    int32_t pad_right;
    int32_t stride_h;
    int32_t stride_w;
    int32_t dilation_h; /* 1 = dense kernel */
    int32_t dilation_w;
    int32_t groups;           /* 1 = dense; C = depthwise */
    int32_t output_rounding;  /* tsr_output_rounding; direct mode only */
    int32_t output_padding_h; /* transposed only: extra rows at the bottom */
    int32_t output_padding_w; /* transposed only: extra columns at the right */
    int32_t has_bias;         /* bool */
    int32_t fuse_batchnorm;   /* bool: CLML FusedConvBN */
    float bn_epsilon;         /* variance epsilon of the fused batchnorm */
    tsr_activation_spec activation;
    int32_t rounding; /* tsr_rounding for integer types */
    int32_t overflow; /* tsr_overflow for integer types */
} tsr_conv2d_params;

/* ---- fully connected --------------------------------------------------------------------- */

/* Inputs: src [d0, ..., d(r-1)], flattened to [prod(d0..d(a-1)), prod(da..d(r-1))] with
 * a = first_flatten_axis; weights [O, I] ([I, O] when weights_transposed); bias [O] when has_bias;
 * PReLU slope [O] when activation.kind == TSR_ACT_PRELU. Output [d0, ..., d(a-1), O].
 * Integer semantics as conv2d. */
typedef struct tsr_fully_connected_params {
    uint32_t struct_size;
    int32_t first_flatten_axis; /* 1 by default: the batch is dim 0 */
    int32_t weights_transposed; /* bool */
    int32_t has_bias;           /* bool */
    tsr_activation_spec activation;
    int32_t rounding; /* tsr_rounding */
    int32_t overflow; /* tsr_overflow */
} tsr_fully_connected_params;

/* ---- gemm -------------------------------------------------------------------------------- */

/* Inputs: A [M,K] ([K,M] when trans_a), B [K,N] ([N,K] when trans_b), optional C [M,N] or [N]
 * (broadcast over rows). Output D [M,N] = alpha * op(A) * op(B) + beta * C (CLML: C in/out). */
typedef struct tsr_gemm_params {
    uint32_t struct_size;
    float alpha;
    float beta;
    int32_t trans_a; /* bool */
    int32_t trans_b; /* bool */
} tsr_gemm_params;

/* ---- matmul (zDNN matmul_op / matmul_bcast_op / matmul_transpose_op) --------------------- */

/* What is done with the third input C after the product: ADDITION adds C; the comparisons yield
 * 1.0 where (product OP C) holds, else 0.0. Values follow zdnn_matmul_ops order. */
typedef enum tsr_matmul_op {
    TSR_MATMUL_ADDITION = 0,
    TSR_MATMUL_GREATER = 1,
    TSR_MATMUL_GREATER_EQUAL = 2,
    TSR_MATMUL_EQUAL = 3,
    TSR_MATMUL_NOT_EQUAL = 4,
    TSR_MATMUL_LESSER_EQUAL = 5,
    TSR_MATMUL_LESSER = 6
} tsr_matmul_op;

/* Inputs: A [m,n] or stacked [s,m,n] (transpose_a: [n,m] / [s,n,m]); B [n,p] or [s,n,p]
 * (transpose_b: [p,n] / [s,p,n]); optional C [p] or [s,p] (required for comparisons). A 2-D
 * operand is broadcast over the stacks of a 3-D one (zDNN bcast1/bcast23); a [p] C is broadcast
 * over stacks. Output [m,p] or [s,m,p]. */
typedef struct tsr_matmul_params {
    uint32_t struct_size;
    int32_t op;          /* tsr_matmul_op */
    int32_t transpose_a; /* bool */
    int32_t transpose_b; /* bool */
} tsr_matmul_params;

/* zDNN quantized matmul. Inputs: A i8 (scale Sa, zero point Za) or, for on-the-fly quantisation,
 * a floating A that is quantised with a_scale/a_zero_point, rounded to nearest even and clipped to
 * [clip_min, clip_max]; B i8 weights (Sb, Zb); C i8 (Sc, Zc) shaped as for matmul, or, when
 * pre_computed, a floating C already holding the bias term in output units (see the C++ doc).
 * The real result is Y = dq(A) * dq(B) OP dq(C). dequantize: output f32 holding Y (comparisons
 * give 1.0/0.0). Otherwise the output is quantised with out_scale/out_zero_point:
 * q = round(Y / out_scale + out_zero_point) (nearest even), clipped to [-128, 127] unless
 * disable_clipping (then neither rounded nor clipped), stored
 * as f32 holding that integer (zDNN's QUANTIZED_DLFLOAT16 result). */
typedef struct tsr_quantized_matmul_params {
    uint32_t struct_size;
    int32_t op;          /* tsr_matmul_op */
    int32_t transpose_a; /* bool */
    int32_t transpose_b; /* bool */
    int32_t clip_min;    /* on-the-fly quantisation of a floating A */
    int32_t clip_max;
    int32_t disable_clipping; /* bool */
    int32_t dequantize;       /* bool */
    int32_t pre_computed;     /* bool */
    float a_scale;            /* on-the-fly quantisation of a floating A */
    int32_t a_zero_point;
    float out_scale; /* quantised (not dequantised) output */
    int32_t out_zero_point;
} tsr_quantized_matmul_params;

/* ---- pooling ----------------------------------------------------------------------------- */

/* Values follow CLML's pooling modes. AVERAGE_INCLUDE_PADDING divides by the window's positions
 * inside the padded input (explicit padding counts, the ceil-rounding overhang does not);
 * AVERAGE_EXCLUDE_PADDING by the positions inside the input. GLOBAL_* pool all of H x W to 1x1. */
typedef enum tsr_pooling_mode {
    TSR_POOL_MAX = 0,
    TSR_POOL_AVERAGE_INCLUDE_PADDING = 1,
    TSR_POOL_AVERAGE_EXCLUDE_PADDING = 2,
    TSR_POOL_GLOBAL_MAX = 3,
    TSR_POOL_GLOBAL_AVERAGE = 4
} tsr_pooling_mode;

/* Inputs: src [N,C,H,W]. Output [N,C,OH,OW]. Integer averages round with `rounding`. */
typedef struct tsr_pooling_params {
    uint32_t struct_size;
    int32_t mode;         /* tsr_pooling_mode */
    int32_t padding_mode; /* tsr_padding_mode */
    int32_t pad_top;
    int32_t pad_bottom;
    int32_t pad_left;
    int32_t pad_right;
    int32_t kernel_h;
    int32_t kernel_w;
    int32_t stride_h;
    int32_t stride_w;
    int32_t output_rounding; /* tsr_output_rounding */
    int32_t rounding;        /* tsr_rounding */
} tsr_pooling_params;

/* ---- normalisation ----------------------------------------------------------------------- */

/* STATISTICS: y = (x - mean) / sqrt(variance + epsilon) * scale + shift (CLML/ACL); inputs src
 * [N,C,...], mean [C], variance [C], then optionally scale [C] and shift [C] (both or neither).
 * AFFINE (zDNN batchnorm): y = a * x + b; inputs src [N,C,...], a [C], b [C].
 * The channel is logical dim 1. A fused activation follows (PReLU slope [C] as the last input). */
typedef enum tsr_batchnorm_mode {
    TSR_BATCHNORM_STATISTICS = 0,
    TSR_BATCHNORM_AFFINE = 1
} tsr_batchnorm_mode;

typedef struct tsr_batchnorm_params {
    uint32_t struct_size;
    int32_t mode; /* tsr_batchnorm_mode */
    float epsilon;
    tsr_activation_spec activation;
} tsr_batchnorm_params;

/* Local response normalisation, inputs src [N,C,H,W]:
 * y = x / (bias + alpha' * sum(x^2 over the window))^beta, alpha' = alpha / n when
 * alpha_scaled_by_size (OpenVX: n = size across maps, size*size within a map), else alpha.
 * The window (size, odd) is centred; zero padding outside. */
typedef enum tsr_lrn_mode { TSR_LRN_ACROSS_CHANNELS = 0, TSR_LRN_WITHIN_CHANNEL = 1 } tsr_lrn_mode;

typedef struct tsr_lrn_params {
    uint32_t struct_size;
    int32_t mode; /* tsr_lrn_mode */
    int32_t size;
    float alpha;
    float beta;
    float bias;                   /* k; OpenVX uses 1 */
    int32_t alpha_scaled_by_size; /* bool */
} tsr_lrn_params;

/* AXES (common form): mean and variance over dims [axis, rank); y = (x - mean) / sqrt(var + eps)
 * * gamma + beta with optional gamma and beta tensors of shape dims[axis..] (inputs src, [gamma,
 * [beta]]; has_gamma/has_beta say which), or the scalar gamma/beta fields when absent.
 * STATISTICS (zDNN layernorm): inputs src, mean, variance (same rank as src, each dim 1 or equal,
 * e.g. zDNN moments' outputs); y = (x - mean) / sqrt(variance + epsilon) * gamma + beta with the
 * scalar fields. */
typedef enum tsr_layer_norm_mode {
    TSR_LAYER_NORM_AXES = 0,
    TSR_LAYER_NORM_STATISTICS = 1
} tsr_layer_norm_mode;

typedef struct tsr_layer_norm_params {
    uint32_t struct_size;
    int32_t mode; /* tsr_layer_norm_mode */
    int32_t axis; /* AXES: first normalised dim; negative counts from the end */
    float epsilon;
    float gamma;       /* scalar multiplier when no gamma tensor */
    float beta;        /* scalar addend when no beta tensor */
    int32_t has_gamma; /* bool, AXES */
    int32_t has_beta;  /* bool, AXES */
} tsr_layer_norm_params;

/* zDNN norm: inputs a, b of one shape; y = sqrt(sum over `axis` of (b - a)^2), output as the
 * inputs with dim `axis` = 1. zDNN's dimension 1 is the innermost: axis -1 (the default). */
typedef struct tsr_norm_params {
    uint32_t struct_size;
    int32_t axis; /* negative counts from the end */
} tsr_norm_params;

/* ---- reductions -------------------------------------------------------------------------- */

typedef enum tsr_bessel_correction {
    TSR_BESSEL_POPULATION = 0, /* divide by n */
    TSR_BESSEL_SAMPLE = 1      /* divide by n - 1 */
} tsr_bessel_correction;

/* zDNN moments: input src; outputs mean and variance over dims [first_axis, rank), kept as 1s
 * (zDNN: per batch index, first_axis 1). */
typedef struct tsr_moments_params {
    uint32_t struct_size;
    int32_t bessel;     /* tsr_bessel_correction */
    int32_t first_axis; /* negative counts from the end */
} tsr_moments_params;

/* zDNN meanreduce2d: src [N,C,H,W] -> [N,C,1,1], the mean over H and W. */
typedef struct tsr_mean_reduce2d_params {
    uint32_t struct_size;
    int32_t rounding; /* tsr_rounding for integer types */
} tsr_mean_reduce2d_params;

/* zDNN reduce (min, max, their index forms) plus sum, mean, product. The *_IDX forms output i32
 * indices of the first extreme element along the axis. */
typedef enum tsr_reduce_op {
    TSR_REDUCE_MIN = 0,
    TSR_REDUCE_MIN_IDX = 1,
    TSR_REDUCE_MAX = 2,
    TSR_REDUCE_MAX_IDX = 3,
    TSR_REDUCE_SUM = 4,
    TSR_REDUCE_MEAN = 5,
    TSR_REDUCE_PROD = 6
} tsr_reduce_op;

/* Input src; reduces dim `axis` (default -1, zDNN's dimension 1); keep_dims keeps it as 1. */
typedef struct tsr_reduce_params {
    uint32_t struct_size;
    int32_t op;        /* tsr_reduce_op */
    int32_t axis;      /* negative counts from the end */
    int32_t keep_dims; /* bool, default 1 */
    int32_t rounding;  /* tsr_rounding for integer means */
    /* bool, *_IDX forms: the index of the last extreme element instead of the first */
    int32_t select_last_index;
} tsr_reduce_params;

/* CumSum: input src; out[.., i, ..] = sum of src[.., j, ..] along `axis` for j <= i (j < i when
 * exclusive; j >= i (j > i) when reverse). Output like src; integer sums saturate. */
typedef struct tsr_cumsum_params {
    uint32_t struct_size;
    int32_t axis;      /* negative counts from the end */
    int32_t exclusive; /* bool */
    int32_t reverse;   /* bool */
} tsr_cumsum_params;

/* TopK: input src; outputs values (like src) and indices (i32), both src's dims with `axis` of
 * extent k: the k largest (smallest when largest = 0) elements along the axis, in descending
 * (ascending) order when sorted = 1; equal values keep the lower index first. NaN counts as the
 * largest value. */
typedef struct tsr_topk_params {
    uint32_t struct_size;
    int32_t axis;    /* negative counts from the end, default -1 */
    int32_t largest; /* bool, default 1 */
    int32_t sorted;  /* bool, default 1 */
    int64_t k;       /* 0 <= k <= the axis' extent */
} tsr_topk_params;

/* ---- softmax ----------------------------------------------------------------------------- */

/* Softmax over the flattened dims [axis, axis + axis_count) (CLML CHANNEL: axis 1, count 1;
 * INSTANCE: axis 1, count rank-1; SPATIAL: axis 2, count 2; zDNN: axis -1, count 1), computed as
 * exp(x - max) / sum; log: x - max - log(sum), with x scaled by beta first (ACL; 1 by default).
 * mask (zDNN softmax_mask): only the first `mask`
 * elements of each vector take part, the rest output 0 (log: -infinity); 0 = all. */
typedef struct tsr_softmax_params {
    uint32_t struct_size;
    int32_t axis;       /* negative counts from the end */
    int32_t axis_count; /* >= 1 */
    int32_t log;        /* bool: log-softmax (zDNN SOFTMAX_ACT_LOG) */
    uint32_t mask;      /* 0 = no mask */
    float beta;         /* input scale (ACL softmax beta): softmax(beta * x); 1 by default */
} tsr_softmax_params;

#ifdef __cplusplus
}
#endif
#endif
