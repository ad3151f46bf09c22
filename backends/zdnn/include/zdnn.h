/*
 * zdnn.h - C interface of Tessera's zDNN emulator (source compatible with the
 * IBM zDNN 1.2.0 API reference). Types, enums (with the ABI values real zDNN
 * programs are compiled against), structs (same field order), macros and
 * functions. Written from the API reference; plain C, usable from C++.
 */
#ifndef TESSERA_ZDNN_H
#define TESSERA_ZDNN_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* In C++ the enums get a fixed underlying type (int, as in C) so that any value a caller passes
 * is representable and can be validated. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define ZDNN_ENUM_BASE_ : int
#else
#define ZDNN_ENUM_BASE_
#endif

/* ---------------------------------------------------------------- version */
#define ZDNN_VERSION "1.2.0"
#define ZDNN_VERNUM 0x010200 /* 0x[major][minor][patch] */
#define ZDNN_VER_MAJOR 1
#define ZDNN_VER_MINOR 2
#define ZDNN_VER_PATCH 0

/* ------------------------------------------------------------------ enums */
typedef enum zdnn_data_layouts ZDNN_ENUM_BASE_ {
  ZDNN_1D,
  ZDNN_2D,
  ZDNN_2DS,
  ZDNN_3D,
  ZDNN_3DS,
  ZDNN_ZRH,
  ZDNN_4D,
  ZDNN_4DS,
  ZDNN_NHWC,
  ZDNN_NCHW,
  ZDNN_FICO,
  ZDNN_HWCK,
  ZDNN_BIDIR_ZRH,
  ZDNN_BIDIR_FICO
} zdnn_data_layouts;

typedef enum zdnn_data_formats ZDNN_ENUM_BASE_ {
  ZDNN_FORMAT_4DFEATURE = 0,
  ZDNN_FORMAT_4DKERNEL = 1,
  ZDNN_FORMAT_4DWEIGHTS = 2,
  ZDNN_FORMAT_4DGENERIC = 31
} zdnn_data_formats;

typedef enum zdnn_data_types ZDNN_ENUM_BASE_ {
  ZDNN_DLFLOAT16 = 0,
  ZDNN_BINARY_FP32 = 6,
  ZDNN_BINARY_INT8 = 8,
  ZDNN_BINARY_INT32 = 10,
  INT8 = 251,
  INT32 = 252,
  BFLOAT = 253,
  FP16 = 254,
  FP32 = 255
} zdnn_data_types;

typedef enum zdnn_quantized_transform_types ZDNN_ENUM_BASE_ {
  QUANTIZED_DLFLOAT16 = 0,
  QUANTIZED_INT8 = 1,
  QUANTIZED_WEIGHTS_INT8 = 2
} zdnn_quantized_transform_types;

#define ZDNN_WARNING 0x00020000
#define ZDNN_PARAMETER_ERROR 0x00040000
#define ZDNN_DATA_ERROR 0x00100000
#define ZDNN_HW_ERROR 0x000c0000

