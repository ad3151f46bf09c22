// cases_pointwise.cpp: conformance cases of the single-input element-wise and reducing ops:
// every activation kind (with its parameters, a clipping value, NaN propagation), every unary
// op, softmax (axes, beta, log, mask), reduce in every mode and axis, moments.
#include <cmath>

#include "case_support.hpp"

namespace conformance {

namespace {

struct activation_form {
    const char* name;
    activation_kind kind;
    float a = 0.0f, b = 0.0f;
    float lo = -4.0f, hi = 4.0f;  ///< input range the function is well conditioned on
};

const activation_form activation_forms[] = {
    {"relu", activation_kind::relu},
    {"relu6", activation_kind::relu6, 0.0f, 0.0f, -8.0f, 8.0f},
    {"bounded_relu a 2.5", activation_kind::bounded_relu, 2.5f},
    {"leaky_relu a 0.1", activation_kind::leaky_relu, 0.1f},
    {"elu a 0.7", activation_kind::elu, 0.7f},
    {"tanh a 1, b 1", activation_kind::tanh, 1.0f, 1.0f},
    {"tanh a 1.5, b 0.5", activation_kind::tanh, 1.5f, 0.5f},
    {"sigmoid", activation_kind::sigmoid},
    {"soft_relu", activation_kind::soft_relu},
    {"abs", activation_kind::abs},
    {"square", activation_kind::square},
    {"sqrt", activation_kind::sqrt, 0.0f, 0.0f, 0.0f, 8.0f},
    {"linear a 0.5, b 0.25", activation_kind::linear, 0.5f, 0.25f},
    {"gelu", activation_kind::gelu, 1.0f},
    {"clip [-1, 1.5]", activation_kind::clip, -1.0f, 1.5f},
    {"clip [0, 6] (relu6 form)", activation_kind::clip, 0.0f, 6.0f, -8.0f, 8.0f},
    {"hard_sigmoid a 0.2, b 0.5", activation_kind::hard_sigmoid, 0.2f, 0.5f, -5.0f, 5.0f},
    {"hard_swish a 1/6, b 0.5", activation_kind::hard_swish, 1.0f / 6.0f, 0.5f, -5.0f, 5.0f},
    {"mish", activation_kind::mish},
    {"selu a 1.6733, b 1.0507", activation_kind::selu, 1.67326319f, 1.05070102f},
    {"thresholded_relu a 0.5", activation_kind::thresholded_relu, 0.5f},
    {"softsign", activation_kind::softsign},
};

struct unary_form {
    const char* name;
    unary_kind op;
    float epsilon;
    float lo, hi;
};

const unary_form unary_forms[] = {
    {"log", unary_kind::log, 0.0f, 0.05f, 20.0f},
    {"exp", unary_kind::exp, 0.0f, -4.0f, 4.0f},
    {"sqrt", unary_kind::sqrt, 0.0f, 0.0f, 50.0f},
    {"rsqrt eps 0.01", unary_kind::rsqrt, 0.01f, 0.1f, 50.0f},
    {"neg", unary_kind::neg, 0.0f, -4.0f, 4.0f},
    {"abs", unary_kind::abs, 0.0f, -4.0f, 4.0f},
    {"erf", unary_kind::erf, 0.0f, -3.0f, 3.0f},
    {"reciprocal", unary_kind::reciprocal, 0.0f, 0.25f, 4.0f},
    {"sin", unary_kind::sin, 0.0f, -4.0f, 4.0f},
    {"cos", unary_kind::cos, 0.0f, -4.0f, 4.0f},
    {"tan", unary_kind::tan, 0.0f, -1.2f, 1.2f},
    {"asin", unary_kind::asin, 0.0f, -0.9f, 0.9f},
    {"acos", unary_kind::acos, 0.0f, -0.9f, 0.9f},
    {"atan", unary_kind::atan, 0.0f, -4.0f, 4.0f},
    {"sinh", unary_kind::sinh, 0.0f, -3.0f, 3.0f},
    {"cosh", unary_kind::cosh, 0.0f, -3.0f, 3.0f},
    {"asinh", unary_kind::asinh, 0.0f, -4.0f, 4.0f},
    {"acosh", unary_kind::acosh, 0.0f, 1.1f, 4.0f},
    {"atanh", unary_kind::atanh, 0.0f, -0.9f, 0.9f},
};

/// Unary ops with jumps: inputs are multiples of 0.25 (floor, ceil and sign exactly at their
/// jumps, round exactly at halves: to even).
const unary_kind stepped_unary_ops[] = {unary_kind::floor, unary_kind::ceil, unary_kind::round,
                                        unary_kind::sign};

/// Rank 1 to 4 with an odd last dim now and then (partial vectors, sticks and pages).
shape pointwise_shape(draw& d) {
    const int rank = 1 + d.pick(4);
    shape s = d.dims(rank, 1, 7);
    if (d.pick(2)) s = with_dim(s, rank - 1, d.dim(30, 70));
    return s;
}

}  // namespace

case_list activation_cases(draw& d, int repeats) {
    case_list cases;
    for (const auto& f : activation_forms) {
        for (int r = 0; r < repeats; ++r)
            cases.push_back({"activation",
                             f.name,
                             op::activation(f.kind, f.a, f.b),
                             {d.values(pointwise_shape(d), f.lo, f.hi)},
                             1});
    }
    for (int r = 0; r < repeats; ++r) {
        cases.push_back({"activation",
                         "relu, clipping value 0.5",
                         op::activation(activation_kind::relu).set_clipping_value(0.5f),
                         {d.values(pointwise_shape(d), -2.0f, 2.0f)},
                         1});
        cases.push_back(
            {"activation",
             "leaky_relu a 0.1, clipping value 1.25",
             op::activation(activation_kind::leaky_relu, 0.1f).set_clipping_value(1.25f),
             {d.values(pointwise_shape(d), -2.0f, 2.0f)},
             1});
        for (bool propagate : {true, false}) {
            tensor x = d.values(pointwise_shape(d), -2.0f, 2.0f);
            x.data_as<float>()[x.num_elements() / 2] = std::nanf("");
            cases.push_back(
                {"activation",
                 propagate ? "relu, one NaN, propagate_nan" : "relu, one NaN, propagate_nan off",
                 op::activation(activation_kind::relu).set_propagate_nan(propagate),
                 {x},
                 1});
        }
        for (const auto& f : unary_forms) {
            op::unary u(f.op);
            u.set_epsilon(f.epsilon);
            cases.push_back({"unary", f.name, u, {d.values(pointwise_shape(d), f.lo, f.hi)}, 1});
        }
        for (unary_kind k : stepped_unary_ops)
            cases.push_back({"unary",
                             std::string(to_string(k)) + ", multiples of 0.25",
                             op::unary(k),
                             {d.multiples(pointwise_shape(d), 0.25f, -12, 12)},
                             1});
    }
    return cases;
}

case_list softmax_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const shape s3 = d.dims(3, 2, 7);
        const shape last = with_dim(s3, 2, d.pick(2) ? d.dim(30, 70) : d.dim(2, 9));
        const shape s4 = d.dims(4, 2, 6);
        cases.push_back({"softmax", "last axis", op::softmax(), {d.values(last, -5.0f, 5.0f)}, 2});
        cases.push_back({"softmax",
                         "last axis, rank 2",
                         op::softmax(),
                         {d.values(shape{d.dim(1, 5), d.dim(2, 70)}, -5.0f, 5.0f)},
                         2});
        cases.push_back(
            {"softmax", "axis 0", op::softmax().along(0), {d.values(s3, -5.0f, 5.0f)}, 2});
        cases.push_back({"softmax",
                         "channel (axis 1) of NCHW",
                         op::softmax().along(1),
                         {d.values(s4, -3.0f, 3.0f)},
                         2});
        cases.push_back({"softmax",
                         "spatial (axis 2, 2 axes)",
                         op::softmax().along(2, 2),
                         {d.values(s4, -3.0f, 3.0f)},
                         2});
        cases.push_back({"softmax",
                         "instance (axis 1, 3 axes)",
                         op::softmax().along(1, 3),
                         {d.values(s4, -3.0f, 3.0f)},
                         2});
        cases.push_back({"softmax",
                         "beta 2.5",
                         op::softmax().scaled_by(2.5f),
                         {d.values(last, -3.0f, 3.0f)},
                         2});
        cases.push_back({"softmax",
                         "log, beta 0.25",
                         op::softmax().scaled_by(0.25f).logarithmic(),
                         {d.values(last, -5.0f, 5.0f)},
                         2});
        cases.push_back(
            {"softmax", "log", op::softmax().logarithmic(), {d.values(last, -5.0f, 5.0f)}, 2});
        const auto mask = static_cast<std::uint32_t>(1 + d.pick(static_cast<int>(last[2])));
        cases.push_back({"softmax",
                         "masked (first m of each vector)",
                         op::softmax().masked(mask),
                         {d.values(last, -5.0f, 5.0f)},
                         2});
    }
    return cases;
}

