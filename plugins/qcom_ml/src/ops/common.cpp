// ops/common.cpp: the router with every op file's ops, the activation mapping and the binding
// helpers the builders share.
#include "common.hpp"

#include <algorithm>
#include <cmath>

#include "tessera/numeric/half.hpp"

namespace tessera::plugins::qcom_ml {

mapped_activation map_activation(const activation_spec& a) {
    mapped_activation m;
    switch (a.kind) {
        case activation_kind::relu:
            m.function = CL_ACTIVATION_RELU;
            return m;
        case activation_kind::relu6:
            m.function = CL_ACTIVATION_RELU6;
            return m;
        case activation_kind::bounded_relu:
            if (a.a == 6.0f) {
                m.function = CL_ACTIVATION_RELU6;
                return m;
            }
            decline(TSR_REASON_ATTRIBUTE,
                    "bounded_relu with bound " + std::to_string(a.a) +
                        " fused into another op: CLML bounds ReLU at 6 only (RELU6); a standalone "
                        "one is mapped to CLML's clip op");
        case activation_kind::clip:
            if (a.a == 0.0f && a.b == 6.0f) {
                m.function = CL_ACTIVATION_RELU6;
                return m;
            }
            decline(TSR_REASON_ATTRIBUTE, "clip to [" + std::to_string(a.a) + ", " +
                                              std::to_string(a.b) +
                                              "] fused into another op: CLML's activation "
                                              "descriptor has no bounds (RELU6 is [0, 6]); "
                                              "a standalone clip is mapped to CLML's clip op");
        case activation_kind::leaky_relu:
            m.function = CL_ACTIVATION_LEAKY_RELU;
            m.parameter = a.a;
            return m;
        case activation_kind::prelu:
            m.function = CL_ACTIVATION_PRELU;
            m.uses_slope_input = true;
            return m;
        case activation_kind::elu:
            m.function = CL_ACTIVATION_ELU;
            if (a.a != 1.0f) m.parameter = a.a;
            return m;
        case activation_kind::tanh:
            if (a.a == 1.0f && a.b == 1.0f) {
                m.function = CL_ACTIVATION_TANH;
                return m;
            }
            decline(TSR_REASON_ATTRIBUTE,
                    "tanh scaled as a*tanh(b*x) with a, b != 1: CLML has plain tanh only");
        case activation_kind::sigmoid:
            m.function = CL_ACTIVATION_SIGMOID;
            return m;
        default:
            break;
    }
    decline(TSR_REASON_ATTRIBUTE,
            "activation " + std::string(to_string(a.kind)) +
                " has no CLML function (CLML: relu, relu6, leaky_relu, prelu, elu, tanh, sigmoid)");
}

cl_ml_tensor_qcom unused(const build_context& ctx, dtype t, built_op& b) {
    b.owned_tensors.push_back(create_unused_tensor(ctx.context, channel_type(t)));
    return b.owned_tensors.back().get();
}

cl_ml_tensor_qcom activation_param(const build_context& ctx, const mapped_activation& m,
                                   const node_tensors& t, int slope_input, dtype type,
                                   built_op& b) {
    if (m.uses_slope_input) {
        if (slope_input < 0 || slope_input >= static_cast<int>(t.in.size()))
            decline(TSR_REASON_INVALID, "PReLU without a slope input");
        return t.in[static_cast<std::size_t>(slope_input)];
    }
    if (!m.parameter) return unused(ctx, type, b);
    // One value in an NCHW tensor of its own; memory only when the op is really built.
    const tensor_desc one(shape{1}, dtype::f32);
    if (type != dtype::f32)
        decline(TSR_REASON_DTYPE, "activation parameters are supported for f32 only");
    b.owned_tensors.push_back(create_tensor(ctx.context, one, CL_TENSOR_LAYOUT_NCHW_QCOM));
    cl_ml_tensor_qcom param = b.owned_tensors.back().get();
    if (ctx.fill_queue) {
        cl_int err = CL_SUCCESS;
        const float value = *m.parameter;
        cl_uint bytes = 0;
        check_cl(clml_v1()->clGetMLTensorMemorySizeQCOM(ctx.context, param, &bytes),
                 "clGetMLTensorMemorySizeQCOM");
        b.owned_memory.emplace_back(clCreateBuffer(
            ctx.context, CL_MEM_READ_WRITE, std::max<cl_uint>(bytes, sizeof value), nullptr, &err));
        check_cl(err, "clCreateBuffer (activation parameter)");
        check_cl(clEnqueueWriteBuffer(ctx.fill_queue, b.owned_memory.back().get(), CL_TRUE, 0,
                                      sizeof value, &value, 0, nullptr, nullptr),
                 "clEnqueueWriteBuffer (activation parameter)");
        b.internal_bindings.emplace_back(param, b.owned_memory.back().get());
    }
    return param;
}

cl_ml_tensor_qcom scalar_tensor(const build_context& ctx, float value, dtype type, built_op& b) {
    b.owned_tensors.push_back(
        create_tensor(ctx.context, tensor_desc(shape{1}, type), CL_TENSOR_LAYOUT_NCHW_QCOM));
    cl_ml_tensor_qcom tensor = b.owned_tensors.back().get();
    if (!ctx.fill_queue) return tensor;
    cl_uint bytes = 0;
    check_cl(clml_v1()->clGetMLTensorMemorySizeQCOM(ctx.context, tensor, &bytes),
             "clGetMLTensorMemorySizeQCOM");
    cl_int err = CL_SUCCESS;
    b.owned_memory.emplace_back(
        clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, std::max<cl_uint>(bytes, 4), nullptr, &err));
    check_cl(err, "clCreateBuffer (constant)");
    const std::uint16_t half_bits = numeric::f32_to_f16(value);
    const void* data = type == dtype::f16 ? static_cast<const void*>(&half_bits)
                                          : static_cast<const void*>(&value);
    check_cl(clEnqueueWriteBuffer(ctx.fill_queue, b.owned_memory.back().get(), CL_TRUE, 0,
                                  type == dtype::f16 ? 2 : 4, data, 0, nullptr, nullptr),
             "clEnqueueWriteBuffer (constant)");
    b.internal_bindings.emplace_back(tensor, b.owned_memory.back().get());
    return tensor;
}

void bind_node(built_op& b, const node_tensors& t, const std::vector<int>& skip_inputs) {
    const int nin = static_cast<int>(t.in.size());
    for (int i = 0; i < nin; ++i) {
        bool skip = false;
        for (int s : skip_inputs) skip = skip || s == i;
        if (!skip) b.node_bindings.emplace_back(t.in[static_cast<std::size_t>(i)], i);
    }
    for (std::size_t o = 0; o < t.out.size(); ++o)
        b.node_bindings.emplace_back(t.out[o], nin + static_cast<int>(o));
}

const router& op_routes() {
    static const router routes = [] {
        router r(backend_name);
        for (auto state :
             {&state_conv2d, &state_matmul, &state_pooling, &state_batchnorm, &state_softmax,
              &state_activation, &state_binary, &state_fill, &state_concat, &state_shape,
              &state_resize_bilinear, &state_pad, &state_reorder})
            state(r);
        r.decline_others(
            [](const op_desc& o) { return std::string(o.name()) + " has no CLML V1 op"; });
        return r;
    }();
    return routes;
}

}  // namespace tessera::plugins::qcom_ml
