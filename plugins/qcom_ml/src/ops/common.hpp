// ops/common.hpp: what the op files share: helpers for the builders (activation mapping, CLML
// values, arithmetic mode, op properties, declines) and the functions stating each file's ops on
// the router.
#pragma once

#include <CL/cl_qcom_ml_ops.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "../backend.hpp"
#include "../layouts.hpp"
#include "built_op.hpp"

namespace tessera::plugins::qcom_ml {

[[noreturn]] inline void decline(tsr_reason why, const std::string& text) {
    throw op_declined(why, text);
}

inline cl_ml_value_qcom f32_value(float v) {
    cl_ml_value_qcom out;
    std::memset(&out, 0, sizeof out);
    out.fp32 = v;
    out.type = CL_FLOAT;
    return out;
}

/// CLML computes f32 tensors in FP32 and f16 tensors with f32 accumulation.
inline cl_arithmetic_mode_qcom arithmetic_for(dtype t) {
    return t == dtype::f16 ? CL_ARITHMETIC_MODE_FP16_ACC32_QCOM : CL_ARITHMETIC_MODE_FP32_QCOM;
}

/// A float carried in an op property (its bit pattern in the intptr_t).
inline cl_ml_op_properties_qcom float_property(float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return static_cast<cl_ml_op_properties_qcom>(bits);
}

/// A Tessera activation as a CLML activation function, plus the parameter value CLML must be
/// given through a parameter tensor (leaky ReLU slope, ELU alpha) when it differs from CLML's
/// default.
struct mapped_activation {
    cl_activation_function_qcom function = CL_ACTIVATION_RELU;
    bool uses_slope_input = false;   ///< PReLU: the slope is a node input
    std::optional<float> parameter;  ///< an internal parameter tensor holding this value
};

/// The exact CLML form of `a`, or op_declined.
mapped_activation map_activation(const activation_spec& a);

/// The activation descriptor for a mapped activation.
inline cl_ml_op_activation_desc_qcom activation_desc(const mapped_activation& m, bool propagate_nan,
                                                     dtype t) {
    return {m.function, propagate_nan ? CL_PROPAGATE_NAN_QCOM : CL_DO_NOT_PROPAGATE_NAN_QCOM,
            arithmetic_for(t)};
}

/// The parameter tensor of an activation: the node's slope input, an internal 1-value tensor,
/// or an unused tensor.
cl_ml_tensor_qcom activation_param(const build_context& ctx, const mapped_activation& m,
                                   const node_tensors& t, int slope_input, dtype type, built_op& b);

/// An internal one-value tensor of storage type `type` holding `value` (memory only when the op
/// is really built, i.e. with a fill queue).
cl_ml_tensor_qcom scalar_tensor(const build_context& ctx, float value, dtype type, built_op& b);

/// An unused tensor owned by the op ("no bias").
cl_ml_tensor_qcom unused(const build_context& ctx, dtype t, built_op& b);

/// Binds every node input and output (inputs first) except the inputs listed in `skip`.
void bind_node(built_op& b, const node_tensors& t, const std::vector<int>& skip_inputs = {});

/// Runs a CLML creator that writes an op handle; stores the op in b.op.
template <typename Create>
void create(built_op& b, const char* what, Create&& creator) {
    cl_ml_op_qcom op = nullptr;
    check_cl(creator(&op), what);
    b.op = ml_op_handle(op);
}

/// Absolute axis for a possibly negative one.
inline int absolute_axis(int axis, int rank) {
    return axis < 0 ? axis + rank : axis;
}

/// States an op built by `build`; its queries are answered by probing that build on CLML.
template <typename Op>
void state_built(router& r,
                 built_op (*build)(const build_context&, const Op&, const node_tensors&)) {
    r.state<Op>([](const Op&, const sdk::op_query& q,
                   const qcom_ml_backend& backend) { return backend.answer_by_probing(q); },
                [build](const Op& o, const build_context& ctx, const node_tensors& t) {
                    return std::make_unique<built_op>(build(ctx, o, t));
                });
}

// One function per op file (op_routes() calls them all once).
void state_conv2d(router& r);           // conv2d
void state_matmul(router& r);           // fully_connected, gemm
void state_pooling(router& r);          // pooling
void state_batchnorm(router& r);        // batchnorm
void state_softmax(router& r);          // softmax
void state_activation(router& r);       // activation
void state_binary(router& r);           // binary
void state_fill(router& r);             // fill
void state_concat(router& r);           // concat
void state_shape(router& r);            // permute, transpose, reshape, depth_to_space
void state_resize_bilinear(router& r);  // resize_bilinear
void state_pad(router& r);              // pad
void state_reorder(router& r);          // reorder (OPTIMAL to row-major copies)

}  // namespace tessera::plugins::qcom_ml