case_list reduction_cases(draw& d, int repeats) {
    const reduce_kind ops[] = {reduce_kind::min,     reduce_kind::min_idx, reduce_kind::max,
                               reduce_kind::max_idx, reduce_kind::sum,     reduce_kind::mean,
                               reduce_kind::prod};
    const char* names[] = {"min", "min_idx", "max", "max_idx", "sum", "mean", "prod"};
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        for (int i = 0; i < 7; ++i) {
            const int rank = 1 + d.pick(4);
            const int axis = d.pick(2) ? -1 : d.pick(rank);
            const bool keep = d.pick(2) == 0;
            shape s = d.dims(rank, 1, 6);
            if (axis == -1 && d.pick(2)) s = with_dim(s, rank - 1, d.dim(30, 40));
            // Products stay near 1 in magnitude; the others take any sign.
            const bool prod = ops[i] == reduce_kind::prod;
            tensor x = prod ? d.signed_values(s, 0.8f, 1.25f) : d.values(s, -4.0f, 4.0f);
            const std::string form = std::string(names[i]) + ", axis " + std::to_string(axis) +
                                     (keep ? ", keep dims" : ", dims dropped");
            op::reduce red(ops[i]);
            red.along(axis).keep(keep);
            cases.push_back({"reduce", form, red, {std::move(x)}, 2});
        }
        const shape s = d.dims(4, 1, 6);
        cases.push_back(
            {"moments", "from axis 1, population", op::moments(), {d.values(s, -2.0f, 2.0f)}, 3});
        cases.push_back({"moments",
                         "from axis 2, sample (Bessel)",
                         op::moments().correction(bessel_correction::sample).from_axis(2),
                         {d.values(with_dim(s, 3, d.dim(2, 40)), -2.0f, 2.0f)},
                         3});
        cases.push_back({"moments",
                         "last axis of rank 2",
                         op::moments().from_axis(1),
                         {d.values(d.dims(2, 2, 40), -2.0f, 2.0f)},
                         3});
    }
    return cases;
}

}  // namespace conformance
