/*
 * cl_qcom_ml_ops.h -- Tessera's own header for the cl_qcom_ml_ops (CLML) extension, interface
 * generations V1 to V4.
 *
 * Written from the public extension text (v1.1) plus the numeric ABI values settled in
 * shared/notes/clml-facts.md. It is not a copy of any vendor header. Names used by the spec and
 * names used by later client code are both provided where they differ. V1's table layout is the
 * spec's; V2 to V4 are source-compatible with clients of later SDKs (members are used by name):
 * each contains every member of the generation before it, V2 adds clCreateMLOpClipQCOM and V4
 * clCreateMLTensorWithUsageQCOM.
 */
#ifndef TESSERA_CL_QCOM_ML_OPS_H
#define TESSERA_CL_QCOM_ML_OPS_H

#include <stddef.h>
#include <stdint.h>

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- header version */
/* The newest interface generation this header describes. Clients paste the major into names
   (CLMLInterfaceV4QCOM, clGetMLInterfaceV4QCOM) and compare it to pick code paths. */
#define CL_QCOM_ML_OPS_H_MAJOR_VERSION 4
#define CL_QCOM_ML_OPS_H_MINOR_VERSION 0

/* ---------------------------------------------------------------- limits and tokens */
#define CL_TENSOR_MAX_DIMS_QCOM 5
#define CL_TENSOR_MAX_SPATIAL_DIMS_QCOM 3
/* Later SDK spellings of the same limits. */
#define CL_ML_TENSOR_MAX_DIMS_QCOM CL_TENSOR_MAX_DIMS_QCOM
#define CL_ML_TENSOR_MAX_SPATIAL_DIMS_QCOM CL_TENSOR_MAX_SPATIAL_DIMS_QCOM

/* Error codes. The spec's spelling and the later one name the same value. */
#define CL_ML_OP_NOT_ACCELERATED_QCOM -1102
#define CL_OP_NOT_ACCELERATED_QCOM -1102
#define CL_ML_INVALID_TENSOR_LAYOUT_QCOM -1103

/* Op property keys: zero-terminated key/value lists of intptr_t. */
#define CL_ML_OP_PROPERTY_LIST_END_QCOM 0
#define CL_ML_OP_REQUIRE_TUNING_CACHE_HIT_QCOM 1
#define CL_ML_OP_TRAINING_COMPATIBLE_QCOM 2
#define CL_ML_OP_BINARY_OP_UPDATE_PARAMETERS_QCOM 3
/* value: the float epsilon's bit pattern stored in the intptr_t */
#define CL_ML_OP_BATCH_NORM_OP_EPSILON_QCOM 4
/* value: the float constant's bit pattern stored in the intptr_t */
#define CL_ML_OP_PAD_OP_CONSTANT_VALUE_QCOM 5

/* Recordable queues (cl_qcom_recordable_queues). */
#define CL_QUEUE_RECORDABLE_QCOM (1u << 30)

/* ---------------------------------------------------------------- opaque handles */
typedef struct _cl_ml_tensor_qcom* cl_ml_tensor_qcom;
typedef struct _cl_ml_op_qcom* cl_ml_op_qcom;
typedef struct _cl_ml_tuningcache_qcom* cl_ml_tuningcache_qcom;
typedef struct _cl_ml_tensor_mem_desc_set_qcom* cl_ml_tensor_mem_desc_set_qcom;
typedef struct _cl_recording_qcom* cl_recording_qcom;

typedef intptr_t cl_ml_op_properties_qcom;
typedef intptr_t cl_ml_tensor_properties_qcom;

/* ---------------------------------------------------------------- enumerations (int-sized) */
/* In C++ the enumerations get a fixed cl_int base so that any int a client stores (valid or not)
   is a well-defined value that the implementation can reject. Same size as in C. */
#ifdef __cplusplus
#define TESSERA_CLML_ENUM_BASE : cl_int
#else
#define TESSERA_CLML_ENUM_BASE
#endif
typedef enum _cl_tensor_layout_qcom TESSERA_CLML_ENUM_BASE {
  CL_TENSOR_LAYOUT_OPTIMAL_QCOM = 0,
  CL_TENSOR_LAYOUT_NCHW_QCOM = 1,
  CL_TENSOR_LAYOUT_NHWC_QCOM = 2
} cl_tensor_layout_qcom;

typedef enum _cl_tensor_dimensions_qcom TESSERA_CLML_ENUM_BASE {
  CL_TENSOR_DIMENSIONS_4D_QCOM = 0,
  CL_TENSOR_DIMENSIONS_5D_QCOM = 1,
  CL_TENSOR_UNUSED_QCOM = 2
} cl_tensor_dimensions_qcom;