typedef enum zdnn_status ZDNN_ENUM_BASE_ {
  ZDNN_OK = 0x00000000,
  ZDNN_ELEMENT_RANGE_VIOLATION = ZDNN_WARNING + 0x0001,
  ZDNN_INVALID_SHAPE = ZDNN_PARAMETER_ERROR + 0x0001,
  ZDNN_INVALID_LAYOUT,
  ZDNN_INVALID_TYPE,
  ZDNN_INVALID_FORMAT,
  ZDNN_INVALID_DIRECTION,
  ZDNN_INVALID_CONCAT_INFO,
  ZDNN_INVALID_STRIDE_PADDING,
  ZDNN_INVALID_STRIDES,
  ZDNN_MISALIGNED_PARMBLOCK,
  ZDNN_INVALID_CLIPPING_VALUE,
  ZDNN_INVALID_ADJUSTMENT_FACTOR,
  ZDNN_INVALID_EPSILON,
  ZDNN_INVALID_TRANSFORM_TYPE,
  ZDNN_INVALID_BETA,
  ZDNN_INVALID_GAMMA,
  ZDNN_INVALID_BESSEL_CORRECTION,
  ZDNN_INVALID_SCALE,
  ZDNN_INVALID_OFFSET,
  ZDNN_ALLOCATION_FAILURE = ZDNN_DATA_ERROR + 0x0001,
  ZDNN_INVALID_BUFFER,
  ZDNN_CONVERT_FAILURE,
  ZDNN_INVALID_STATE,
  ZDNN_UNSUPPORTED_AIU_EXCEPTION,
  ZDNN_UNSUPPORTED_PARMBLOCK = ZDNN_HW_ERROR + 0x0001,
  ZDNN_UNAVAILABLE_FUNCTION,
  ZDNN_UNSUPPORTED_FORMAT = ZDNN_HW_ERROR + 0x0010,
  ZDNN_UNSUPPORTED_TYPE,
  ZDNN_EXCEEDS_MDIS,
  ZDNN_EXCEEDS_MTS,
  ZDNN_MISALIGNED_TENSOR,
  ZDNN_MISALIGNED_SAVEAREA,
  ZDNN_FUNC_RC_F000 = ZDNN_HW_ERROR + 0xF000,
  ZDNN_FUNC_RC_F001,
  ZDNN_FUNC_RC_F002,
  ZDNN_FUNC_RC_F003,
  ZDNN_FUNC_RC_F004,
  ZDNN_FUNC_RC_F005,
  ZDNN_FUNC_RC_F006,
  ZDNN_FUNC_RC_F007,
  ZDNN_FUNC_RC_F008,
  ZDNN_FUNC_RC_F009
} zdnn_status;

/* NNPA function codes (z/Architecture NNPA function numbers). */
typedef enum nnpa_function_code ZDNN_ENUM_BASE_ {
  NNPA_QAF = 0,
  NNPA_ADD = 16,
  NNPA_SUB = 17,
  NNPA_MUL = 18,
  NNPA_DIV = 19,
  NNPA_MIN = 20,
  NNPA_MAX = 21,
  NNPA_LOG = 32,
  NNPA_EXP = 33,
  NNPA_SQRT = 34,
  NNPA_INVSQRT = 35,
  NNPA_RELU = 49,
  NNPA_TANH = 50,
  NNPA_SIGMOID = 51,
  NNPA_SOFTMAX = 52,
  NNPA_GELU = 53,
  NNPA_BATCHNORMALIZATION = 64,
  NNPA_MOMENTS = 65,
  NNPA_LAYERNORM = 66,
  NNPA_NORM = 67,
  NNPA_MAXPOOL2D = 80,
  NNPA_AVGPOOL2D = 81,
  NNPA_LSTMACT = 96,
  NNPA_GRUACT = 97,
  NNPA_CONVOLUTION = 112,
  NNPA_MATMUL_OP = 113,
  NNPA_MATMUL_OP_BCAST23 = 114,
  NNPA_MATMUL_OP_BCAST1 = 115,
  NNPA_TRANSFORM = 240,
  NNPA_REDUCE = 241
} nnpa_function_code;

typedef enum nnpa_parmblk_format ZDNN_ENUM_BASE_ {
  NNPA_PARMBLKFORMAT_0 = 0,
  NNPA_PARMBLKFORMAT_1 = 1
} nnpa_parmblk_format;

typedef enum nnpa_data_type ZDNN_ENUM_BASE_ {
  NNPA_DATATYPE_1 = 0,
  NNPA_32_BIT_BINARY_FP_SHORT = 6,
  NNPA_8_BIT_BINARY_INT = 8,
  NNPA_32_BIT_BINARY_INT = 10
} nnpa_data_type;

typedef enum nnpa_layout_format ZDNN_ENUM_BASE_ {
  NNPA_LAYOUTFMT_4DFEATURE = 0,
  NNPA_LAYOUTFMT_4DKERNEL = 1,
  NNPA_LAYOUTFMT_4DWEIGHTS = 2,
  NNPA_LAYOUTFMT_4DGENERIC = 31
} nnpa_layout_format;

typedef enum nnpa_bfp_format ZDNN_ENUM_BASE_ { NNPA_BFPFMT_TINY = 1, NNPA_BFPFMT_SHORT = 2 } nnpa_bfp_format;

