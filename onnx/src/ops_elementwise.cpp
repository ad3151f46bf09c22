// ops_elementwise.cpp: ONNX element-wise ops onto Tessera's binary, unary and activation ops:
// Add/Sub/Mul/Div/Min/Max/Pow/Sum/Mean with numpy broadcasting, Abs/Neg/Exp/Log/Sqrt/Reciprocal/
// Erf/Floor/Ceil/Round/Sign and the trigonometric and hyperbolic functions, and the activations
// (Relu, LeakyRelu, PRelu, Elu, Selu, Tanh, Sigmoid, Softplus, Softsign, HardSigmoid, HardSwish,
// Mish, ThresholdedRelu, Celu (as elu scaled), Clip). Constant operands are folded at load.
#include <algorithm>
#include <cmath>
#include <optional>

#include "context.hpp"

namespace tessera::onnx::detail {

namespace {

std::vector<std::int64_t> operand_dims(const context& ctx, std::size_t i) {
    if (ctx.input_is_constant(i)) return ctx.constant_input(i, "operand").dims;
    const shape s = ctx.input_dims(i);
    return std::vector<std::int64_t>(s.begin(), s.end());
}

/// Opsets before 7: B broadcasts onto A only with broadcast = 1, when it holds one element or
/// its dims equal A's from `axis` on (suffix matching without axis). Returns the dims B takes
/// for numpy broadcasting (trailing 1s added) where they differ from its own.
std::optional<std::vector<std::int64_t>> legacy_broadcast_dims(const context& ctx) {
    if (ctx.opset >= 7) {
        ctx.reject_attr("axis", "legacy broadcast attributes exist only before opset 7");
        return std::nullopt;
    }
    const auto a = operand_dims(ctx, 0), b = operand_dims(ctx, 1);
    if (ctx.attr_int("broadcast", 0) == 0) {
        if (a != b)
            ctx.unsupported("the inputs differ in shape and broadcast is not set (opset " +
                            std::to_string(ctx.opset) + " broadcasts only with broadcast = 1)");
        return std::nullopt;
    }
    if (b.size() > a.size()) ctx.unsupported("B has a higher rank than A (legacy broadcast)");
    std::int64_t b_count = 1;
    for (auto d : b) b_count *= d;
    const bool has_axis = ctx.attr("axis") != nullptr;
    const int axis =
        has_axis ? normalize_axis(ctx.attr_int("axis", 0), static_cast<int>(a.size()), "axis")
                 : static_cast<int>(a.size() - b.size());
    if (b_count == 1) return std::nullopt;
    const auto from = static_cast<std::size_t>(axis);
    if (from + b.size() > a.size() || !std::equal(b.begin(), b.end(), a.begin() + axis))
        ctx.unsupported("B's dims do not match A's from axis " + std::to_string(axis) +
                        " (legacy broadcast)");
    if (from + b.size() == a.size()) return std::nullopt;
    std::vector<std::int64_t> dims = b;
    dims.resize(a.size() - from, 1);
    return dims;
}

}  // namespace

void map_legacy_broadcast_check(const context& ctx) {
    if (legacy_broadcast_dims(ctx))
        ctx.unsupported("legacy broadcast with an axis before B's trailing dims");
}

bool map_legacy_broadcast(context& ctx, const op_desc& op) {
    const auto dims = legacy_broadcast_dims(ctx);
    if (!dims) return false;
    const auto b = ctx.reshape(ctx.tensor_input(1), shape(dims->begin(), dims->end()));
    ctx.emit(op, {ctx.tensor_input(0), b}, ctx.output_name(0));
    return true;
}

namespace {

op::binary binary_for(const context& ctx, binary_kind kind) {
    op::binary b(kind);
    if (ctx.has_input(0) && is_integer(ctx.input_desc(0).type())) {
        // ONNX integer arithmetic truncates division and wraps on overflow.
        b.set_rounding(rounding_policy::to_zero).set_overflow(overflow_policy::wrap);
    }
    return b;
}

/// Binary ops whose operands are both constants with integer types (shape arithmetic) are
/// folded on the host; everything else goes through produce().
void map_binary(context& ctx, binary_kind kind) {
    if (ctx.input_count() != 2) ctx.unsupported("expects 2 inputs");
    if (map_legacy_broadcast(ctx, binary_for(ctx, kind))) return;
    const std::string& out = ctx.output_name(0);
    if (ctx.input_is_constant(0) && ctx.input_is_constant(1)) {
        const auto& a = ctx.constant_input(0, "A");
        const auto& b = ctx.constant_input(1, "B");
        if (!a.has_tessera_type() || !b.has_tessera_type()) {
            auto real_op = [kind](double x, double y) {
                switch (kind) {
                    case binary_kind::add:
                        return x + y;
                    case binary_kind::sub:
                        return x - y;
                    case binary_kind::mul:
                        return x * y;
                    case binary_kind::div:
                        return x / y;
                    case binary_kind::min:
                        return std::min(x, y);
                    default:
                        return std::max(x, y);
                }
            };
            auto int_op = [kind](std::int64_t x, std::int64_t y) -> std::int64_t {
                switch (kind) {
                    case binary_kind::add:
                        return x + y;
                    case binary_kind::sub:
                        return x - y;
                    case binary_kind::mul:
                        return x * y;
                    case binary_kind::div:
                        if (y == 0) throw node_unsupported{"integer division by zero"};
                        return x / y;
                    case binary_kind::min:
                        return std::min(x, y);
                    default:
                        return std::max(x, y);
                }
            };
            ctx.set_constant(out, fold_binary(a, b, a.type, real_op, int_op));
            return;
        }
    }
    produce(ctx, binary_for(ctx, kind), {0, 1}, out);
}

/// Sum, Min, Max, Mean of any number of inputs: a chain of binary ops.
void map_variadic(context& ctx, binary_kind kind, bool mean) {
    const std::size_t n = ctx.input_count();
    if (n == 0) ctx.unsupported("needs at least one input");
    const std::string& out = ctx.output_name(0);
    graph::tensor_id acc = ctx.tensor_input(0);
    if (n == 1 && !mean) {
        ctx.reshape(acc, ctx.desc_of(acc).dims(), out);
        return;
    }
    for (std::size_t i = 1; i < n; ++i) {
        const bool last = i + 1 == n && !mean;
        acc = ctx.emit(binary_for(ctx, kind), {acc, ctx.tensor_input(i)}, last ? out : "");
    }
    if (mean) {
        const auto& d = ctx.desc_of(acc);
        if (!is_floating(d.type())) ctx.unsupported("Mean of integer tensors is not supported");
        if (n == 1) {
            ctx.reshape(acc, d.dims(), out);
            return;
        }
        ctx.emit(op::activation(activation_kind::linear, 1.0f / static_cast<float>(n), 0.0f), {acc},
                 out);
    }
}

void map_unary(context& ctx, unary_kind kind) {
    produce(ctx, op::unary(kind), {0}, ctx.output_name(0));
}

void map_activation(context& ctx, const op::activation& act) {
    produce(ctx, act, {0}, ctx.output_name(0));
}

/// Emits a chain of single-input ops on input 0, the last one writing the node's output.
void chain(context& ctx, const std::vector<op_desc>& ops) {
    graph::tensor_id x = ctx.tensor_input(0);
    for (std::size_t i = 0; i < ops.size(); ++i)
        x = ctx.emit(ops[i], {x}, i + 1 == ops.size() ? ctx.output_name(0) : "");
}

/// Clip of an integer tensor: max with min, then min with max, the bounds in the input's dtype.
void map_integer_clip(context& ctx) {
    auto x = ctx.tensor_input(0);
    const dtype type = ctx.desc_of(x).type();
    const auto bound = [&](std::size_t input, binary_kind kind, const std::string& out) {
        const auto& b = ctx.constant_input(input, input == 1 ? "min" : "max");
        if (b.num_elements() != 1) ctx.unsupported("min and max must hold one value");
        host_tensor v = make_host(onnx_type(type), {});
        set_integer(v, 0, b.integer(0));
        x = ctx.emit(binary_for(ctx, kind), {x, ctx.constant_tensor(v, ctx.node_label + "/bound")},
                     out);
    };
    const bool has_min = ctx.has_input(1), has_max = ctx.has_input(2);
    if (has_min) bound(1, binary_kind::max, has_max ? "" : ctx.output_name(0));
    if (has_max) bound(2, binary_kind::min, ctx.output_name(0));
    if (!has_min && !has_max) ctx.reshape(x, ctx.desc_of(x).dims(), ctx.output_name(0));
}

void map_clip(context& ctx) {
    float lo = -INFINITY, hi = INFINITY;
    if (ctx.opset < 11) {
        lo = ctx.attr_float("min", lo);
        hi = ctx.attr_float("max", hi);
    } else {
        if (ctx.has_input(1)) lo = static_cast<float>(ctx.constant_input(1, "min").real(0));
        if (ctx.has_input(2)) hi = static_cast<float>(ctx.constant_input(2, "max").real(0));
    }
    const dtype type = ctx.input_desc(0).type();
    if (type == dtype::boolean) ctx.unsupported("Clip of bool");
    if (!is_floating(type)) return map_integer_clip(ctx);
    // Tessera's activation parameters must be finite: use the float range for open bounds.
    lo = std::max(lo, -3.4e38f);
    hi = std::min(hi, 3.4e38f);
    if (lo > hi) {
        // ONNX: min > max sets every element to max.
        chain(ctx, {op::activation(activation_kind::linear, 0.0f, hi)});
        return;
    }
    chain(ctx, {op::activation(activation_kind::clip, lo, hi)});
}

/// Pow: scalar constant exponents 2, 0.5 and -0.5 as square, sqrt and rsqrt; everything else as
/// binary pow, the exponent converted to the base's dtype (ONNX allows them to differ).
void map_pow(context& ctx) {
    if (ctx.input_count() != 2) ctx.unsupported("expects 2 inputs");
    map_legacy_broadcast_check(ctx);
    const tensor_desc base = ctx.input_desc(0);
    if (ctx.input_is_constant(1)) {
        const auto& e = ctx.constant_input(1, "exponent");
        if (e.num_elements() == 1 && !ctx.input_is_constant(0) && is_floating(base.type())) {
            const double p = e.real(0);
            if (p == 2.0) return chain(ctx, {op::activation(activation_kind::square)});
            if (p == 0.5) return chain(ctx, {op::unary(unary_kind::sqrt)});
            if (p == -0.5) return chain(ctx, {op::unary(unary_kind::rsqrt)});
        }
        host_tensor converted = make_host(onnx_type(base.type()), e.dims);
        for (std::int64_t i = 0; i < e.num_elements(); ++i) set_real(converted, i, e.real(i));
        const auto exponent = ctx.constant_tensor(converted, ctx.node_label + "/exponent");
        ctx.emit(binary_for(ctx, binary_kind::pow), {ctx.tensor_input(0), exponent},
                 ctx.output_name(0));
        return;
    }
    graph::tensor_id exponent = ctx.tensor_input(1);
    const tensor_desc e = ctx.desc_of(exponent);
    if (e.type() != base.type()) {
        op::reorder r(tensor_desc(e.dims(), base.type()));
        exponent = ctx.emit(r, {exponent});
    }
    ctx.emit(binary_for(ctx, binary_kind::pow), {ctx.tensor_input(0), exponent},
             ctx.output_name(0));
}

void map_prelu(context& ctx) {
    const auto x = ctx.input_desc(0);
    auto slope = ctx.input_desc(1);
    // ONNX slope broadcasts to X (unidirectionally, aligned from the right); Tessera takes [C]
    // (per channel, dim 1) or anything that broadcasts. A slope of [C,1,1] for an NCHW input is
    // reshaped to [C]; a rank-1 slope against X of rank > 2 applies along X's last dim, so it
    // becomes [1, n] (which Tessera broadcasts from the right too, never per channel).
    graph::tensor_id s = ctx.tensor_input(1);
    std::int64_t count = slope.dims().num_elements();
    if (x.rank() >= 2 && slope.rank() > 1 && count == x.dims()[1] && slope.rank() == x.rank() - 1 &&
        slope.dims()[0] == x.dims()[1]) {
        s = ctx.reshape(s, shape{count});
    } else if (x.rank() > 2 && slope.rank() == 1 && count != 1) {
        s = ctx.reshape(s, shape{1, count});
    }
    ctx.emit(op::activation(activation_kind::prelu), {ctx.tensor_input(0), s}, ctx.output_name(0));
}

}  // namespace

void register_elementwise(mapper_table& t) {
    t["Add"] = [](context& c) { map_binary(c, binary_kind::add); };
    t["Sub"] = [](context& c) { map_binary(c, binary_kind::sub); };
    t["Mul"] = [](context& c) { map_binary(c, binary_kind::mul); };
    t["Div"] = [](context& c) { map_binary(c, binary_kind::div); };
    t["Sum"] = [](context& c) { map_variadic(c, binary_kind::add, false); };
    t["Min"] = [](context& c) { map_variadic(c, binary_kind::min, false); };
    t["Max"] = [](context& c) { map_variadic(c, binary_kind::max, false); };
    t["Mean"] = [](context& c) { map_variadic(c, binary_kind::add, true); };
    t["Abs"] = [](context& c) { map_unary(c, unary_kind::abs); };
    t["Neg"] = [](context& c) { map_unary(c, unary_kind::neg); };
    t["Exp"] = [](context& c) { map_unary(c, unary_kind::exp); };
    t["Log"] = [](context& c) { map_unary(c, unary_kind::log); };
    t["Sqrt"] = [](context& c) { map_unary(c, unary_kind::sqrt); };
    t["Reciprocal"] = [](context& c) { map_unary(c, unary_kind::reciprocal); };
    t["Erf"] = [](context& c) { map_unary(c, unary_kind::erf); };
    t["Floor"] = [](context& c) { map_unary(c, unary_kind::floor); };
    t["Ceil"] = [](context& c) { map_unary(c, unary_kind::ceil); };
    t["Round"] = [](context& c) { map_unary(c, unary_kind::round); };
    t["Sign"] = [](context& c) { map_unary(c, unary_kind::sign); };
    t["Sin"] = [](context& c) { map_unary(c, unary_kind::sin); };
    t["Cos"] = [](context& c) { map_unary(c, unary_kind::cos); };
    t["Tan"] = [](context& c) { map_unary(c, unary_kind::tan); };
    t["Asin"] = [](context& c) { map_unary(c, unary_kind::asin); };
    t["Acos"] = [](context& c) { map_unary(c, unary_kind::acos); };
    t["Atan"] = [](context& c) { map_unary(c, unary_kind::atan); };
    t["Sinh"] = [](context& c) { map_unary(c, unary_kind::sinh); };
    t["Cosh"] = [](context& c) { map_unary(c, unary_kind::cosh); };
    t["Asinh"] = [](context& c) { map_unary(c, unary_kind::asinh); };
    t["Acosh"] = [](context& c) { map_unary(c, unary_kind::acosh); };
    t["Atanh"] = [](context& c) { map_unary(c, unary_kind::atanh); };
    t["Pow"] = map_pow;
    t["Relu"] = [](context& c) { map_activation(c, op::activation(activation_kind::relu)); };
    t["Tanh"] = [](context& c) { map_activation(c, op::activation(activation_kind::tanh)); };
    t["Sigmoid"] = [](context& c) { map_activation(c, op::activation(activation_kind::sigmoid)); };
    t["Softplus"] = [](context& c) {
        map_activation(c, op::activation(activation_kind::soft_relu));
    };
    t["LeakyRelu"] = [](context& c) {
        map_activation(c,
                       op::activation(activation_kind::leaky_relu, c.attr_float("alpha", 0.01f)));
    };
    t["Elu"] = [](context& c) {
        map_activation(c, op::activation(activation_kind::elu, c.attr_float("alpha", 1.0f)));
    };
    t["Selu"] = [](context& c) {
        const float alpha = c.attr_float("alpha", 1.67326319217681884765625f);
        const float gamma = c.attr_float("gamma", 1.05070102214813232421875f);
        map_activation(c, op::activation(activation_kind::selu, alpha, gamma));
    };
    t["HardSigmoid"] = [](context& c) {
        const float alpha = c.attr_float("alpha", 0.2f), beta = c.attr_float("beta", 0.5f);
        map_activation(c, op::activation(activation_kind::hard_sigmoid, alpha, beta));
    };
    t["HardSwish"] = [](context& c) {
        map_activation(c, op::activation(activation_kind::hard_swish, 1.0f / 6.0f, 0.5f));
    };
    t["Mish"] = [](context& c) { map_activation(c, op::activation(activation_kind::mish)); };
    t["Softsign"] = [](context& c) {
        map_activation(c, op::activation(activation_kind::softsign));
    };
    t["Celu"] = [](context& c) {
        // celu(x) = alpha * elu(x / alpha) with elu's alpha 1.
        const float alpha = c.attr_float("alpha", 1.0f);
        if (!(alpha != 0.0f)) c.unsupported("alpha 0");
        chain(c, {op::activation(activation_kind::linear, 1.0f / alpha, 0.0f),
                  op::activation(activation_kind::elu, 1.0f),
                  op::activation(activation_kind::linear, alpha, 0.0f)});
    };
    t["ThresholdedRelu"] = [](context& c) {
        map_activation(
            c, op::activation(activation_kind::thresholded_relu, c.attr_float("alpha", 1.0f)));
    };
    t["PRelu"] = map_prelu;
    t["Clip"] = map_clip;
}

}  // namespace tessera::onnx::detail