/* Later SDK spellings of the layout and dimension types (same enumerators). */
typedef cl_tensor_layout_qcom cl_ml_tensor_layout_qcom;
typedef cl_tensor_dimensions_qcom cl_ml_tensor_dimensions_qcom;

/* V4: what a tensor is for, given to clCreateMLTensorWithUsageQCOM (weights PARAMETER,
   activations CNN). */
typedef enum _cl_ml_tensor_usage_qcom TESSERA_CLML_ENUM_BASE {
  CL_TENSOR_USAGE_INVALID_QCOM = 0,
  CL_TENSOR_USAGE_UNUSED_QCOM = 1,
  CL_TENSOR_USAGE_PARAMETER_QCOM = 2,
  CL_TENSOR_USAGE_CNN_QCOM = 3,
  CL_TENSOR_USAGE_TNN_QCOM = 4
} cl_ml_tensor_usage_qcom;

typedef enum _cl_gemm_transform_qcom TESSERA_CLML_ENUM_BASE {
  CL_GEMM_TRANSFORM_NONE_QCOM = 0,
  CL_GEMM_TRANSFORM_TRANSPOSE_QCOM = 1
} cl_gemm_transform_qcom;

typedef enum _cl_fc_weight_transform_qcom TESSERA_CLML_ENUM_BASE {
  CL_FC_WEIGHT_TRANSFORM_NONE_QCOM = 0,
  CL_FC_WEIGHT_TRANSFORM_TRANSPOSE_QCOM = 1
} cl_fc_weight_transform_qcom;

typedef enum _cl_arithmetic_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_ARITHMETIC_MODE_FP16_QCOM = 0,
  CL_ARITHMETIC_MODE_FP16_ACC32_QCOM = 1,
  CL_ARITHMETIC_MODE_FP32_QCOM = 2,
  CL_ARITHMETIC_MODE_INT32_QCOM = 3
} cl_arithmetic_mode_qcom;

typedef enum _cl_convolution_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_CONVOLUTION_MODE_CONVOLUTION_QCOM = 0,
  CL_CONVOLUTION_MODE_TRANSPOSE_QCOM = 1,
  CL_CONVOLUTION_MODE_DEPTHWISE_QCOM = 2
} cl_convolution_mode_qcom;

typedef enum _cl_batchnorm_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_BATCHNORM_MODE_SPATIAL_QCOM = 0
} cl_batchnorm_mode_qcom;

typedef enum _cl_activation_function_qcom TESSERA_CLML_ENUM_BASE {
  CL_ACTIVATION_RELU = 0,
  CL_ACTIVATION_TANH = 1,
  CL_ACTIVATION_SIGMOID = 2,
  CL_ACTIVATION_RELU6 = 3,
  CL_ACTIVATION_ELU = 4,
  CL_ACTIVATION_PRELU = 5,
  CL_ACTIVATION_LEAKY_RELU = 6
} cl_activation_function_qcom;

typedef enum _cl_nan_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_DO_NOT_PROPAGATE_NAN_QCOM = 0,
  CL_PROPAGATE_NAN_QCOM = 1
} cl_nan_mode_qcom;

typedef enum _cl_pooling_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_POOLING_MODE_MAX_QCOM = 0,
  CL_POOLING_MODE_AVERAGE_INCLUDE_PADDING_QCOM = 1,
  CL_POOLING_MODE_AVERAGE_EXCLUDE_PADDING_QCOM = 2,
  CL_POOLING_MODE_GLOBAL_MAX_QCOM = 3,
  CL_POOLING_MODE_GLOBAL_AVERAGE_QCOM = 4
} cl_pooling_mode_qcom;

typedef enum _cl_binary_op_qcom TESSERA_CLML_ENUM_BASE {
  CL_TENSOR_OP_ADD_QCOM = 0,
  CL_TENSOR_OP_SUB_QCOM = 1,
  CL_TENSOR_OP_MUL_QCOM = 2,
  CL_TENSOR_OP_MIN_QCOM = 3,
  CL_TENSOR_OP_MAX_QCOM = 4,
  CL_TENSOR_OP_DIV_QCOM = 5
} cl_binary_op_qcom;

typedef enum _cl_softmax_algorithm_qcom TESSERA_CLML_ENUM_BASE {
  CL_SOFTMAX_ALGORITHM_ACCURATE_QCOM = 1
} cl_softmax_algorithm_qcom;