/* Function-specific parameter values of the NNPA matmul, softmax and reduce functions. */
typedef enum nnpa_matmul_operations ZDNN_ENUM_BASE_ {
  NNPA_MATMUL_OP_ADDITION = 0,
  NNPA_MATMUL_OP_COMP_HIGH = 1,
  NNPA_MATMUL_OP_COMP_NOT_LOW = 2,
  NNPA_MATMUL_OP_COMP_EQUAL = 3,
  NNPA_MATMUL_OP_COMP_NOT_EQUAL = 4,
  NNPA_MATMUL_OP_COMP_NOT_HIGH = 5,
  NNPA_MATMUL_OP_COMP_LOW = 6
} nnpa_matmul_operations;

typedef enum nnpa_matmul_bcast_operations ZDNN_ENUM_BASE_ {
  NNPA_MATMUL_BCAST_OP_ADDITION = 0,
  NNPA_MATMUL_BCAST_OP_COMP_HIGH = 1,
  NNPA_MATMUL_BCAST_OP_COMP_NOT_LOW = 2,
  NNPA_MATMUL_BCAST_OP_COMP_EQUAL = 3,
  NNPA_MATMUL_BCAST_OP_COMP_NOT_EQUAL = 4,
  NNPA_MATMUL_BCAST_OP_COMP_NOT_HIGH = 5,
  NNPA_MATMUL_BCAST_OP_COMP_LOW = 6
} nnpa_matmul_bcast_operations;

typedef enum nnpa_softmax_act ZDNN_ENUM_BASE_ { NNPA_SOFTMAX_NONE = 0, NNPA_SOFTMAX_LOG = 1 } nnpa_softmax_act;

typedef enum nnpa_reduce_operations ZDNN_ENUM_BASE_ {
  NNPA_REDUCE_OP_MINIMUM = 0,
  NNPA_REDUCE_OP_MINIMUM_IDX = 1,
  NNPA_REDUCE_OP_MAXIMUM = 2,
  NNPA_REDUCE_OP_MAXIMUM_IDX = 3
} nnpa_reduce_operations;

/* Size in bytes of the save area that zdnn_softmax, zdnn_softmax_mask and zdnn_reduce take (NNPA
 * SOFTMAX, REDUCE and TRANSFORM use an 8 KiB function-specific save area). */
#define ZDNN_SOFTMAX_SAVEAREA_SIZE (8 * 1024)
#define ZDNN_8K_SAVEAREA_SIZE (8 * 1024)

/* Bit `pos` of a `field_size`-bit query field, counted from the most significant bit (bit 0). */
#define MSB_BITMASK(field_size, pos) (1u << (((field_size)-1) - (pos)))

/* Query bit fields: bit n (from the left) stands for NNPA data type / layout format / BFP format n,
 * i.e. MSB_BITMASK(16 or 32, n). Written as literals so that C++ accepts them as int enumerators. */
typedef enum zdnn_query_datatypes ZDNN_ENUM_BASE_ {
  QUERY_DATATYPE_INTERNAL1 = (1 << 15),  /* MSB_BITMASK(16, NNPA_DATATYPE_1) */
  QUERY_DATATYPE_BINARY_FP32 = (1 << 9), /* MSB_BITMASK(16, NNPA_32_BIT_BINARY_FP_SHORT) */
  QUERY_DATATYPE_BINARY_INT8 = (1 << 7), /* MSB_BITMASK(16, NNPA_8_BIT_BINARY_INT) */
  QUERY_DATATYPE_BINARY_INT32 = (1 << 5) /* MSB_BITMASK(16, NNPA_32_BIT_BINARY_INT) */
} zdnn_query_datatypes;

typedef enum zdnn_query_layoutfmts ZDNN_ENUM_BASE_ {
  QUERY_LAYOUTFMT_4DFEATURE = (int)(1u << 31), /* MSB_BITMASK(32, NNPA_LAYOUTFMT_4DFEATURE) */
  QUERY_LAYOUTFMT_4DKERNEL = (1 << 30),        /* MSB_BITMASK(32, NNPA_LAYOUTFMT_4DKERNEL) */
  QUERY_LAYOUTFMT_4DWEIGHTS = (1 << 29),       /* MSB_BITMASK(32, NNPA_LAYOUTFMT_4DWEIGHTS) */
  QUERY_LAYOUTFMT_4DGENERIC = (1 << 0)         /* MSB_BITMASK(32, NNPA_LAYOUTFMT_4DGENERIC) */
} zdnn_query_layoutfmts;

