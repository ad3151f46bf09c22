/* VX/vx_khr_cnn.h: the OpenVX Neural Network extension, provisional 1.0 (KHR cnn): tensors,
 * views, addressing, the convolutional network layers and the tensor nodes.
 * Numeric values the provisional text leaves open are the ones later standardised (see the
 * README); its typos are fixed: vxCreateTensorAddressing takes the dimensions array,
 * vxPoolingLayer has pool_size_y, vxTensorTransposeNode returns vx_node. */
#ifndef VX_KHR_CNN_H
#define VX_KHR_CNN_H

#include <VX/vx.h>

#define OPENVX_KHR_CNN "vx_khr_cnn"

#ifdef __cplusplus
extern "C" {
#endif

/* Object type ids. VX_TYPE_TENSOR is the standardised value; the provisional text names no type
 * for views and addressing objects: these two are this implementation's. */
enum vx_cnn_type_e {
    VX_TYPE_TENSOR = 0x815,
    VX_TYPE_TENSOR_VIEW = 0x8F0,
    VX_TYPE_TENSOR_ADDRESSING = 0x8F1
};

/* Enumeration type ids of the extension's enumerations. */
enum vx_cnn_enum_e {
    VX_ENUM_CONVOLUTIONAL_NETWORK_ROUNDING_TYPE = 0x1A,
    VX_ENUM_CONVOLUTIONAL_NETWORK_POOL_TYPE = 0x1B,
    VX_ENUM_CONVOLUTIONAL_NETWORK_NORM_TYPE = 0x1C,
    VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC = 0x1D
};

typedef struct _vx_tensor_t* vx_tensor;
typedef struct _vx_tensor_addressing_t* vx_tensor_addressing;
typedef struct _vx_tensor_view_t* vx_tensor_view;

/* Context attribute: the largest number of tensor dimensions supported (a vx_size). */
enum vx_cnn_context_attribute_e {
    VX_CONTEXT_MAX_TENSOR_DIMENSIONS = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_CONTEXT) + 0xE
};
/* The spelling the provisional introduction uses for the same attribute. */
#define VX_CONTEXT_TENSOR_MAX_DIMENSION VX_CONTEXT_MAX_TENSOR_DIMENSIONS

/* Tensor attributes. */
enum vx_tensor_attribute_e {
    VX_TENSOR_NUM_OF_DIMS = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_TENSOR) + 0x0, /* vx_size */
    VX_TENSOR_DIMS = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_TENSOR) + 0x1,   /* vx_size[] */
    VX_TENSOR_DATA_TYPE = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_TENSOR) + 0x2, /* vx_enum */
    VX_TENSOR_FIXED_POINT_POS = VX_ATTRIBUTE_BASE(VX_ID_KHRONOS, VX_TYPE_TENSOR) + 0x4 /* vx_uint8 */
};

enum vx_convolutional_network_activation_func_e {
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LOGISTIC =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x0,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_HYPERBOLIC_TAN =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x1,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_RELU =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x2,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_BRELU =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x3,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SOFTRELU =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x4,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_ABS =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x5,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQUARE =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x6,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_SQRT =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x7,
    VX_CONVOLUTIONAL_NETWORK_ACTIVATION_LINEAR =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ACTIVATION_FUNC) + 0x8
};

enum vx_convolutional_network_norm_type_e {
    VX_CONVOLUTIONAL_NETWORK_NORM_SAME_MAP =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_NORM_TYPE) + 0x0,
    VX_CONVOLUTIONAL_NETWORK_NORM_ACROSS_MAPS =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_NORM_TYPE) + 0x1
};

enum vx_convolutional_network_pooling_type_e {
    VX_CONVOLUTIONAL_NETWORK_POOLING_MAX =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_POOL_TYPE) + 0x0,
    VX_CONVOLUTIONAL_NETWORK_POOLING_AVG =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_POOL_TYPE) + 0x1
};

enum vx_convolutional_networks_rounding_type_e {
    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_FLOOR =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ROUNDING_TYPE) + 0x0,
    VX_CONVOLUTIONAL_NETWORK_DS_SIZE_ROUNDING_CEILING =
        VX_ENUM_BASE(VX_ID_KHRONOS, VX_ENUM_CONVOLUTIONAL_NETWORK_ROUNDING_TYPE) + 0x1
};

/* Layers */
VX_API_ENTRY vx_node VX_API_CALL vxConvolutionLayer(
    vx_graph graph, vx_tensor inputs, vx_tensor weights, vx_tensor biases, vx_uint32 pad_x,
    vx_uint32 pad_y, vx_uint8 accumulator_bits, vx_enum overflow_policy, vx_enum rounding_policy,
    vx_enum down_scale_size_rounding, vx_tensor outputs);