typedef enum _cl_softmax_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_SOFTMAX_MODE_INSTANCE_QCOM = 0,
  CL_SOFTMAX_MODE_CHANNEL_QCOM = 1,
  CL_SOFTMAX_MODE_SPATIAL_QCOM = 2
} cl_softmax_mode_qcom;

typedef enum _cl_pad_mode_qcom TESSERA_CLML_ENUM_BASE {
  CL_PAD_MODE_CONSTANT_QCOM = 0,
  CL_PAD_MODE_REFLECT_QCOM = 1,
  CL_PAD_MODE_SYMMETRIC_QCOM = 2,
  CL_PAD_MODE_EDGE_QCOM = 3
} cl_pad_mode_qcom;

/* V2: clip modes of clCreateMLOpClipQCOM. */
typedef enum _cl_clip_mode_qcom TESSERA_CLML_ENUM_BASE { CL_CLIP_BY_VALUE_QCOM = 0 } cl_clip_mode_qcom;

/* ---------------------------------------------------------------- structures (field order is ABI) */
typedef struct _cl_ml_value_qcom {
  union {
    cl_float fp32;
    cl_half fp16;
    cl_int int32;
  };
  cl_channel_type type;
} cl_ml_value_qcom;

typedef struct _cl_ml_tensor_desc_qcom {
  cl_channel_type data_type;
  cl_tensor_layout_qcom layout;
  cl_uint n;
  cl_uint c;
  cl_uint h;
  cl_uint w;
  cl_uint d;
  cl_tensor_dimensions_qcom num_dimensions;
  /* Byte strides, indexed n, c, h, w, d (the order of the size fields above); all zero = packed.
     The spec calls the field stride_bytes; later clients call it stride. */
  union {
    cl_int stride[CL_TENSOR_MAX_DIMS_QCOM];
    cl_int stride_bytes[CL_TENSOR_MAX_DIMS_QCOM];
  };
} cl_ml_tensor_desc_qcom;