typedef enum zdnn_query_bfpfmts ZDNN_ENUM_BASE_ {
  QUERY_BFPFMT_TINY = (1 << 14), /* MSB_BITMASK(16, NNPA_BFPFMT_TINY) */
  QUERY_BFPFMT_SHORT = (1 << 13) /* MSB_BITMASK(16, NNPA_BFPFMT_SHORT) */
} zdnn_query_bfpfmts;

/* Concatenation info for RNN gate tensors: [RNN_TYPE:8][PREV_LAYER:8][USAGE:8][unused:8]. */
typedef uint32_t zdnn_concat_info;

#define BITSHIFT_RNN_TYPE 24
#define BITSHIFT_PREV_LAYER 16
#define BITSHIFT_USAGE 8

#define RNN_TYPE_LSTM (0u << BITSHIFT_RNN_TYPE)
#define RNN_TYPE_GRU (1u << BITSHIFT_RNN_TYPE)
#define PREV_LAYER_UNI (0u << BITSHIFT_PREV_LAYER)
#define PREV_LAYER_NONE PREV_LAYER_UNI
#define PREV_LAYER_BIDIR (1u << BITSHIFT_PREV_LAYER)
#define USAGE_WEIGHTS (0u << BITSHIFT_USAGE)
#define USAGE_HIDDEN_WEIGHTS (1u << BITSHIFT_USAGE)
#define USAGE_BIASES (2u << BITSHIFT_USAGE)
#define USAGE_HIDDEN_BIASES (3u << BITSHIFT_USAGE)

#define CONCAT_RNN_TYPE(info) ((info) & (0xFFu << BITSHIFT_RNN_TYPE))
#define CONCAT_PREV_LAYER(info) ((info) & (0xFFu << BITSHIFT_PREV_LAYER))
#define CONCAT_USAGE(info) ((info) & (0xFFu << BITSHIFT_USAGE))

typedef enum lstm_gru_direction ZDNN_ENUM_BASE_ { FWD, BWD, BIDIR } lstm_gru_direction;

typedef enum zdnn_pool_padding ZDNN_ENUM_BASE_ { VALID_PADDING = 0, SAME_PADDING = 1 } zdnn_pool_padding;

typedef enum zdnn_softmax_act ZDNN_ENUM_BASE_ { SOFTMAX_ACT_NONE = 0, SOFTMAX_ACT_LOG = 1 } zdnn_softmax_act;

typedef enum zdnn_conv2d_act ZDNN_ENUM_BASE_ { CONV2D_ACT_NONE = 0, CONV2D_ACT_RELU = 1 } zdnn_conv2d_act;

typedef enum zdnn_matmul_ops ZDNN_ENUM_BASE_ {
  MATMUL_OP_ADDITION = 0,
  MATMUL_OP_GREATER = 1,
  MATMUL_OP_GREATER_EQUAL = 2,
  MATMUL_OP_EQUAL = 3,
  MATMUL_OP_NOT_EQUAL = 4,
  MATMUL_OP_LESSER_EQUAL = 5,
  MATMUL_OP_LESSER = 6
} zdnn_matmul_ops;

typedef enum zdnn_matmul_bcast_ops ZDNN_ENUM_BASE_ {
  MATMUL_BCAST_OP_ADDITION = 0,
  MATMUL_BCAST_OP_GREATER = 1,
  MATMUL_BCAST_OP_GREATER_EQUAL = 2,
  MATMUL_BCAST_OP_EQUAL = 3,
  MATMUL_BCAST_OP_NOT_EQUAL = 4,
  MATMUL_BCAST_OP_LESSER_EQUAL = 5,
  MATMUL_BCAST_OP_LESSER = 6
} zdnn_matmul_bcast_ops;

typedef enum zdnn_moments_bessel ZDNN_ENUM_BASE_ {
  MOMENTS_BESSEL_POPULATION = 0,
  MOMENTS_BESSEL_SAMPLE = 1
} zdnn_moments_bessel;

