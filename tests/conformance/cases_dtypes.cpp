// cases_dtypes.cpp: every op family once in each dtype its descriptor admits besides f32
// (f16, bf16, quantised i8 and u8, Q8 fixed-point i16, i32, i64, f64): one f32 case per family,
// its f32 inputs converted, the dtypes the descriptor rejects left out.
#include "case_support.hpp"

namespace conformance {

namespace {

struct dtype_form {
    const char* name;
    dtype type;
    quantization q;
};

const dtype_form dtype_forms[] = {
    {"f16", dtype::f16, {}},
    {"bf16", dtype::bf16, {}},
    {"i8 (scale 1/32)", dtype::i8, {1.0f / 32.0f, 0, 0}},
    {"u8 (scale 1/64, zero point 128)", dtype::u8, {1.0f / 64.0f, 128, 0}},
    {"i16 (Q7.8)", dtype::i16, {1.0f, 0, 8}},
    {"i32", dtype::i32, {}},
    {"i64", dtype::i64, {}},
    {"f64", dtype::f64, {}},
};

bool admitted(const op_desc& op, const std::vector<tensor>& inputs) {
    std::vector<tensor_desc> descs;
    for (const auto& t : inputs) descs.push_back(t.desc());
    try {
        op.infer(descs);
        return true;
    } catch (const error&) {
        return false;
    }
}

}  // namespace

void add_dtype_forms(case_list& cases, const conformance_case& base) {
    for (const auto& f : dtype_forms) {
        std::vector<tensor> in;
        for (const auto& t : base.inputs)
            in.push_back(t.type() == dtype::f32 ? retyped(t, f.type, f.q) : t);
        if (!admitted(base.desc, in)) continue;
        cases.push_back(
            {base.op, base.form + ", " + f.name, base.desc, std::move(in), base.roundings});
    }
}

case_list dtype_cases(draw& d, int repeats) {
    case_list cases;
    for (int r = 0; r < repeats; ++r) {
        const shape s = d.dims(4, 1, 6);
        const shape image{d.dim(1, 2), d.dim(1, 5), d.dim(4, 9), d.dim(4, 9)};
        const case_list bases = {
            {"activation",
             "relu",
             op::activation(activation_kind::relu),
             {d.values(s, -2.0f, 2.0f)},
             1},
            {"activation",
             "sigmoid",
             op::activation(activation_kind::sigmoid),
             {d.values(s, -2.0f, 2.0f)},
             1},
            {"activation",
             "clip [-1, 1.5]",
             op::activation(activation_kind::clip, -1.0f, 1.5f),
             {d.values(s, -2.0f, 2.0f)},
             1},
            {"unary", "abs", op::unary(unary_kind::abs), {d.values(s, -2.0f, 2.0f)}, 1},
            {"unary", "exp", op::unary(unary_kind::exp), {d.values(s, -2.0f, 1.5f)}, 1},
            {"binary add",
             "equal shapes",
             op::binary(binary_kind::add),
             {d.values(s, -1.0f, 1.0f), d.values(s, -1.0f, 1.0f)},
             1},
            {"binary mul",
             "B row [W]",
             op::binary(binary_kind::mul),
             {d.values(s, -1.0f, 1.0f), d.values(shape{s[3]}, -1.0f, 1.0f)},
             1},
            {"binary max",
             "B per-channel [1, C, 1, 1]",
             op::binary(binary_kind::max),
             {d.values(s, -1.0f, 1.0f), d.values(shape{1, s[1], 1, 1}, -1.0f, 1.0f)},
             1},
            {"binary div",
             "B column [..., 1]",
             op::binary(binary_kind::div),
             {d.values(s, -2.0f, 2.0f), d.values(with_dim(s, 3, 1), 0.5f, 2.0f)},
             1},
            {"binary sub",
             "B scalar []",
             op::binary(binary_kind::sub),
             {d.values(s, -1.0f, 1.0f), d.values(shape{}, -1.0f, 1.0f)},
             1},
            {"compare less",
             "B column [..., 1]",
             op::compare(compare_kind::less),
             {d.values(s, -2.0f, 2.0f), d.values(with_dim(s, 3, 1), -2.0f, 2.0f)},
             1},
            {"unary", "floor", op::unary(unary_kind::floor), {d.values(s, -3.0f, 3.0f)}, 1},
            {"unary", "round", op::unary(unary_kind::round), {d.values(s, -3.0f, 3.0f)}, 1},
            {"pooling",
             "max 3x3 stride 2, padding",
             op::pooling(pooling_kind::max).kernel(3, 3).stride(2, 2).padding(1, 1, 1, 1),
             {d.values(image, -2.0f, 2.0f)},
             1},
            {"pooling",
             "average (exclude padding) 2x2 stride 1",
             op::pooling(pooling_kind::average_exclude_padding).kernel(2, 2).stride(1, 1),
             {d.values(image, -2.0f, 2.0f)},
             1},
            {"conv2d",
             "3x3, bias [O], padding",
             op::conv2d().padding(1, 1, 1, 1).bias(),
             {d.values(image, -1.0f, 1.0f), d.values(shape{3, image[1], 3, 3}, -0.25f, 0.25f),
              d.values(shape{3}, -0.5f, 0.5f)},
             1},
            {"softmax", "last axis", op::softmax(), {d.values(s, -3.0f, 3.0f)}, 2},
            {"reduce",
             "sum, last axis",
             op::reduce(reduce_kind::sum),
             {d.values(s, -0.5f, 0.5f)},
             2},
            {"reduce",
             "max_idx, axis 1",
             op::reduce(reduce_kind::max_idx).along(1),
             {d.values(s, -2.0f, 2.0f)},
             1},
            {"concat",
             "2 pieces along axis 1",
             op::concat(1),
             {d.values(s), d.values(with_dim(s, 1, d.dim(1, 4)))},
             1},
            {"permute", "order 0 2 3 1", op::permute({0, 2, 3, 1}), {d.values(s)}, 1},
            {"transpose", "last two dims", op::transpose(), {d.values(s)}, 1},
            {"reshape",
             "rank 4 to rank 2",
             op::reshape().set_dims({s[0] * s[1], s[2] * s[3]}),
             {d.values(s)},
             1},
            {"pad",
             "constant 0.5, H and W",
             op::pad().set_pads({0, 0, 1, 2}, {0, 0, 2, 1}).set_value(0.5),
             {d.values(s)},
             1},
            {"depth_to_space",
             "DCR, block 2",
             op::depth_to_space(2),
             {d.values(shape{1, 4 * s[1], s[2], s[3]})},
             1},
            {"resize_bilinear",
             "x2 up, half-pixel centres",
             op::resize_bilinear(2 * image[2], 2 * image[3]).set_half_pixel_centers(true),
             {d.values(image)},
             2},
            {"batchnorm",
             "mean, variance [C]",
             op::batchnorm(),
             {d.values(s, -2.0f, 2.0f), d.values(shape{s[1]}, -0.5f, 0.5f),
              d.values(shape{s[1]}, 0.5f, 2.0f)},
             3},
            {"layer_norm",
             "from axis 1",
             op::layer_norm().from_axis(1),
             {d.values(s, -2.0f, 2.0f)},
             3},
            {"matmul",
             "A [m, n], B [n, p]",
             op::matmul(),
             {d.values(shape{s[0] + 1, s[1] + 1}, -1.0f, 1.0f),
              d.values(shape{s[1] + 1, s[2] + 1}, -1.0f, 1.0f)},
             1},
            {"fully_connected",
             "src [B, I], bias [O]",
             op::fully_connected().bias(),
             {d.values(shape{s[0], 2 * s[1]}, -1.0f, 1.0f),
              d.values(shape{s[2] + 2, 2 * s[1]}, -0.5f, 0.5f), d.values(shape{s[2] + 2})},
             1},
        };
        for (const auto& base : bases) add_dtype_forms(cases, base);
    }
    return cases;
}

}  // namespace conformance