VX_API_ENTRY vx_node VX_API_CALL vxFullyConnectedLayer(
    vx_graph graph, vx_tensor inputs, vx_tensor weights, vx_tensor biases, vx_uint32 pad,
    vx_uint8 accumulator_bits, vx_enum overflow_policy, vx_enum rounding_policy,
    vx_enum down_scale_size_rounding, vx_tensor outputs);
VX_API_ENTRY vx_node VX_API_CALL vxNormalizationLayer(vx_graph graph, vx_tensor inputs,
                                                      vx_enum type, vx_uint32 norm_size,
                                                      vx_float32 alpha, vx_float32 beta,
                                                      vx_tensor outputs);
VX_API_ENTRY vx_node VX_API_CALL vxPoolingLayer(vx_graph graph, vx_tensor inputs,
                                                vx_enum pool_type, vx_uint32 pool_size_x,
                                                vx_uint32 pool_size_y, vx_uint32 pool_pad_x,
                                                vx_uint32 pool_pad_y, vx_enum rounding,
                                                vx_tensor outputs);
VX_API_ENTRY vx_node VX_API_CALL vxSoftmaxLayer(vx_graph graph, vx_tensor inputs,
                                                vx_tensor outputs);
VX_API_ENTRY vx_node VX_API_CALL vxActivationLayer(vx_graph graph, vx_tensor inputs, vx_enum func,
                                                   vx_int32 a, vx_int32 b, vx_tensor outputs);

/* Tensors */
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensor(vx_context context, vx_uint32 num_of_dims,
                                                  vx_uint32* sizes, vx_enum data_format,
                                                  vx_uint8 fixed_point_pos);
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateVirtualTensor(vx_graph graph, vx_uint32 num_of_dims,
                                                         vx_uint32* sizes, vx_enum data_format,
                                                         vx_uint8 fixed_point_pos);
VX_API_ENTRY vx_tensor_view VX_API_CALL vxCreateTensorView(vx_context context,
                                                           vx_uint32* view_array_start,
                                                           vx_uint32* view_array_end,
                                                           vx_uint8 numViewDimensions);
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensorFromView(vx_tensor tensor, vx_tensor_view view);
VX_API_ENTRY vx_tensor_addressing VX_API_CALL vxCreateTensorAddressing(
    vx_context context, vx_uint32* addressing_array_dimension, vx_uint32* addressing_array_stride,
    vx_uint8 numViewDimensions);
VX_API_ENTRY vx_status VX_API_CALL vxCopyTensorPatch(vx_tensor tensor, vx_tensor_view view,
                                                     vx_tensor_addressing user_addr,
                                                     void* user_ptr, vx_enum usage,
                                                     vx_enum user_mem_type);
VX_API_ENTRY vx_object_array VX_API_CALL vxCreateImageObjectArrayFromTensor(
    vx_tensor tensor, vx_rectangle_t rect, vx_uint32 array_size, vx_uint32 stride,
    vx_df_image image_format);
VX_API_ENTRY vx_status VX_API_CALL vxQueryTensor(vx_tensor tensor, vx_enum attribute, void* ptr,
                                                 vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensor(vx_tensor* tensor);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensorView(vx_tensor_view* tensor_view);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensorAddressing(vx_tensor_addressing* tensor_addr);

/* Tensor nodes */
VX_API_ENTRY vx_node VX_API_CALL vxTensorAddNode(vx_graph graph, vx_tensor in1, vx_tensor in2,
                                                 vx_enum policy, vx_tensor out);
VX_API_ENTRY vx_node VX_API_CALL vxTensorSubtractNode(vx_graph graph, vx_tensor in1,
                                                      vx_tensor in2, vx_enum policy,
                                                      vx_tensor out);
VX_API_ENTRY vx_node VX_API_CALL vxTensorMultiplyNode(vx_graph graph, vx_tensor in1,
                                                      vx_tensor in2, vx_scalar scale,
                                                      vx_enum overflow_policy,
                                                      vx_enum rounding_policy, vx_tensor out);
VX_API_ENTRY vx_node VX_API_CALL vxTensorTableLookupNode(vx_graph graph, vx_tensor in1,
                                                         vx_lut lut, vx_tensor out);
VX_API_ENTRY vx_node VX_API_CALL vxTensorTransposeNode(vx_graph graph, vx_tensor in,
                                                       vx_tensor out, vx_uint32 dim1,
                                                       vx_uint32 dim2);

#ifdef __cplusplus
}
#endif

#endif /* VX_KHR_CNN_H */