typedef enum zdnn_reduce_ops ZDNN_ENUM_BASE_ {
  REDUCE_OP_MINIMUM = 0,
  REDUCE_OP_MINIMUM_IDX = 1,
  REDUCE_OP_MAXIMUM = 2,
  REDUCE_OP_MAXIMUM_IDX = 3
} zdnn_reduce_ops;
typedef zdnn_reduce_ops zdnn_reduction_ops;

/* ---------------------------------------------------------------- structs */
typedef struct zdnn_tensor_desc {
  zdnn_data_layouts layout; /* data layout */
  zdnn_data_formats format; /* internal use only */
  zdnn_data_types type;     /* data type */
  uint32_t dim4;            /* number of elements in outermost dimension */
  uint32_t dim3;            /* ... outer dimension */
  uint32_t dim2;            /* ... inner dimension */
  uint32_t dim1;            /* number of elements in innermost dimension */
} zdnn_tensor_desc;

typedef struct zdnn_ztensor {
  zdnn_tensor_desc* pre_transformed_desc; /* shape before transformation */
  zdnn_tensor_desc* transformed_desc;     /* transformed shape */
  uint64_t buffer_size;                   /* tensor size in bytes */
  void* buffer;                           /* the tensor in memory */
  bool is_transformed;                    /* data in buffer is transformed */
  char reserved[3];                       /* not used, should contain zeros */
  float rec_scale;                        /* quantization scale, stored as reciprocal */
  float offset;                           /* quantization offset */
  char reserved2[20];                     /* not used, should contain zeros */
} zdnn_ztensor;

/* -------------------------------------------------------- support functions */
void zdnn_init(void);
uint32_t zdnn_get_nnpa_max_dim_idx_size(void);
uint32_t zdnn_get_max_for_dim(uint8_t dimension);
uint64_t zdnn_get_nnpa_max_tensor_size(void);
bool zdnn_is_nnpa_installed(void);
bool zdnn_is_nnpa_function_installed(int count, ...);
bool zdnn_is_nnpa_parmblk_fmt_installed(int count, ...);
bool zdnn_is_nnpa_datatype_installed(uint16_t types_bitmask);
bool zdnn_is_nnpa_layout_fmt_installed(uint32_t layout_bitmask);
bool zdnn_is_nnpa_conversion_installed(nnpa_data_type type, uint16_t format_bitmask);
uint32_t zdnn_get_library_version(void);
char* zdnn_get_library_version_str(void);
zdnn_status zdnn_refresh_nnpa_query_result(void);
uint64_t zdnn_getsize_ztensor(const zdnn_tensor_desc* tfrmd_desc);
zdnn_status zdnn_getrange_ztensor(const zdnn_ztensor* ztensor, float* min, float* max);
zdnn_status zdnn_get_max_limit(zdnn_data_types transformed_type, zdnn_data_types pre_transformed_type, void* limit);
zdnn_status zdnn_get_min_limit(zdnn_data_types transformed_type, zdnn_data_types pre_transformed_type, void* limit);
void zdnn_init_pre_transformed_desc(zdnn_data_layouts layout, zdnn_data_types type, zdnn_tensor_desc* pre_tfrmd_desc,
                                    ...);
zdnn_status zdnn_generate_transformed_desc(const zdnn_tensor_desc* pre_tfrmd_desc, zdnn_tensor_desc* tfrmd_desc);
zdnn_status zdnn_generate_quantized_transformed_desc(const zdnn_tensor_desc* pre_tfrmd_desc,
                                                     zdnn_quantized_transform_types transform_type,
                                                     zdnn_tensor_desc* tfrmd_desc);
zdnn_status zdnn_generate_transformed_desc_concatenated(const zdnn_tensor_desc* pre_tfrmd_desc, zdnn_concat_info info,
                                                        zdnn_tensor_desc* tfrmd_desc);
void zdnn_init_ztensor(zdnn_tensor_desc* pre_tfrmd_desc, zdnn_tensor_desc* tfrmd_desc, zdnn_ztensor* output);
zdnn_status zdnn_init_ztensor_with_malloc(zdnn_tensor_desc* pre_tfrmd_desc, zdnn_tensor_desc* tfrmd_desc,
                                          zdnn_ztensor* output);
void zdnn_init_quantized_ztensor(zdnn_tensor_desc* pre_tfrmd_desc, zdnn_tensor_desc* tfrmd_desc, float scale,
                                 float offset, zdnn_ztensor* output);
