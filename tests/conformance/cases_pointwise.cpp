// cases_pointwise.cpp: conformance cases of the single-input element-wise and reducing ops:
// every activation kind (with its parameters, a clipping value, NaN propagation), every unary
// op, softmax (axes, beta, log, mask), reduce in every mode and axis, moments.
#include <cmath>

#include "case_support.hpp"

namespace conformance {

namespace {

struct activation_form {
    const char* name;
    tsr_activation_kind kind;
    float a = 0.0f, b = 0.0f;
    float lo = -4.0f, hi = 4.0f;  ///< input range the function is well conditioned on
};

const activation_form activation_forms[] = {
    {"relu", TSR_ACT_RELU},
    {"relu6", TSR_ACT_RELU6, 0.0f, 0.0f, -8.0f, 8.0f},
    {"bounded_relu a 2.5", TSR_ACT_BOUNDED_RELU, 2.5f},
    {"leaky_relu a 0.1", TSR_ACT_LEAKY_RELU, 0.1f},
    {"elu a 0.7", TSR_ACT_ELU, 0.7f},
    {"tanh a 1, b 1", TSR_ACT_TANH, 1.0f, 1.0f},
    {"tanh a 1.5, b 0.5", TSR_ACT_TANH, 1.5f, 0.5f},
    {"sigmoid", TSR_ACT_SIGMOID},
    {"soft_relu", TSR_ACT_SOFT_RELU},
    {"abs", TSR_ACT_ABS},
    {"square", TSR_ACT_SQUARE},
    {"sqrt", TSR_ACT_SQRT, 0.0f, 0.0f, 0.0f, 8.0f},
    {"linear a 0.5, b 0.25", TSR_ACT_LINEAR, 0.5f, 0.25f},
    {"gelu", TSR_ACT_GELU, 1.0f},
    {"clip [-1, 1.5]", TSR_ACT_CLIP, -1.0f, 1.5f},
    {"clip [0, 6] (relu6 form)", TSR_ACT_CLIP, 0.0f, 6.0f, -8.0f, 8.0f},
};

struct unary_form {
    const char* name;
    tsr_unary_op op;
    float epsilon;
    float lo, hi;
};

const unary_form unary_forms[] = {
    {"log", TSR_UNARY_LOG, 0.0f, 0.05f, 20.0f},
    {"exp", TSR_UNARY_EXP, 0.0f, -4.0f, 4.0f},
    {"sqrt", TSR_UNARY_SQRT, 0.0f, 0.0f, 50.0f},
    {"rsqrt eps 0.01", TSR_UNARY_RSQRT, 0.01f, 0.1f, 50.0f},
    {"neg", TSR_UNARY_NEG, 0.0f, -4.0f, 4.0f},
    {"abs", TSR_UNARY_ABS, 0.0f, -4.0f, 4.0f},
};

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
                         op::activation(TSR_ACT_RELU).set_clipping_value(0.5f),
                         {d.values(pointwise_shape(d), -2.0f, 2.0f)},
                         1});
        cases.push_back({"activation",
                         "leaky_relu a 0.1, clipping value 1.25",
                         op::activation(TSR_ACT_LEAKY_RELU, 0.1f).set_clipping_value(1.25f),
                         {d.values(pointwise_shape(d), -2.0f, 2.0f)},
                         1});
        for (bool propagate : {true, false}) {
            tensor x = d.values(pointwise_shape(d), -2.0f, 2.0f);
            x.data_as<float>()[x.num_elements() / 2] = std::nanf("");
            cases.push_back(
                {"activation",
                 propagate ? "relu, one NaN, propagate_nan" : "relu, one NaN, propagate_nan off",
                 op::activation(TSR_ACT_RELU).set_propagate_nan(propagate),
                 {x},
                 1});
        }
        for (const auto& f : unary_forms) {
            op::unary u(f.op);
            u.epsilon = f.epsilon;
            cases.push_back({"unary", f.name, u, {d.values(pointwise_shape(d), f.lo, f.hi)}, 1});
        }
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
    const tsr_reduce_op ops[] = {TSR_REDUCE_MIN,     TSR_REDUCE_MIN_IDX, TSR_REDUCE_MAX,
                                 TSR_REDUCE_MAX_IDX, TSR_REDUCE_SUM,     TSR_REDUCE_MEAN,
                                 TSR_REDUCE_PROD};
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
            const bool prod = ops[i] == TSR_REDUCE_PROD;
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
                         op::moments().correction(TSR_BESSEL_SAMPLE).from_axis(2),
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
