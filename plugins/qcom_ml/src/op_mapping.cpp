// op_mapping.cpp: dispatch from Tessera op kinds to the CLML builders, the checks common to all
// ops (dtype, shapes), the activation mapping and the binding helpers.
#include "op_mapping.hpp"

#include <algorithm>
#include <cmath>

#include "tessera/numeric/half.hpp"

#include "op_builder_support.hpp"

namespace tessera::qcom_ml {

namespace detail {

mapped_activation map_activation(const tsr_activation_spec& a) {
    mapped_activation m;
    switch (a.kind) {
        case TSR_ACT_RELU:
            m.function = CL_ACTIVATION_RELU;
            return m;
        case TSR_ACT_RELU6:
            m.function = CL_ACTIVATION_RELU6;
            return m;
        case TSR_ACT_BOUNDED_RELU:
            if (a.a == 6.0f) {
                m.function = CL_ACTIVATION_RELU6;
                return m;
            }
            decline(TSR_REASON_ATTRIBUTE,
                    "bounded_relu with bound " + std::to_string(a.a) +
                        " fused into another op: CLML bounds ReLU at 6 only (RELU6); a standalone "
                        "one is mapped to CLML's clip op");
        case TSR_ACT_CLIP:
            if (a.a == 0.0f && a.b == 6.0f) {
                m.function = CL_ACTIVATION_RELU6;
                return m;
            }
            decline(TSR_REASON_ATTRIBUTE, "clip to [" + std::to_string(a.a) + ", " +
                                              std::to_string(a.b) +
                                              "] fused into another op: CLML's activation "
                                              "descriptor has no bounds (RELU6 is [0, 6]); "
                                              "a standalone clip is mapped to CLML's clip op");
        case TSR_ACT_LEAKY_RELU:
            m.function = CL_ACTIVATION_LEAKY_RELU;
            m.parameter = a.a;
            return m;
        case TSR_ACT_PRELU:
            m.function = CL_ACTIVATION_PRELU;
            m.uses_slope_input = true;
            return m;
        case TSR_ACT_ELU:
            m.function = CL_ACTIVATION_ELU;
            if (a.a != 1.0f) m.parameter = a.a;
            return m;
        case TSR_ACT_TANH:
            if (a.a == 1.0f && a.b == 1.0f) {
                m.function = CL_ACTIVATION_TANH;
                return m;
            }
            decline(TSR_REASON_ATTRIBUTE,
                    "tanh scaled as a*tanh(b*x) with a, b != 1: CLML has plain tanh only");
        case TSR_ACT_SIGMOID:
            m.function = CL_ACTIVATION_SIGMOID;
            return m;
        default:
            break;
    }
    decline(TSR_REASON_ATTRIBUTE,
            "activation kind " + std::to_string(a.kind) +
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

namespace {

/// Whether a PReLU slope (admitted by op::activation: [C], [1] or any shape broadcastable to
/// src) gives every element of one channel the same slope, as CLML's PReLU does (one slope per
/// channel, or one for all). A slope varying along another axis, e.g. [1, 1, 1, W] with W == C,
/// would be read per channel and give wrong answers.
bool per_channel_slope(const tensor_desc& src, const tensor_desc& slope) {
    if (src.rank() < 2 || slope.rank() == 1) return true;  // rank 1: [C] or [1] (descriptor)
    for (int i = 0; i < slope.rank(); ++i) {
        const int axis = src.rank() - slope.rank() + i;
        if (axis != 1 && slope.dim(i) != 1) return false;
    }
    return true;
}

/// Declines a PReLU whose slope is not one per channel (checked by query and compile alike).
void check_prelu_slope(const op_desc& op, const std::vector<tensor_desc>& inputs) {
    const auto* act = op.get_if<op::activation>();
    if (act && act->has_slope() && inputs.size() == 2 && !per_channel_slope(inputs[0], inputs[1])) {
        decline(TSR_REASON_SHAPE, "PReLU slope " + inputs[1].dims().to_string() +
                                      " varies along axes other than the channel (dim 1): "
                                      "CLML's PReLU takes one slope per channel or one for all");
    }
}

}  // namespace

}  // namespace detail

void check_mappable(const op_desc& op, const std::vector<tensor_desc>& inputs,
                    const std::vector<tensor_desc>& outputs) {
    using detail::decline;
    const bool known = std::visit(
        [](const auto& o) {
            using T = std::decay_t<decltype(o)>;
            return std::is_same_v<T, op::conv2d> || std::is_same_v<T, op::fully_connected> ||
                   std::is_same_v<T, op::gemm> || std::is_same_v<T, op::pooling> ||
                   std::is_same_v<T, op::batchnorm> || std::is_same_v<T, op::softmax> ||
                   std::is_same_v<T, op::activation> || std::is_same_v<T, op::binary> ||
                   std::is_same_v<T, op::fill> || std::is_same_v<T, op::concat> ||
                   std::is_same_v<T, op::permute> || std::is_same_v<T, op::transpose> ||
                   std::is_same_v<T, op::reshape> || std::is_same_v<T, op::depth_to_space> ||
                   std::is_same_v<T, op::resize_bilinear> || std::is_same_v<T, op::pad> ||
                   std::is_same_v<T, op::reorder>;
        },
        op.variant());
    if (!known) decline(TSR_REASON_OP_KIND, std::string(op.name()) + " has no CLML V1 op");
    dtype common = dtype::undef;
    auto check_tensor = [&](const tensor_desc& d, const char* role, std::size_t i) {
        if (!channel_type(d.type())) {
            decline(TSR_REASON_DTYPE, std::string(role) + " " + std::to_string(i) + " is " +
                                          std::string(to_string(d.type())) +
                                          ": CLML ops here take f32 or f16");
        }
        if (common == dtype::undef) common = d.type();
        if (d.type() != common)
            decline(TSR_REASON_DTYPE, "CLML ops need one storage type for all tensors");
        std::string why;
        if (!map_shape(d, &why))
            decline(TSR_REASON_SHAPE, std::string(role) + " " + std::to_string(i) + ": " + why);
    };
    for (std::size_t i = 0; i < inputs.size(); ++i) check_tensor(inputs[i], "input", i);
    for (std::size_t i = 0; i < outputs.size(); ++i) check_tensor(outputs[i], "output", i);
    detail::check_prelu_slope(op, inputs);
}

built_op build_op(const build_context& ctx, const op_desc& op, const node_tensors& t) {
    using namespace detail;
    check_prelu_slope(op, t.in_descs);
    if (const auto* o = op.get_if<op::conv2d>()) return build_conv2d(ctx, *o, t);
    if (const auto* o = op.get_if<op::fully_connected>()) return build_fully_connected(ctx, *o, t);
    if (const auto* o = op.get_if<op::gemm>()) return build_gemm(ctx, *o, t);
    if (const auto* o = op.get_if<op::pooling>()) return build_pooling(ctx, *o, t);
    if (const auto* o = op.get_if<op::batchnorm>()) return build_batchnorm(ctx, *o, t);
    if (const auto* o = op.get_if<op::softmax>()) return build_softmax(ctx, *o, t);
    if (const auto* o = op.get_if<op::activation>()) return build_activation(ctx, *o, t);
    if (const auto* o = op.get_if<op::binary>()) return build_binary(ctx, *o, t);
    if (const auto* o = op.get_if<op::fill>()) return build_fill(ctx, *o, t);
    if (const auto* o = op.get_if<op::concat>()) return build_concat(ctx, *o, t);
    if (const auto* o = op.get_if<op::permute>())
        return build_permute(ctx, std::vector<int>(o->order, o->order + o->rank), t);
    if (const auto* o = op.get_if<op::transpose>()) return build_transpose(ctx, *o, t);
    if (op.get_if<op::reshape>()) return build_reshape(ctx, t);
    if (const auto* o = op.get_if<op::depth_to_space>()) return build_depth_to_space(ctx, *o, t);
    if (const auto* o = op.get_if<op::resize_bilinear>()) return build_resize_bilinear(ctx, *o, t);
    if (const auto* o = op.get_if<op::pad>()) return build_pad(ctx, *o, t);
    decline(TSR_REASON_OP_KIND, std::string(op.name()) + " has no CLML V1 op");
}

}  // namespace tessera::qcom_ml