zdnn_status zdnn_init_quantized_ztensor_with_malloc(zdnn_tensor_desc* pre_tfrmd_desc, zdnn_tensor_desc* tfrmd_desc,
                                                    float scale, float offset, zdnn_ztensor* output);
bool zdnn_is_quantized_ztensor(zdnn_ztensor* ztensor);
void zdnn_reset_ztensor(zdnn_ztensor* ztensor);
zdnn_status zdnn_allochelper_ztensor(zdnn_ztensor* ztensor);
zdnn_status zdnn_free_ztensor_buffer(const zdnn_ztensor* ztensor);
const char* zdnn_get_status_message(zdnn_status status);
zdnn_status zdnn_reshape_ztensor(const zdnn_ztensor* src, zdnn_ztensor* dest);
bool zdnn_is_version_runnable(uint32_t ver_num);
uint32_t zdnn_get_max_runnable_version(void);

/* ---------------------------------------------------------- transformations */
zdnn_status zdnn_transform_ztensor(zdnn_ztensor* ztensor, ...);
zdnn_status zdnn_transform_ztensor_with_saturation(zdnn_ztensor* ztensor, ...);
zdnn_status zdnn_transform_quantized_ztensor(zdnn_ztensor* ztensor, bool saturation_control, int8_t clip_min,
                                             int8_t clip_max, const void* data);
zdnn_status zdnn_transform_origtensor(const zdnn_ztensor* ztensor, void* out_buf);