typedef struct _cl_ml_op_gemm_desc_qcom {
  cl_uint m;
  cl_uint n;
  cl_uint k;
  cl_gemm_transform_qcom trans_a;
  cl_gemm_transform_qcom trans_b;
  cl_ml_value_qcom alpha;
  cl_ml_value_qcom beta;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_gemm_desc_qcom;

typedef struct _cl_ml_op_transpose_desc_qcom {
  cl_uint m;
  cl_uint n;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_transpose_desc_qcom;

typedef struct _cl_ml_op_binary_desc_qcom {
  cl_binary_op_qcom binary_op;
  cl_ml_value_qcom alpha;
  cl_ml_value_qcom beta;
  cl_ml_value_qcom gamma;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_binary_desc_qcom;

typedef struct _cl_ml_op_fully_connected_desc_qcom {
  cl_uint first_flatten_axis;
  cl_fc_weight_transform_qcom weight_transform;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_fully_connected_desc_qcom;

typedef struct _cl_ml_op_convolution_desc_qcom {
  cl_convolution_mode_qcom mode;
  cl_uint group_count;
  cl_uint num_dimensions;
  cl_uint input_padding_before[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_uint input_padding_after[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_uint filter_stride[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_uint dilation[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_bitfield flags;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_convolution_desc_qcom;

typedef struct _cl_ml_op_activation_desc_qcom {
  cl_activation_function_qcom function;
  cl_nan_mode_qcom nan_propagation;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_activation_desc_qcom;

typedef struct _cl_ml_op_pooling_desc_qcom {
  cl_pooling_mode_qcom mode;
  cl_uint num_dimensions;
  cl_uint input_padding_before[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_uint input_padding_after[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_uint stride[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_uint window_size[CL_TENSOR_MAX_SPATIAL_DIMS_QCOM];
  cl_nan_mode_qcom nan_propagation;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_pooling_desc_qcom;

typedef struct _cl_ml_op_batchnorm_desc_qcom {
  cl_batchnorm_mode_qcom mode;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_batchnorm_desc_qcom;

typedef struct _cl_ml_op_softmax_desc_qcom {
  cl_softmax_algorithm_qcom algo;
  cl_softmax_mode_qcom mode;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_softmax_desc_qcom;

typedef struct _cl_ml_op_concat_desc_qcom {
  cl_uint axis; /* N 0, C 1, H 2, W 3 */
  cl_uint num_input_tensors;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_concat_desc_qcom;

typedef struct _cl_ml_op_permute_desc_qcom {
  cl_uint len_order;
  cl_uint order[CL_TENSOR_MAX_DIMS_QCOM];
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_permute_desc_qcom;

typedef struct _cl_ml_op_depthtospace_desc_qcom {
  cl_uint block_dim;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_depthtospace_desc_qcom;

typedef struct _cl_ml_op_fill_desc_qcom {
  cl_ml_value_qcom fill_value;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_fill_desc_qcom;

typedef struct _cl_ml_op_resize_bilinear_desc_qcom {
  cl_bool align_corners;
  cl_bool half_pixel_centers;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_resize_bilinear_desc_qcom;

typedef struct _cl_ml_op_pad_desc_qcom {
  cl_pad_mode_qcom pad_mode;
  cl_uint paddings_shape[2];
  cl_uint paddings[8]; /* {left, right, top, bottom, reserved...} */
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_pad_desc_qcom;

/* V2: out = in clamped to [min_value, max_value] element-wise (NaN stays NaN); the bounds use
   the same value-and-type structure as the binary op's scalars. */
typedef struct _cl_ml_op_clip_desc_qcom {
  cl_clip_mode_qcom type;
  cl_ml_value_qcom max_value;
  cl_ml_value_qcom min_value;
  cl_arithmetic_mode_qcom arithmetic_mode;
} cl_ml_op_clip_desc_qcom;

typedef struct _cl_ml_tensor_memory_desc_qcom {
  cl_ml_tensor_qcom tensor;
  cl_mem memory;
} cl_ml_tensor_memory_desc_qcom;
/* The spec's sample names the same structure cl_tensor_memory_desc_qcom. */
typedef cl_ml_tensor_memory_desc_qcom cl_tensor_memory_desc_qcom;

typedef struct _cl_ml_op_array_arg_qcom {
  cl_uint dispatch_index;
  cl_ml_tensor_memory_desc_qcom* tensor_descriptors;
  cl_uint num_tensors;
} cl_ml_op_array_arg_qcom;

/* ---------------------------------------------------------------- recordable queues */
typedef struct _cl_array_arg_qcom {
  cl_uint dispatch_index;
  cl_uint arg_index;
  size_t arg_size;
  const void* arg_value;
} cl_array_arg_qcom;

typedef struct _cl_workgroup_qcom {
  cl_uint dispatch_index;
  const size_t* workgroup_size;
} cl_workgroup_qcom;

typedef struct _cl_offset_qcom {
  cl_uint dispatch_index;
  size_t offsets[3];
} cl_offset_qcom;

typedef struct _cl_array_kernel_exec_info_qcom {
  cl_uint dispatch_index;
  cl_kernel_exec_info param_name;
  size_t size;
  const void* value;
} cl_array_kernel_exec_info_qcom;

extern CL_API_ENTRY cl_recording_qcom CL_API_CALL clNewRecordingQCOM(cl_command_queue queue, cl_int* errcode_ret);
extern CL_API_ENTRY cl_int CL_API_CALL clEndRecordingQCOM(cl_recording_qcom recording);
extern CL_API_ENTRY cl_int CL_API_CALL clRetainRecordingQCOM(cl_recording_qcom recording);
extern CL_API_ENTRY cl_int CL_API_CALL clReleaseRecordingQCOM(cl_recording_qcom recording);
extern CL_API_ENTRY cl_int CL_API_CALL
clEnqueueRecordingQCOM(cl_command_queue queue, cl_recording_qcom recording, size_t num_args,
                       const cl_array_arg_qcom* arg_array, size_t num_svm_args, const cl_array_arg_qcom* svm_arg_array,
                       size_t num_global_offsets, const cl_offset_qcom* global_offset_array,
                       size_t num_global_workgroups, const cl_workgroup_qcom* global_workgroup_array,
                       size_t num_local_workgroups, const cl_workgroup_qcom* local_workgroup_array,
                       size_t num_non_arg_objs, const cl_array_kernel_exec_info_qcom* non_arg_obj_array,
                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);

/* ---------------------------------------------------------------- function pointer types */
typedef cl_int(CL_API_CALL* pfnClCreateMLOpGemmQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                     const cl_ml_op_gemm_desc_qcom*, cl_ml_tensor_qcom,
                                                     cl_ml_tensor_qcom, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                                                     cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpTransposeQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                          const cl_ml_op_transpose_desc_qcom*, cl_ml_tensor_qcom,
                                                          cl_ml_tensor_qcom, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpFullyConnectedQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                               const cl_ml_op_fully_connected_desc_qcom*,
                                                               cl_ml_tensor_qcom input, cl_ml_tensor_qcom weight,
                                                               cl_ml_tensor_qcom bias, cl_ml_tensor_qcom output,
                                                               cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpConvolutionForwardQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                                   const cl_ml_op_convolution_desc_qcom*,
                                                                   cl_ml_tensor_qcom input, cl_ml_tensor_qcom weight,
                                                                   cl_ml_tensor_qcom bias, cl_ml_tensor_qcom output,
                                                                   cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpBatchNormForwardQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                                 const cl_ml_op_batchnorm_desc_qcom*,
                                                                 cl_ml_tensor_qcom input, cl_ml_tensor_qcom mean,
                                                                 cl_ml_tensor_qcom variance, cl_ml_tensor_qcom scale,
                                                                 cl_ml_tensor_qcom bias, cl_ml_tensor_qcom output,
                                                                 cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpActivationForwardQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                                  const cl_ml_op_activation_desc_qcom*,
                                                                  cl_ml_tensor_qcom input, cl_ml_tensor_qcom param,
                                                                  cl_ml_tensor_qcom output, cl_ml_op_qcom*,
                                                                  cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpPoolingForwardQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                               const cl_ml_op_pooling_desc_qcom*,
                                                               cl_ml_tensor_qcom input, cl_ml_tensor_qcom mask,
                                                               cl_ml_tensor_qcom output, cl_ml_op_qcom*,
                                                               cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpFusedConvolutionActivationForwardQCOM)(
    cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_convolution_desc_qcom*,
    const cl_ml_op_activation_desc_qcom*, cl_ml_tensor_qcom input, cl_ml_tensor_qcom weight, cl_ml_tensor_qcom bias,
    cl_ml_tensor_qcom param, cl_ml_tensor_qcom output, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpFusedConvolutionBatchNormForwardQCOM)(
    cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_convolution_desc_qcom*,
    const cl_ml_op_batchnorm_desc_qcom*, cl_ml_tensor_qcom input, cl_ml_tensor_qcom weight, cl_ml_tensor_qcom conv_bias,
    cl_ml_tensor_qcom output, cl_ml_tensor_qcom mean, cl_ml_tensor_qcom variance, cl_ml_tensor_qcom scale,
    cl_ml_tensor_qcom bn_bias, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM)(
    cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_convolution_desc_qcom*,
    const cl_ml_op_batchnorm_desc_qcom*, const cl_ml_op_activation_desc_qcom*, cl_ml_tensor_qcom input,
    cl_ml_tensor_qcom weight, cl_ml_tensor_qcom conv_bias, cl_ml_tensor_qcom output, cl_ml_tensor_qcom param,
    cl_ml_tensor_qcom mean, cl_ml_tensor_qcom variance, cl_ml_tensor_qcom scale, cl_ml_tensor_qcom bn_bias,
    cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpBinaryQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                       const cl_ml_op_binary_desc_qcom*, cl_ml_tensor_qcom a,
                                                       cl_ml_tensor_qcom b, cl_ml_tensor_qcom c, cl_ml_op_qcom*,
                                                       cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpSoftmaxQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                        const cl_ml_op_softmax_desc_qcom*, cl_ml_tensor_qcom input,
                                                        cl_ml_tensor_qcom output, cl_ml_op_qcom*,
                                                        cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpFillQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                     const cl_ml_op_fill_desc_qcom*, cl_ml_tensor_qcom, cl_ml_op_qcom*,
                                                     cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpConcatQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                       const cl_ml_op_concat_desc_qcom*, cl_ml_tensor_qcom* input_list,
                                                       cl_ml_tensor_qcom output, cl_ml_op_qcom*,
                                                       cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpPermuteQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                        const cl_ml_op_permute_desc_qcom*, cl_ml_tensor_qcom input,
                                                        cl_ml_tensor_qcom output, cl_ml_op_qcom*,
                                                        cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpReshapeQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                        cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                                                        cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpDepthToSpaceQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                             const cl_ml_op_depthtospace_desc_qcom*,
                                                             cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                                                             cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpFusedDepthToSpaceActivationQCOM)(
    cl_context, const cl_ml_op_properties_qcom*, const cl_ml_op_depthtospace_desc_qcom*,
    const cl_ml_op_activation_desc_qcom*, cl_ml_tensor_qcom input, cl_ml_tensor_qcom param, cl_ml_tensor_qcom output,
    cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpResizeBilinearQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                               const cl_ml_op_resize_bilinear_desc_qcom*,
                                                               cl_ml_tensor_qcom input, cl_ml_tensor_qcom output,
                                                               cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpPadQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                    const cl_ml_op_pad_desc_qcom*, cl_ml_tensor_qcom input,
                                                    cl_ml_tensor_qcom output, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLOpClipQCOM)(cl_context, const cl_ml_op_properties_qcom*,
                                                     const cl_ml_op_clip_desc_qcom*, cl_ml_tensor_qcom input,
                                                     cl_ml_tensor_qcom output, cl_ml_op_qcom*, cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLTensorWithUsageQCOM)(cl_context, const cl_ml_tensor_properties_qcom*,
                                                              const cl_ml_tensor_desc_qcom*, cl_ml_tensor_usage_qcom,
                                                              cl_ml_tensor_qcom*);
typedef cl_int(CL_API_CALL* pfnClCreateMLTensorQCOM)(cl_context, const cl_ml_tensor_properties_qcom*,
                                                     const cl_ml_tensor_desc_qcom*, cl_ml_tensor_qcom*);
typedef cl_int(CL_API_CALL* pfnClGetMLTensorMemorySizeQCOM)(cl_context, cl_ml_tensor_qcom, cl_uint*);
typedef cl_int(CL_API_CALL* pfnClReleaseMLOpQCOM)(cl_ml_op_qcom);
typedef cl_int(CL_API_CALL* pfnClReleaseMLTensorQCOM)(cl_ml_tensor_qcom);
typedef cl_int(CL_API_CALL* pfnClEnqueueMLOpQCOM)(cl_command_queue, cl_ml_op_qcom, cl_ml_tensor_mem_desc_set_qcom,
                                                  cl_uint, const cl_event*, cl_event*);
typedef cl_int(CL_API_CALL* pfnClEnqueueMLOpImmutableQCOM)(cl_command_queue, cl_ml_op_qcom,
                                                           cl_ml_tensor_mem_desc_set_qcom, cl_uint, const cl_event*,
                                                           cl_event*);
typedef cl_int(CL_API_CALL* pfnClEnqueueRecordingMLOpQCOM)(
    cl_command_queue, cl_recording_qcom, size_t num_args, const cl_array_arg_qcom* arg_array, size_t num_op_args,
    const cl_ml_op_array_arg_qcom* op_arg_array, size_t num_svm_args, const cl_array_arg_qcom* svm_arg_array,
    size_t num_global_offsets, const cl_offset_qcom* global_offset_array, size_t num_global_workgroups,
    const cl_workgroup_qcom* global_workgroup_array, size_t num_local_workgroups,
    const cl_workgroup_qcom* local_workgroup_array, size_t num_non_arg_objs,
    const cl_array_kernel_exec_info_qcom* non_arg_obj_array, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event);
typedef cl_int(CL_API_CALL* pfnClEnqueueReadMLTensorDataQCOM)(cl_command_queue, cl_ml_tensor_qcom src, cl_mem src_mem,
                                                              void* dst_ptr, cl_tensor_layout_qcom dst_layout, cl_uint,
                                                              const cl_event*, cl_event*);
typedef cl_int(CL_API_CALL* pfnClEnqueueWriteMLTensorDataQCOM)(cl_command_queue, void* src_ptr,
                                                               cl_tensor_layout_qcom src_layout, cl_ml_tensor_qcom dst,
                                                               cl_mem dst_mem, cl_uint, const cl_event*, cl_event*);
typedef cl_int(CL_API_CALL* pfnClEnqueueCopyMLTensorDataQCOM)(cl_command_queue, cl_ml_tensor_qcom src, cl_mem src_mem,
                                                              cl_ml_tensor_qcom dst, cl_mem dst_mem, cl_uint,
                                                              const cl_event*, cl_event*);
typedef cl_int(CL_API_CALL* pfnClCreateMLTuningCacheQCOM)(cl_ml_tuningcache_qcom*);
typedef cl_int(CL_API_CALL* pfnClTuneMLOpQCOM)(cl_command_queue, cl_ml_op_qcom, cl_ml_tensor_mem_desc_set_qcom,
                                               cl_ml_tuningcache_qcom, cl_ulong* tuned_execution_time);
typedef cl_int(CL_API_CALL* pfnClSaveMLTuningCacheQCOM)(cl_ml_tuningcache_qcom, size_t len, unsigned char* data,
                                                        size_t* len_ret);
typedef cl_int(CL_API_CALL* pfnClLoadMLTuningCacheQCOM)(cl_ml_tuningcache_qcom, size_t len, unsigned char* data);
typedef cl_int(CL_API_CALL* pfnClReleaseMLTuningCacheQCOM)(cl_ml_tuningcache_qcom);
typedef cl_int(CL_API_CALL* pfnClCreateMLTensorMemoryDescriptorSetQCOM)(cl_ml_tensor_mem_desc_set_qcom*);
typedef cl_int(CL_API_CALL* pfnClReleaseMLTensorMemoryDescriptorSetQCOM)(cl_ml_tensor_mem_desc_set_qcom);
typedef cl_int(CL_API_CALL* pfnClUpdateMLTensorMemoryDescriptorSetQCOM)(cl_ml_tensor_mem_desc_set_qcom,
                                                                        uint32_t num_descriptors,
                                                                        cl_ml_tensor_memory_desc_qcom*);

/* ---------------------------------------------------------------- interface tables */
/* V1's members in V1's slot order (ABI); every later generation starts with them. A macro
   because C has no other way to share a member list; undefined after the tables. */
#define TESSERA_CLML_INTERFACE_V1_MEMBERS                                                                 \
  cl_int majorVersion;                                                                                    \
  cl_int minorVersion;                                                                                    \
  pfnClCreateMLOpGemmQCOM clCreateMLOpGemmQCOM;                                                           \
  pfnClCreateMLOpTransposeQCOM clCreateMLOpTransposeQCOM;                                                 \
  pfnClCreateMLOpFullyConnectedQCOM clCreateMLOpFullyConnectedQCOM;                                       \
  pfnClCreateMLOpConvolutionForwardQCOM clCreateMLOpConvolutionForwardQCOM;                               \
  pfnClCreateMLOpBatchNormForwardQCOM clCreateMLOpBatchNormForwardQCOM;                                   \
  pfnClCreateMLOpActivationForwardQCOM clCreateMLOpActivationForwardQCOM;                                 \
  pfnClCreateMLOpPoolingForwardQCOM clCreateMLOpPoolingForwardQCOM;                                       \
  pfnClCreateMLOpFusedConvolutionActivationForwardQCOM clCreateMLOpFusedConvolutionActivationForwardQCOM; \
  pfnClCreateMLOpFusedConvolutionBatchNormForwardQCOM clCreateMLOpFusedConvolutionBatchNormForwardQCOM;   \
  pfnClCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM                                           \
      clCreateMLOpFusedConvolutionBatchNormActivationForwardQCOM;                                         \
  pfnClCreateMLOpBinaryQCOM clCreateMLOpBinaryQCOM;                                                       \
  pfnClCreateMLOpSoftmaxQCOM clCreateMLOpSoftmaxQCOM;                                                     \
  pfnClCreateMLOpFillQCOM clCreateMLOpFillQCOM;                                                           \
  pfnClCreateMLOpConcatQCOM clCreateMLOpConcatQCOM;                                                       \
  pfnClCreateMLOpPermuteQCOM clCreateMLOpPermuteQCOM;                                                     \
  pfnClCreateMLOpReshapeQCOM clCreateMLOpReshapeQCOM;                                                     \
  pfnClCreateMLOpDepthToSpaceQCOM clCreateMLOpDepthToSpaceQCOM;                                           \
  pfnClCreateMLOpFusedDepthToSpaceActivationQCOM clCreateMLOpFusedDepthToSpaceActivationQCOM;             \
  pfnClCreateMLOpResizeBilinearQCOM clCreateMLOpResizeBilinearQCOM;                                       \
  pfnClCreateMLOpPadQCOM clCreateMLOpPadQCOM;                                                             \
  pfnClCreateMLTensorQCOM clCreateMLTensorQCOM;                                                           \
  pfnClGetMLTensorMemorySizeQCOM clGetMLTensorMemorySizeQCOM;                                             \
  pfnClReleaseMLOpQCOM clReleaseMLOpQCOM;                                                                 \
  pfnClReleaseMLTensorQCOM clReleaseMLTensorQCOM;                                                         \
  pfnClEnqueueMLOpQCOM clEnqueueMLOpQCOM;                                                                 \
  pfnClEnqueueMLOpImmutableQCOM clEnqueueMLOpImmutableQCOM;                                               \
  pfnClEnqueueRecordingMLOpQCOM clEnqueueRecordingMLOpQCOM;                                               \
  pfnClEnqueueReadMLTensorDataQCOM clEnqueueReadMLTensorDataQCOM;                                         \
  pfnClEnqueueWriteMLTensorDataQCOM clEnqueueWriteMLTensorDataQCOM;                                       \
  pfnClEnqueueCopyMLTensorDataQCOM clEnqueueCopyMLTensorDataQCOM;                                         \
  pfnClCreateMLTuningCacheQCOM clCreateMLTuningCacheQCOM;                                                 \
  pfnClTuneMLOpQCOM clTuneMLOpQCOM;                                                                       \
  pfnClSaveMLTuningCacheQCOM clSaveMLTuningCacheQCOM;                                                     \
  pfnClLoadMLTuningCacheQCOM clLoadMLTuningCacheQCOM;                                                     \
  pfnClReleaseMLTuningCacheQCOM clReleaseMLTuningCacheQCOM;                                               \
  pfnClCreateMLTensorMemoryDescriptorSetQCOM clCreateMLTensorMemoryDescriptorSetQCOM;                     \
  pfnClReleaseMLTensorMemoryDescriptorSetQCOM clReleaseMLTensorMemoryDescriptorSetQCOM;                   \
  pfnClUpdateMLTensorMemoryDescriptorSetQCOM clUpdateMLTensorMemoryDescriptorSetQCOM;

typedef struct _CLMLInterfaceV1QCOM {
  TESSERA_CLML_INTERFACE_V1_MEMBERS
} CLMLInterfaceV1QCOM;

/* V2 and V3: V1 plus the clip op. */
typedef struct _CLMLInterfaceV2QCOM {
  TESSERA_CLML_INTERFACE_V1_MEMBERS
  pfnClCreateMLOpClipQCOM clCreateMLOpClipQCOM;
} CLMLInterfaceV2QCOM;

typedef struct _CLMLInterfaceV3QCOM {
  TESSERA_CLML_INTERFACE_V1_MEMBERS
  pfnClCreateMLOpClipQCOM clCreateMLOpClipQCOM;
} CLMLInterfaceV3QCOM;

/* V4: V3 plus tensors created with a usage. */
typedef struct _CLMLInterfaceV4QCOM {
  TESSERA_CLML_INTERFACE_V1_MEMBERS
  pfnClCreateMLOpClipQCOM clCreateMLOpClipQCOM;
  pfnClCreateMLTensorWithUsageQCOM clCreateMLTensorWithUsageQCOM;
} CLMLInterfaceV4QCOM;

#undef TESSERA_CLML_INTERFACE_V1_MEMBERS

/* ---------------------------------------------------------------- acquisition (exported symbols) */
extern CL_API_ENTRY cl_int CL_API_CALL clQueryMLInterfaceVersionsQCOM(cl_int* pMajorVersions, cl_int* pMinorVersions,
                                                                      cl_uint numVersions, cl_uint* pNumVersionsRet);
extern CL_API_ENTRY cl_int CL_API_CALL clGetMLInterfaceQCOM(void* pInterface, cl_int majorVersion, cl_int minorVersion);

#define CL_GET_ML_INTERFACE_QCOM(P_INTERFACE, MAJOR_VER, MINOR_VER) \
  clGetMLInterfaceQCOM((void*)&(P_INTERFACE), MAJOR_VER, MINOR_VER)

/* clGetMLInterfaceV<N>QCOM(minor): the table of generation N, NULL when not offered. */
static inline CLMLInterfaceV1QCOM* clGetMLInterfaceV1QCOM(cl_int minorVersion) {
  CLMLInterfaceV1QCOM* pInterface = NULL;
  cl_int result = CL_GET_ML_INTERFACE_QCOM(pInterface, 1, minorVersion);
  return result == CL_SUCCESS ? pInterface : NULL;
}
static inline CLMLInterfaceV2QCOM* clGetMLInterfaceV2QCOM(cl_int minorVersion) {
  CLMLInterfaceV2QCOM* pInterface = NULL;
  cl_int result = CL_GET_ML_INTERFACE_QCOM(pInterface, 2, minorVersion);
  return result == CL_SUCCESS ? pInterface : NULL;
}
static inline CLMLInterfaceV3QCOM* clGetMLInterfaceV3QCOM(cl_int minorVersion) {
  CLMLInterfaceV3QCOM* pInterface = NULL;
  cl_int result = CL_GET_ML_INTERFACE_QCOM(pInterface, 3, minorVersion);
  return result == CL_SUCCESS ? pInterface : NULL;
}
static inline CLMLInterfaceV4QCOM* clGetMLInterfaceV4QCOM(cl_int minorVersion) {
  CLMLInterfaceV4QCOM* pInterface = NULL;
  cl_int result = CL_GET_ML_INTERFACE_QCOM(pInterface, 4, minorVersion);
  return result == CL_SUCCESS ? pInterface : NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_CL_QCOM_ML_OPS_H */
