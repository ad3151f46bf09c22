// tessera/ops/kinds.hpp: typed C++ forms of the enums in the op descriptors (activation_kind,
// pooling_kind, binary_kind, ...), their printed names, and the conversions to and from the
// int32 values of the plugin ABI (tessera/c/ops*.h). Enumerator values equal the C values, so
// to_c/from_c are exact; from_c rejects values outside the enum with invalid_argument.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <type_traits>

#include "tessera/c/ops.h"
#include "tessera/error.hpp"
#include "tessera/numeric/fixed_point.hpp"

namespace tessera {

/// Per typed enum: the C enum it mirrors, what it is called in messages, and the printed name
/// of each value (indexed by the value; every mirrored C enum is dense from 0).
template <typename E>
struct enum_info;

/// activation kind (tsr_activation_kind).
enum class activation_kind : std::int32_t {
    none = TSR_ACT_NONE,
    relu = TSR_ACT_RELU,
    relu6 = TSR_ACT_RELU6,
    bounded_relu = TSR_ACT_BOUNDED_RELU,
    leaky_relu = TSR_ACT_LEAKY_RELU,
    prelu = TSR_ACT_PRELU,
    elu = TSR_ACT_ELU,
    tanh = TSR_ACT_TANH,
    sigmoid = TSR_ACT_SIGMOID,
    soft_relu = TSR_ACT_SOFT_RELU,
    abs = TSR_ACT_ABS,
    square = TSR_ACT_SQUARE,
    sqrt = TSR_ACT_SQRT,
    linear = TSR_ACT_LINEAR,
    gelu = TSR_ACT_GELU,
    clip = TSR_ACT_CLIP,
    hard_sigmoid = TSR_ACT_HARD_SIGMOID,
    hard_swish = TSR_ACT_HARD_SWISH,
    mish = TSR_ACT_MISH,
    selu = TSR_ACT_SELU,
    thresholded_relu = TSR_ACT_THRESHOLDED_RELU,
    softsign = TSR_ACT_SOFTSIGN,
};
template <>
struct enum_info<activation_kind> {
    using c_type = tsr_activation_kind;
    static constexpr std::string_view what = "activation kind";
    static constexpr std::array<std::string_view, 22> names = {
        "none",         "relu",         "relu6",
        "bounded_relu", "leaky_relu",   "prelu",
        "elu",          "tanh",         "sigmoid",
        "soft_relu",    "abs",          "square",
        "sqrt",         "linear",       "gelu",
        "clip",         "hard_sigmoid", "hard_swish",
        "mish",         "selu",         "thresholded_relu",
        "softsign"};
};
static_assert(TSR_ACT_NONE == 0 && TSR_ACT_RELU == 1 && TSR_ACT_RELU6 == 2 &&
              TSR_ACT_BOUNDED_RELU == 3 && TSR_ACT_LEAKY_RELU == 4 && TSR_ACT_PRELU == 5 &&
              TSR_ACT_ELU == 6 && TSR_ACT_TANH == 7 && TSR_ACT_SIGMOID == 8 &&
              TSR_ACT_SOFT_RELU == 9 && TSR_ACT_ABS == 10 && TSR_ACT_SQUARE == 11 &&
              TSR_ACT_SQRT == 12 && TSR_ACT_LINEAR == 13 && TSR_ACT_GELU == 14 &&
              TSR_ACT_CLIP == 15 && TSR_ACT_HARD_SIGMOID == 16 && TSR_ACT_HARD_SWISH == 17 &&
              TSR_ACT_MISH == 18 && TSR_ACT_SELU == 19 && TSR_ACT_THRESHOLDED_RELU == 20 &&
              TSR_ACT_SOFTSIGN == 21);

/// pooling kind (tsr_pooling_mode).
enum class pooling_kind : std::int32_t {
    max = TSR_POOL_MAX,
    average_include_padding = TSR_POOL_AVERAGE_INCLUDE_PADDING,
    average_exclude_padding = TSR_POOL_AVERAGE_EXCLUDE_PADDING,
    global_max = TSR_POOL_GLOBAL_MAX,
    global_average = TSR_POOL_GLOBAL_AVERAGE,
};
template <>
struct enum_info<pooling_kind> {
    using c_type = tsr_pooling_mode;
    static constexpr std::string_view what = "pooling kind";
    static constexpr std::array<std::string_view, 5> names = {"max", "average_include_padding",
                                                              "average_exclude_padding",
                                                              "global_max", "global_average"};
};
static_assert(TSR_POOL_MAX == 0 && TSR_POOL_AVERAGE_INCLUDE_PADDING == 1 &&
              TSR_POOL_AVERAGE_EXCLUDE_PADDING == 2 && TSR_POOL_GLOBAL_MAX == 3 &&
              TSR_POOL_GLOBAL_AVERAGE == 4);

/// binary op (tsr_binary_op).
enum class binary_kind : std::int32_t {
    add = TSR_BINARY_ADD,
    sub = TSR_BINARY_SUB,
    mul = TSR_BINARY_MUL,
    min = TSR_BINARY_MIN,
    max = TSR_BINARY_MAX,
    div = TSR_BINARY_DIV,
    pow = TSR_BINARY_POW,
};
template <>
struct enum_info<binary_kind> {
    using c_type = tsr_binary_op;
    static constexpr std::string_view what = "binary op";
    static constexpr std::array<std::string_view, 7> names = {"add", "sub", "mul", "min",
                                                              "max", "div", "pow"};
};
static_assert(TSR_BINARY_ADD == 0 && TSR_BINARY_SUB == 1 && TSR_BINARY_MUL == 2 &&
              TSR_BINARY_MIN == 3 && TSR_BINARY_MAX == 4 && TSR_BINARY_DIV == 5 &&
              TSR_BINARY_POW == 6);

/// unary op (tsr_unary_op).
enum class unary_kind : std::int32_t {
    log = TSR_UNARY_LOG,
    exp = TSR_UNARY_EXP,
    sqrt = TSR_UNARY_SQRT,
    rsqrt = TSR_UNARY_RSQRT,
    neg = TSR_UNARY_NEG,
    abs = TSR_UNARY_ABS,
    erf = TSR_UNARY_ERF,
    floor = TSR_UNARY_FLOOR,
    ceil = TSR_UNARY_CEIL,
    round = TSR_UNARY_ROUND,
    sign = TSR_UNARY_SIGN,
    reciprocal = TSR_UNARY_RECIPROCAL,
    sin = TSR_UNARY_SIN,
    cos = TSR_UNARY_COS,
    tan = TSR_UNARY_TAN,
    asin = TSR_UNARY_ASIN,
    acos = TSR_UNARY_ACOS,
    atan = TSR_UNARY_ATAN,
    sinh = TSR_UNARY_SINH,
    cosh = TSR_UNARY_COSH,
    asinh = TSR_UNARY_ASINH,
    acosh = TSR_UNARY_ACOSH,
    atanh = TSR_UNARY_ATANH,
};
template <>
struct enum_info<unary_kind> {
    using c_type = tsr_unary_op;
    static constexpr std::string_view what = "unary op";
    static constexpr std::array<std::string_view, 23> names = {
        "log",  "exp",   "sqrt", "rsqrt",      "neg",   "abs",   "erf",  "floor",
        "ceil", "round", "sign", "reciprocal", "sin",   "cos",   "tan",  "asin",
        "acos", "atan",  "sinh", "cosh",       "asinh", "acosh", "atanh"};
};
static_assert(TSR_UNARY_LOG == 0 && TSR_UNARY_EXP == 1 && TSR_UNARY_SQRT == 2 &&
              TSR_UNARY_RSQRT == 3 && TSR_UNARY_NEG == 4 && TSR_UNARY_ABS == 5 &&
              TSR_UNARY_ERF == 6 && TSR_UNARY_FLOOR == 7 && TSR_UNARY_CEIL == 8 &&
              TSR_UNARY_ROUND == 9 && TSR_UNARY_SIGN == 10 && TSR_UNARY_RECIPROCAL == 11 &&
              TSR_UNARY_SIN == 12 && TSR_UNARY_COS == 13 && TSR_UNARY_TAN == 14 &&
              TSR_UNARY_ASIN == 15 && TSR_UNARY_ACOS == 16 && TSR_UNARY_ATAN == 17 &&
              TSR_UNARY_SINH == 18 && TSR_UNARY_COSH == 19 && TSR_UNARY_ASINH == 20 &&
              TSR_UNARY_ACOSH == 21 && TSR_UNARY_ATANH == 22);

/// compare op (tsr_compare_op).
enum class compare_kind : std::int32_t {
    equal = TSR_COMPARE_EQUAL,
    less = TSR_COMPARE_LESS,
    less_equal = TSR_COMPARE_LESS_EQUAL,
    greater = TSR_COMPARE_GREATER,
    greater_equal = TSR_COMPARE_GREATER_EQUAL,
};
template <>
struct enum_info<compare_kind> {
    using c_type = tsr_compare_op;
    static constexpr std::string_view what = "compare op";
    static constexpr std::array<std::string_view, 5> names = {"equal", "less", "less_equal",
                                                              "greater", "greater_equal"};
};
static_assert(TSR_COMPARE_EQUAL == 0 && TSR_COMPARE_LESS == 1 && TSR_COMPARE_LESS_EQUAL == 2 &&
              TSR_COMPARE_GREATER == 3 && TSR_COMPARE_GREATER_EQUAL == 4);

/// logical op (tsr_logical_op).
enum class logical_kind : std::int32_t {
    and_ = TSR_LOGICAL_AND,
    or_ = TSR_LOGICAL_OR,
    xor_ = TSR_LOGICAL_XOR,
    not_ = TSR_LOGICAL_NOT,
};
template <>
struct enum_info<logical_kind> {
    using c_type = tsr_logical_op;
    static constexpr std::string_view what = "logical op";
    static constexpr std::array<std::string_view, 4> names = {"and", "or", "xor", "not"};
};
static_assert(TSR_LOGICAL_AND == 0 && TSR_LOGICAL_OR == 1 && TSR_LOGICAL_XOR == 2 &&
              TSR_LOGICAL_NOT == 3);

/// reduce op (tsr_reduce_op).
enum class reduce_kind : std::int32_t {
    min = TSR_REDUCE_MIN,
    min_idx = TSR_REDUCE_MIN_IDX,
    max = TSR_REDUCE_MAX,
    max_idx = TSR_REDUCE_MAX_IDX,
    sum = TSR_REDUCE_SUM,
    mean = TSR_REDUCE_MEAN,
    prod = TSR_REDUCE_PROD,
};
template <>
struct enum_info<reduce_kind> {
    using c_type = tsr_reduce_op;
    static constexpr std::string_view what = "reduce op";
    static constexpr std::array<std::string_view, 7> names = {"min", "min_idx", "max", "max_idx",
                                                              "sum", "mean",    "prod"};
};
static_assert(TSR_REDUCE_MIN == 0 && TSR_REDUCE_MIN_IDX == 1 && TSR_REDUCE_MAX == 2 &&
              TSR_REDUCE_MAX_IDX == 3 && TSR_REDUCE_SUM == 4 && TSR_REDUCE_MEAN == 5 &&
              TSR_REDUCE_PROD == 6);

/// matmul operation (tsr_matmul_op).
enum class matmul_kind : std::int32_t {
    addition = TSR_MATMUL_ADDITION,
    greater = TSR_MATMUL_GREATER,
    greater_equal = TSR_MATMUL_GREATER_EQUAL,
    equal = TSR_MATMUL_EQUAL,
    not_equal = TSR_MATMUL_NOT_EQUAL,
    lesser_equal = TSR_MATMUL_LESSER_EQUAL,
    lesser = TSR_MATMUL_LESSER,
};
template <>
struct enum_info<matmul_kind> {
    using c_type = tsr_matmul_op;
    static constexpr std::string_view what = "matmul operation";
    static constexpr std::array<std::string_view, 7> names = {
        "addition", "greater", "greater_equal", "equal", "not_equal", "lesser_equal", "lesser"};
};
static_assert(TSR_MATMUL_ADDITION == 0 && TSR_MATMUL_GREATER == 1 &&
              TSR_MATMUL_GREATER_EQUAL == 2 && TSR_MATMUL_EQUAL == 3 && TSR_MATMUL_NOT_EQUAL == 4 &&
              TSR_MATMUL_LESSER_EQUAL == 5 && TSR_MATMUL_LESSER == 6);

/// padding mode (tsr_padding_mode).
enum class padding_kind : std::int32_t {
    explicit_ = TSR_PADDING_EXPLICIT,
    same = TSR_PADDING_SAME,
    valid = TSR_PADDING_VALID,
};
template <>
struct enum_info<padding_kind> {
    using c_type = tsr_padding_mode;
    static constexpr std::string_view what = "padding mode";
    static constexpr std::array<std::string_view, 3> names = {"explicit", "same", "valid"};
};
static_assert(TSR_PADDING_EXPLICIT == 0 && TSR_PADDING_SAME == 1 && TSR_PADDING_VALID == 2);

/// output rounding (tsr_output_rounding).
enum class output_rounding : std::int32_t {
    floor = TSR_OUTPUT_FLOOR,
    ceil = TSR_OUTPUT_CEIL,
};
template <>
struct enum_info<output_rounding> {
    using c_type = tsr_output_rounding;
    static constexpr std::string_view what = "output rounding";
    static constexpr std::array<std::string_view, 2> names = {"floor", "ceil"};
};
static_assert(TSR_OUTPUT_FLOOR == 0 && TSR_OUTPUT_CEIL == 1);

/// rounding_policy is defined in tessera/numeric/fixed_point.hpp with the C values.
template <>
struct enum_info<rounding_policy> {
    using c_type = tsr_rounding;
    static constexpr std::string_view what = "rounding";
    static constexpr std::array<std::string_view, 2> names = {"to_zero", "to_nearest_even"};
};
static_assert(TSR_ROUND_TO_ZERO == 0 && TSR_ROUND_TO_NEAREST_EVEN == 1);

/// overflow_policy is defined in tessera/numeric/fixed_point.hpp with the C values.
template <>
struct enum_info<overflow_policy> {
    using c_type = tsr_overflow;
    static constexpr std::string_view what = "overflow";
    static constexpr std::array<std::string_view, 2> names = {"wrap", "saturate"};
};
static_assert(TSR_OVERFLOW_WRAP == 0 && TSR_OVERFLOW_SATURATE == 1);

/// conv mode (tsr_conv_mode).
enum class conv_kind : std::int32_t {
    direct = TSR_CONV_DIRECT,
    transposed = TSR_CONV_TRANSPOSED,
    depthwise = TSR_CONV_DEPTHWISE,
};
template <>
struct enum_info<conv_kind> {
    using c_type = tsr_conv_mode;
    static constexpr std::string_view what = "conv mode";
    static constexpr std::array<std::string_view, 3> names = {"direct", "transposed", "depthwise"};
};
static_assert(TSR_CONV_DIRECT == 0 && TSR_CONV_TRANSPOSED == 1 && TSR_CONV_DEPTHWISE == 2);

/// batchnorm mode (tsr_batchnorm_mode).
enum class batchnorm_kind : std::int32_t {
    statistics = TSR_BATCHNORM_STATISTICS,
    affine = TSR_BATCHNORM_AFFINE,
};
template <>
struct enum_info<batchnorm_kind> {
    using c_type = tsr_batchnorm_mode;
    static constexpr std::string_view what = "batchnorm mode";
    static constexpr std::array<std::string_view, 2> names = {"statistics", "affine"};
};
static_assert(TSR_BATCHNORM_STATISTICS == 0 && TSR_BATCHNORM_AFFINE == 1);

/// lrn mode (tsr_lrn_mode).
enum class lrn_kind : std::int32_t {
    across_channels = TSR_LRN_ACROSS_CHANNELS,
    within_channel = TSR_LRN_WITHIN_CHANNEL,
};
template <>
struct enum_info<lrn_kind> {
    using c_type = tsr_lrn_mode;
    static constexpr std::string_view what = "lrn mode";
    static constexpr std::array<std::string_view, 2> names = {"across_channels", "within_channel"};
};
static_assert(TSR_LRN_ACROSS_CHANNELS == 0 && TSR_LRN_WITHIN_CHANNEL == 1);

/// layer_norm mode (tsr_layer_norm_mode).
enum class layer_norm_kind : std::int32_t {
    axes = TSR_LAYER_NORM_AXES,
    statistics = TSR_LAYER_NORM_STATISTICS,
};
template <>
struct enum_info<layer_norm_kind> {
    using c_type = tsr_layer_norm_mode;
    static constexpr std::string_view what = "layer_norm mode";
    static constexpr std::array<std::string_view, 2> names = {"axes", "statistics"};
};
static_assert(TSR_LAYER_NORM_AXES == 0 && TSR_LAYER_NORM_STATISTICS == 1);

/// bessel correction (tsr_bessel_correction).
enum class bessel_correction : std::int32_t {
    population = TSR_BESSEL_POPULATION,
    sample = TSR_BESSEL_SAMPLE,
};
template <>
struct enum_info<bessel_correction> {
    using c_type = tsr_bessel_correction;
    static constexpr std::string_view what = "bessel correction";
    static constexpr std::array<std::string_view, 2> names = {"population", "sample"};
};
static_assert(TSR_BESSEL_POPULATION == 0 && TSR_BESSEL_SAMPLE == 1);

/// depth_to_space mode (tsr_depth_to_space_mode).
enum class depth_to_space_kind : std::int32_t {
    dcr = TSR_DEPTH_TO_SPACE_DCR,
    crd = TSR_DEPTH_TO_SPACE_CRD,
};
template <>
struct enum_info<depth_to_space_kind> {
    using c_type = tsr_depth_to_space_mode;
    static constexpr std::string_view what = "depth_to_space mode";
    static constexpr std::array<std::string_view, 2> names = {"dcr", "crd"};
};
static_assert(TSR_DEPTH_TO_SPACE_DCR == 0 && TSR_DEPTH_TO_SPACE_CRD == 1);

/// pad mode (tsr_pad_mode).
enum class pad_kind : std::int32_t {
    constant = TSR_PAD_CONSTANT,
    reflect = TSR_PAD_REFLECT,
    symmetric = TSR_PAD_SYMMETRIC,
    edge = TSR_PAD_EDGE,
};
template <>
struct enum_info<pad_kind> {
    using c_type = tsr_pad_mode;
    static constexpr std::string_view what = "pad mode";
    static constexpr std::array<std::string_view, 4> names = {"constant", "reflect", "symmetric",
                                                              "edge"};
};
static_assert(TSR_PAD_CONSTANT == 0 && TSR_PAD_REFLECT == 1 && TSR_PAD_SYMMETRIC == 2 &&
              TSR_PAD_EDGE == 3);

/// rnn direction (tsr_rnn_direction).
enum class rnn_direction : std::int32_t {
    forward = TSR_RNN_FORWARD,
    backward = TSR_RNN_BACKWARD,
    bidirectional = TSR_RNN_BIDIRECTIONAL,
};
template <>
struct enum_info<rnn_direction> {
    using c_type = tsr_rnn_direction;
    static constexpr std::string_view what = "rnn direction";
    static constexpr std::array<std::string_view, 3> names = {"forward", "backward",
                                                              "bidirectional"};
};
static_assert(TSR_RNN_FORWARD == 0 && TSR_RNN_BACKWARD == 1 && TSR_RNN_BIDIRECTIONAL == 2);

/// custom source kind (tsr_custom_source_kind).
enum class custom_source_kind : std::int32_t {
    text = TSR_CUSTOM_SOURCE_TEXT,
    file = TSR_CUSTOM_SOURCE_FILE,
};
template <>
struct enum_info<custom_source_kind> {
    using c_type = tsr_custom_source_kind;
    static constexpr std::string_view what = "custom source kind";
    static constexpr std::array<std::string_view, 2> names = {"text", "file"};
};
static_assert(TSR_CUSTOM_SOURCE_TEXT == 0 && TSR_CUSTOM_SOURCE_FILE == 1);

/// custom output rule (tsr_custom_output_rule).
enum class custom_output_rule : std::int32_t {
    declared = TSR_CUSTOM_OUTPUT_DECLARED,
    like_input = TSR_CUSTOM_OUTPUT_LIKE_INPUT,
};
template <>
struct enum_info<custom_output_rule> {
    using c_type = tsr_custom_output_rule;
    static constexpr std::string_view what = "custom output rule";
    static constexpr std::array<std::string_view, 2> names = {"declared", "like_input"};
};
static_assert(TSR_CUSTOM_OUTPUT_DECLARED == 0 && TSR_CUSTOM_OUTPUT_LIKE_INPUT == 1);

/// Whether E is one of the typed op-descriptor enums above.
template <typename E, typename = void>
struct is_op_enum : std::false_type {};
template <typename E>
struct is_op_enum<E, std::void_t<decltype(enum_info<E>::names)>> : std::true_type {};
template <typename E>
inline constexpr bool is_op_enum_v = is_op_enum<E>::value;

/// The printed name of a value ("relu", "max", ...), or "unknown" for a value outside the enum.
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
constexpr std::string_view to_string(E e) {
    const auto i = static_cast<std::int32_t>(e);
    const auto& names = enum_info<E>::names;
    return i >= 0 && static_cast<std::size_t>(i) < names.size() ? names[static_cast<std::size_t>(i)]
                                                                : std::string_view("unknown");
}

/// The printed name of a raw ABI value of E's C enum, "unknown" when out of range.
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
constexpr std::string_view name_of_c(std::int32_t value) {
    return to_string(static_cast<E>(value));
}

/// The C enum value of a typed value, for the ABI structs.
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
constexpr typename enum_info<E>::c_type to_c(E e) {
    return static_cast<typename enum_info<E>::c_type>(e);
}

/// Whether a raw ABI value names a value of E.
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
constexpr bool is_valid_c(std::int32_t value) {
    return value >= 0 && static_cast<std::size_t>(value) < enum_info<E>::names.size();
}

/// The typed value of a raw ABI value; values outside the enum throw invalid_argument.
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
constexpr E from_c(std::int32_t value) {
    if (!is_valid_c<E>(value)) {
        throw error(status::invalid_argument, std::string(enum_info<E>::what) + " " +
                                                  std::to_string(value) + " is not a known value");
    }
    return static_cast<E>(value);
}

/// Parses a printed name back to the value; unknown names throw invalid_argument.
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
E parse_enum(std::string_view text) {
    const auto& names = enum_info<E>::names;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == text) return static_cast<E>(i);
    }
    throw error(status::invalid_argument,
                std::string(enum_info<E>::what) + " '" + std::string(text) + "' is not known");
}

/// Streams the printed name (the caller includes <ostream>).
template <typename E, typename = std::enable_if_t<is_op_enum_v<E>>>
std::ostream& operator<<(std::ostream& os, E e) {
    return os << to_string(e);
}

}  // namespace tessera