/* ---------------------------------------------------------------- operations */
zdnn_status zdnn_add(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_sub(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_mul(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_div(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_min(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_max(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_log(const zdnn_ztensor* input, zdnn_ztensor* output);
zdnn_status zdnn_exp(const zdnn_ztensor* input, zdnn_ztensor* output);
zdnn_status zdnn_sqrt(const zdnn_ztensor* input, zdnn_ztensor* output);
zdnn_status zdnn_invsqrt(const zdnn_ztensor* input, float epsilon, zdnn_ztensor* output);

zdnn_status zdnn_relu(const zdnn_ztensor* input, const void* clipping_value, zdnn_ztensor* output);
zdnn_status zdnn_leaky_relu(const zdnn_ztensor* input, const void* clipping_value, float adjustment_factor,
                            zdnn_ztensor* output);
zdnn_status zdnn_tanh(const zdnn_ztensor* input, zdnn_ztensor* output);
zdnn_status zdnn_sigmoid(const zdnn_ztensor* input, zdnn_ztensor* output);
zdnn_status zdnn_softmax(const zdnn_ztensor* input, void* save_area, zdnn_softmax_act act_func, zdnn_ztensor* output);
zdnn_status zdnn_softmax_mask(const zdnn_ztensor* input, void* save_area, zdnn_softmax_act act_func,
                              uint32_t softmax_mask, zdnn_ztensor* output);
zdnn_status zdnn_gelu(const zdnn_ztensor* input, zdnn_ztensor* output);

zdnn_status zdnn_meanreduce2d(const zdnn_ztensor* input, zdnn_ztensor* output);
zdnn_status zdnn_batchnorm(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, const zdnn_ztensor* input_c,
                           zdnn_ztensor* output);
zdnn_status zdnn_norm(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, zdnn_ztensor* output);
zdnn_status zdnn_moments(const zdnn_ztensor* input, zdnn_moments_bessel bessel_correction_type, zdnn_ztensor* output_a,
                         zdnn_ztensor* output_b);
zdnn_status zdnn_layernorm(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, const zdnn_ztensor* input_c,
                           float beta, float gamma, float epsilon, zdnn_ztensor* output);
zdnn_status zdnn_reduce(const zdnn_ztensor* input, void* save_area, zdnn_reduce_ops op_type, zdnn_ztensor* output);

zdnn_status zdnn_matmul_op(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, const zdnn_ztensor* input_c,
                           zdnn_matmul_ops op_type, zdnn_ztensor* output);
zdnn_status zdnn_matmul_bcast_op(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b, const zdnn_ztensor* input_c,
                                 zdnn_matmul_bcast_ops op_type, zdnn_ztensor* output);
zdnn_status zdnn_matmul_transpose_op(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b,
                                     const zdnn_ztensor* input_c, bool transpose_a, bool transpose_b,
                                     zdnn_matmul_ops op_type, zdnn_ztensor* output);
zdnn_status zdnn_quantized_matmul_op(const zdnn_ztensor* input_a, const zdnn_ztensor* input_b,
                                     const zdnn_ztensor* input_c, zdnn_matmul_ops op_type, const int8_t clip_min,
                                     const int8_t clip_max, const bool disable_clipping, const bool dequantize,
                                     const bool pre_computed, void* work_area, zdnn_ztensor* output);

zdnn_status zdnn_lstm(const zdnn_ztensor* input, const zdnn_ztensor* h0, const zdnn_ztensor* c0,
                      const zdnn_ztensor* weights, const zdnn_ztensor* biases, const zdnn_ztensor* hidden_weights,
                      const zdnn_ztensor* hidden_biases, lstm_gru_direction direction, void* work_area,
                      zdnn_ztensor* hn_output, zdnn_ztensor* cf_output);
zdnn_status zdnn_gru(const zdnn_ztensor* input, const zdnn_ztensor* h0, const zdnn_ztensor* weights,
                     const zdnn_ztensor* biases, const zdnn_ztensor* hidden_weights, const zdnn_ztensor* hidden_biases,
                     lstm_gru_direction direction, void* work_area, zdnn_ztensor* hn_output);
zdnn_status zdnn_avgpool2d(const zdnn_ztensor* input, zdnn_pool_padding padding_type, uint32_t kernel_height,
                           uint32_t kernel_width, uint32_t stride_height, uint32_t stride_width, zdnn_ztensor* output);
zdnn_status zdnn_maxpool2d(const zdnn_ztensor* input, zdnn_pool_padding padding_type, uint32_t kernel_height,
                           uint32_t kernel_width, uint32_t stride_height, uint32_t stride_width, zdnn_ztensor* output);
zdnn_status zdnn_conv2d(const zdnn_ztensor* input, const zdnn_ztensor* kernel, const zdnn_ztensor* bias,
                        zdnn_pool_padding padding_type, uint32_t stride_height, uint32_t stride_width,
                        zdnn_conv2d_act act_func, const void* clipping_value, zdnn_ztensor* output);

/*
 * Source compatibility for zdnn_quantized_matmul_op: the spec's usage
 * examples call it with 8 arguments (no clipping/dequantize/pre_computed
 * flags) and with 10 arguments (dequantize, pre_computed; no
 * disable_clipping), as earlier API drafts did. This macro maps those call
 * forms onto the one exported 11-argument function; the missing flags are
 * false. Taking the function's address is unaffected.
 */
#define ZDNN_QMM_SELECT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, NAME, ...) NAME
#define ZDNN_QMM_ARGS11_(a, b, c, op, lo, hi, nc, dq, pc, wa, out) \
  (zdnn_quantized_matmul_op)(a, b, c, op, lo, hi, nc, dq, pc, wa, out)
#define ZDNN_QMM_ARGS10_(a, b, c, op, lo, hi, dq, pc, wa, out) \
  (zdnn_quantized_matmul_op)(a, b, c, op, lo, hi, false, dq, pc, wa, out)
#define ZDNN_QMM_ARGS8_(a, b, c, op, lo, hi, wa, out) \
  (zdnn_quantized_matmul_op)(a, b, c, op, lo, hi, false, false, false, wa, out)
#define zdnn_quantized_matmul_op(...)                                                                                  \
  ZDNN_QMM_SELECT_(__VA_ARGS__, ZDNN_QMM_ARGS11_, ZDNN_QMM_ARGS10_, ZDNN_QMM_BAD_ARG_COUNT_, ZDNN_QMM_ARGS8_,          \
                   ZDNN_QMM_BAD_ARG_COUNT_, ZDNN_QMM_BAD_ARG_COUNT_, ZDNN_QMM_BAD_ARG_COUNT_, ZDNN_QMM_BAD_ARG_COUNT_, \
                   ZDNN_QMM_BAD_ARG_COUNT_, ZDNN_QMM_BAD_ARG_COUNT_, ZDNN_QMM_BAD_ARG_COUNT_)                          \
  (__VA_ARGS__)

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ZDNN_H */
