// op_mapping.cpp: routing rules of the cpu plugin (see op_mapping.hpp).
#include "op_mapping.hpp"

#include <tessera/cpu/functions/conv2d.hpp>
#include <tessera/cpu/functions/pooling.hpp>

#include "blocked_layout.hpp"

namespace tessera::cpu_plugin {

namespace {

bool all_f32(const std::vector<tensor_desc>& ds) {
    for (const auto& d : ds)
        if (d.type() != dtype::f32) return false;
    return true;
}

std::vector<std::int64_t> dims_of(const tensor_desc& d) {
    std::vector<std::int64_t> v;
    for (int i = 0; i < d.rank(); ++i) v.push_back(d.dim(i));
    return v;
}

route_choice reference_because(std::string why) {
    return {route::reference, TSR_REASON_ATTRIBUTE, std::move(why)};
}

route_choice conv_route(const op::conv2d& c, const std::vector<tensor_desc>& in,
                        const tensor_desc& out) {
    if (c.mode == TSR_CONV_TRANSPOSED) return reference_because("transposed convolution");
    if (!all_f32(in)) return reference_because("integer or 16-bit convolution");
    const int bias = c.slots().bias;
    if (bias >= 0 && in[static_cast<std::size_t>(bias)].rank() != 1)
        return reference_because("per-location bias [O, OH, OW]: the runtime adds O values");
    cpu::ActivationInfo act;
    if (!to_runtime(c.activation, act)) return reference_because("fused activation");
    const cpu::Conv2dGeometry geo = runtime_geometry(c, in[0], in[1]);
    const auto shape = cpu::Conv2d::output_shape(
        runtime_info(blocked(in[0])), runtime_info(in[1].with_layout(layout::row_major())), geo);
    if (shape != dims_of(out)) return reference_because("output rounding");
    return {route::native_blocked, TSR_REASON_NONE, {}};
}

route_choice pooling_route(const op::pooling& p, const std::vector<tensor_desc>& in,
                           const tensor_desc& out) {
    if (!all_f32(in)) return reference_because("integer pooling");
    if (p.mode == TSR_POOL_GLOBAL_MAX || p.mode == TSR_POOL_GLOBAL_AVERAGE)
        return {route::native_blocked, TSR_REASON_NONE, {}};
    if (cpu::Pooling::output_shape(runtime_info(blocked(in[0])), runtime_pooling(p, in[0])) !=
        dims_of(out))
        return reference_because("output rounding");
    return {route::native_blocked, TSR_REASON_NONE, {}};
}

}  // namespace

cpu::PoolingInfo runtime_pooling(const op::pooling& p, const tensor_desc& src) {
    cpu::PoolingInfo info;
    info.type = p.is_max() ? cpu::PoolingType::max : cpu::PoolingType::average;
    info.global = p.mode == TSR_POOL_GLOBAL_MAX || p.mode == TSR_POOL_GLOBAL_AVERAGE;
    info.exclude_padding = p.mode != TSR_POOL_AVERAGE_INCLUDE_PADDING;
    if (info.global) return info;
    const auto g = p.geometry(src);
    info.kernel_h = g.kh;
    info.kernel_w = g.kw;
    info.stride_h = g.sh;
    info.stride_w = g.sw;
    info.pad_top = g.y.pad_before;
    info.pad_bottom = g.y.pad_after;
    info.pad_left = g.x.pad_before;
    info.pad_right = g.x.pad_after;
    return info;
}

cpu::Conv2dGeometry runtime_geometry(const op::conv2d& c, const tensor_desc& src,
                                     const tensor_desc& weights) {
    const auto g = c.geometry(src, weights);
    cpu::Conv2dGeometry geo;
    geo.stride_h = c.stride_h;
    geo.stride_w = c.stride_w;
    geo.pad_top = g.y.pad_before;
    geo.pad_bottom = g.y.pad_after;
    geo.pad_left = g.x.pad_before;
    geo.pad_right = g.x.pad_after;
    geo.dilation_h = c.dilation_h;
    geo.dilation_w = c.dilation_w;
    geo.groups = g.c / g.group_in;
    return geo;
}

bool to_runtime(const tsr_activation_spec& s, cpu::ActivationInfo& out) {
    using K = cpu::ActivationKind;
    out.a = s.a;
    out.b = s.b;
    switch (s.kind) {
        case TSR_ACT_NONE:
            out.kind = K::identity;
            return true;
        case TSR_ACT_RELU:
            out.kind = K::relu;
            return true;
        case TSR_ACT_RELU6:
            out.kind = K::relu6;
            return true;
        case TSR_ACT_BOUNDED_RELU:
            out.kind = K::bounded_relu;
            return true;
        case TSR_ACT_LEAKY_RELU:
            out.kind = K::leaky_relu;
            return true;
        case TSR_ACT_ELU:
            out.kind = K::elu;
            return true;
        case TSR_ACT_TANH:
            out.kind = K::tanh;
            return true;
        case TSR_ACT_SIGMOID:
            out.kind = K::sigmoid;
            return true;
        case TSR_ACT_SOFT_RELU:
            out.kind = K::soft_relu;
            return true;
        case TSR_ACT_ABS:
            out.kind = K::abs;
            return true;
        case TSR_ACT_SQUARE:
            out.kind = K::square;
            return true;
        case TSR_ACT_SQRT:
            out.kind = K::sqrt;
            return true;
        case TSR_ACT_LINEAR:
            out.kind = K::linear;
            return true;
        case TSR_ACT_GELU:
            out.kind = K::gelu;
            return s.a == 0.0f;  // erf form only
        case TSR_ACT_CLIP:
            out.kind = K::clip;
            return true;
        default:
            return false;  // PReLU needs a slope tensor
    }
}

int activation_inputs(const op_desc& op) {
    return op.kind() == TSR_OP_BINARY ? 2 : 1;
}

route_choice choose_route(const op_desc& op, const std::vector<tensor_desc>& in,
                          const std::vector<tensor_desc>& out) {
    switch (op.kind()) {
        case TSR_OP_CUSTOM:
            return {route::declined, TSR_REASON_OP_KIND,
                    "custom kernels need a backend that compiles them"};
        case TSR_OP_CONV2D:
            return conv_route(*op.get_if<op::conv2d>(), in, out[0]);
        case TSR_OP_POOLING:
            return pooling_route(*op.get_if<op::pooling>(), in, out[0]);
        case TSR_OP_ACTIVATION: {
            cpu::ActivationInfo act;
            if (!all_f32(in) || !to_runtime(op.get_if<op::activation>()->act, act))
                return reference_because("activation kind or dtype");
            if (!op.get_if<op::activation>()->propagate_nan)
                return reference_because("NaN suppression");
            if (op.get_if<op::activation>()->clipping_value != 0.0f)
                return reference_because("clipping value");
            return {in[0].rank() == 4 ? route::native_blocked : route::native_plain,
                    TSR_REASON_NONE,
                    {}};
        }
        case TSR_OP_BINARY: {
            const auto& b = *op.get_if<op::binary>();
            if (!all_f32(in) || b.alpha != 1.0f || b.beta != 1.0f || b.gamma != 0.0f ||
                in.size() != 2)
                return reference_because("scaled or integer element-wise form");
            if (in[0].rank() == 4 && in[0].dims() == in[1].dims())
                return {route::native_blocked, TSR_REASON_NONE, {}};
            return {route::native_plain, TSR_REASON_NONE, {}};
        }
        case TSR_OP_BATCHNORM: {
            const auto& bn = *op.get_if<op::batchnorm>();
            cpu::ActivationInfo act;
            if (bn.mode != TSR_BATCHNORM_STATISTICS || in[0].rank() != 4 || !all_f32(in) ||
                !to_runtime(bn.activation, act))
                return reference_because("batchnorm form");
            return {route::native_blocked, TSR_REASON_NONE, {}};
        }
        case TSR_OP_FULLY_CONNECTED: {
            const auto& fc = *op.get_if<op::fully_connected>();
            cpu::ActivationInfo act;
            if (!all_f32(in) || fc.first_flatten_axis != 1 || fc.weights_transposed ||
                !to_runtime(fc.activation, act))
                return reference_because("fully connected form");
            return {route::native_plain, TSR_REASON_NONE, {}};
        }
        case TSR_OP_GEMM:
            if (!all_f32(in) || in[0].rank() != 2) return reference_because("gemm form");
            return {route::native_plain, TSR_REASON_NONE, {}};
        case TSR_OP_SOFTMAX: {
            const auto& s = *op.get_if<op::softmax>();
            const bool last = s.axis == -1 || s.axis == in[0].rank() - 1;
            if (!all_f32(in) || !last || s.axis_count != 1 || s.mask != 0)
                return reference_because("softmax axis or mask");
            return {route::native_plain, TSR_REASON_NONE, {}};
        }
        case TSR_OP_REORDER: {
            const bool from_blocked = is_blocked(in[0]), to_blocked = is_blocked(out[0]);
            if (from_blocked || to_blocked) {
                const tensor_desc& other = from_blocked ? out[0] : in[0];
                if (from_blocked && to_blocked)
                    return {route::declined, TSR_REASON_LAYOUT, "blocked to blocked"};
                if (other.rank() != 4 || other.type() != dtype::f32 || !other.is_row_major())
                    return {route::declined, TSR_REASON_LAYOUT, "blocked <-> row-major f32 only"};
                return {route::native_plain, TSR_REASON_NONE, {}};
            }
            return {route::reference, TSR_REASON_NONE, "strided copy"};
        }
        default:
            return {route::reference, TSR_REASON_OP_KIND,
                    std::string(op.name()) + " has no runtime function"};
    }
}

sdk::support answer_query(const sdk::op_query& q) {
    for (const auto& d : q.inputs) {
        if (d.is_opaque() && !is_blocked(d))
            return sdk::support::declined(TSR_REASON_LAYOUT,
                                          "foreign opaque layout " + d.opaque_format());
    }
    std::vector<tensor_desc> logical_in;
    for (const auto& d : q.inputs)
        logical_in.push_back(d.is_opaque() ? d.with_layout(layout::row_major()) : d);
    const auto logical_out = q.op.infer(logical_in);  // invalid ops throw: declined as INVALID
    std::vector<tensor_desc> requested_out = q.outputs;
    if (q.op.kind() != TSR_OP_REORDER) requested_out = logical_out;
    const route_choice r = choose_route(q.op, q.inputs, requested_out);
    if (r.how == route::declined) return sdk::support::declined(r.reason, r.why);

    sdk::support s = r.how == route::reference
                         ? sdk::support::emulated(r.reason, "reference kernel: " + r.why)
                         : sdk::support::native();
    if (q.op.kind() == TSR_OP_REORDER) {  // a reorder's layouts are what it was asked for
        s.inputs = q.inputs;
        s.outputs = q.outputs;
        return s;
    }
    const int blocked_count = r.how == route::native_blocked ? activation_inputs(q.op) : 0;
    for (std::size_t i = 0; i < q.inputs.size(); ++i) {
        const tensor_desc plain = logical_in[i].with_layout(layout::row_major()).with_offset(0);
        s.inputs.push_back(static_cast<int>(i) < blocked_count ? blocked(logical_in[i]) : plain);
    }
    for (const auto& d : logical_out)
        s.outputs.push_back(r.how == route::native_blocked ? blocked(d)
                                                           : d.with_layout(layout::row_major()));
    return s;
}

}  // namespace tessera::cpu_plugin
