// node_creators.cpp: the extension's node creation functions (layers and tensor nodes). The
// parameter indices of each node are the positions of its reference arguments in the creator's
// signature (vx_graph excluded; plain values such as pads are not parameters).
#include "graph.hpp"

using namespace openvx;

namespace {

node_parameter input(const char* name, void* ref, vx_enum type = VX_TYPE_TENSOR,
                     bool optional = false) {
    return {name, VX_INPUT, type, optional, static_cast<_vx_reference*>(ref)};
}
node_parameter output(const char* name, void* ref) {
    return {name, VX_OUTPUT, VX_TYPE_TENSOR, false, static_cast<_vx_reference*>(ref)};
}

}  // namespace

VX_API_ENTRY vx_node VX_API_CALL vxConvolutionLayer(
    vx_graph graph, vx_tensor inputs, vx_tensor weights, vx_tensor biases, vx_uint32 pad_x,
    vx_uint32 pad_y, vx_uint8 accumulator_bits, vx_enum overflow_policy, vx_enum rounding_policy,
    vx_enum down_scale_size_rounding, vx_tensor outputs) {
    node_config c;
    c.pad_x = pad_x;
    c.pad_y = pad_y;
    c.accumulator_bits = accumulator_bits;
    c.overflow_policy = overflow_policy;
    c.rounding_policy = rounding_policy;
    c.size_rounding = down_scale_size_rounding;
    return create_node(graph, kernel_kind::convolution,
                       {input("inputs", inputs), input("weights", weights),
                        input("biases", biases, VX_TYPE_TENSOR, true), output("outputs", outputs)},
                       c);
}

VX_API_ENTRY vx_node VX_API_CALL vxFullyConnectedLayer(
    vx_graph graph, vx_tensor inputs, vx_tensor weights, vx_tensor biases, vx_uint32 pad,
    vx_uint8 accumulator_bits, vx_enum overflow_policy, vx_enum rounding_policy,
    vx_enum down_scale_size_rounding, vx_tensor outputs) {
    node_config c;
    c.pad_x = pad;
    c.accumulator_bits = accumulator_bits;
    c.overflow_policy = overflow_policy;
    c.rounding_policy = rounding_policy;
    c.size_rounding = down_scale_size_rounding;
    return create_node(graph, kernel_kind::fully_connected,
                       {input("inputs", inputs), input("weights", weights),
                        input("biases", biases, VX_TYPE_TENSOR, true), output("outputs", outputs)},
                       c);
}

VX_API_ENTRY vx_node VX_API_CALL vxNormalizationLayer(vx_graph graph, vx_tensor inputs,
                                                      vx_enum type, vx_uint32 norm_size,
                                                      vx_float32 alpha, vx_float32 beta,
                                                      vx_tensor outputs) {
    node_config c;
    c.norm_type = type;
    c.norm_size = norm_size;
    c.alpha = alpha;
    c.beta = beta;
    return create_node(graph, kernel_kind::normalization,
                       {input("inputs", inputs), output("outputs", outputs)}, c);
}

VX_API_ENTRY vx_node VX_API_CALL vxPoolingLayer(vx_graph graph, vx_tensor inputs, vx_enum pool_type,
                                                vx_uint32 pool_size_x, vx_uint32 pool_size_y,
                                                vx_uint32 pool_pad_x, vx_uint32 pool_pad_y,
                                                vx_enum rounding, vx_tensor outputs) {
    node_config c;
    c.pool_type = pool_type;
    c.pool_size_x = pool_size_x;
    c.pool_size_y = pool_size_y;
    c.pad_x = pool_pad_x;
    c.pad_y = pool_pad_y;
    c.size_rounding = rounding;
    return create_node(graph, kernel_kind::pooling,
                       {input("inputs", inputs), output("outputs", outputs)}, c);
}

VX_API_ENTRY vx_node VX_API_CALL vxSoftmaxLayer(vx_graph graph, vx_tensor inputs,
                                                vx_tensor outputs) {
    return create_node(graph, kernel_kind::softmax,
                       {input("inputs", inputs), output("outputs", outputs)}, node_config{});
}

VX_API_ENTRY vx_node VX_API_CALL vxActivationLayer(vx_graph graph, vx_tensor inputs, vx_enum func,
                                                   vx_int32 a, vx_int32 b, vx_tensor outputs) {
    node_config c;
    c.function = func;
    c.a = a;
    c.b = b;
    return create_node(graph, kernel_kind::activation,
                       {input("inputs", inputs), output("outputs", outputs)}, c);
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorAddNode(vx_graph graph, vx_tensor in1, vx_tensor in2,
                                                 vx_enum policy, vx_tensor out) {
    node_config c;
    c.overflow_policy = policy;
    return create_node(graph, kernel_kind::tensor_add,
                       {input("in1", in1), input("in2", in2), output("out", out)}, c);
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorSubtractNode(vx_graph graph, vx_tensor in1, vx_tensor in2,
                                                      vx_enum policy, vx_tensor out) {
    node_config c;
    c.overflow_policy = policy;
    return create_node(graph, kernel_kind::tensor_subtract,
                       {input("in1", in1), input("in2", in2), output("out", out)}, c);
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorMultiplyNode(vx_graph graph, vx_tensor in1, vx_tensor in2,
                                                      vx_scalar scale, vx_enum overflow_policy,
                                                      vx_enum rounding_policy, vx_tensor out) {
    node_config c;
    c.overflow_policy = overflow_policy;
    c.rounding_policy = rounding_policy;
    return create_node(graph, kernel_kind::tensor_multiply,
                       {input("in1", in1), input("in2", in2), input("scale", scale, VX_TYPE_SCALAR),
                        output("out", out)},
                       c);
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorTableLookupNode(vx_graph graph, vx_tensor in1, vx_lut lut,
                                                         vx_tensor out) {
    return create_node(graph, kernel_kind::table_lookup,
                       {input("in1", in1), input("lut", lut, VX_TYPE_LUT), output("out", out)},
                       node_config{});
}

VX_API_ENTRY vx_node VX_API_CALL vxTensorTransposeNode(vx_graph graph, vx_tensor in, vx_tensor out,
                                                       vx_uint32 dim1, vx_uint32 dim2) {
    node_config c;
    c.dim1 = dim1;
    c.dim2 = dim2;
    return create_node(graph, kernel_kind::transpose, {input("in", in), output("out", out)}, c);
}
