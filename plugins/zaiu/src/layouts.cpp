// layouts.cpp: the query frame and the stick-layout choices shared by the op rules (see
// layouts.hpp).
#include "layouts.hpp"

#include <cmath>

namespace tessera::plugins::zaiu {

using tessera::dtype;
using tessera::sdk::support;

namespace {

/// Declines what no zaiu layout holds: dtypes zDNN does not transform, empty or huge dims.
/// i32 only where `int32_ok` (reduce indices), i8 only where `int8_ok` (quantized_matmul).
std::optional<support> check_tensors(const std::vector<tensor_desc>& ts, const char* role,
                                     bool int32_ok = false, bool int8_ok = false) {
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const tensor_desc& d = ts[i];
        if (!stickable(d.type()) && !(int32_ok && d.type() == dtype::i32) &&
            !(int8_ok && d.type() == dtype::i8)) {
            return decline(TSR_REASON_DTYPE,
                           std::string(role) + " " + std::to_string(i) + " is " +
                               std::string(tessera::to_string(d.type())) +
                               "; the zAIU takes f32, f16 and bf16 (held as DLFLOAT16)");
        }
        if (d.is_opaque() && !format_of(d))
            return decline(TSR_REASON_LAYOUT, "opaque layout of another backend");
        for (int k = 0; k < d.rank(); ++k)
            if (d.dim(k) < 1) return decline(TSR_REASON_SHAPE, "empty dimensions");
    }
    return std::nullopt;
}

/// Declines when a chosen layout exceeds the zAIU's dimension or tensor size limits.
std::optional<support> check_limits(const support& s) {
    const std::uint32_t mdis = zdnn_get_nnpa_max_dim_idx_size();
    const std::uint64_t mts = zdnn_get_nnpa_max_tensor_size();
    auto too_big = [&](const tensor_desc& d) {
        const zdnn_tensor_desc t = transformed_of(d);
        return t.dim4 > mdis || t.dim3 > mdis || t.dim2 > mdis || t.dim1 > mdis ||
               zdnn_getsize_ztensor(&t) > mts;
    };
    for (const auto* list : {&s.inputs, &s.outputs})
        for (const auto& d : *list)
            if (too_big(d)) {
                return decline(TSR_REASON_SHAPE, d.dims().to_string() +
                                                     " exceeds the zAIU limits (" +
                                                     std::to_string(mdis) + " per dimension, " +
                                                     std::to_string(mts) + " bytes per tensor)");
            }
    return std::nullopt;
}

}  // namespace

support framed(const sdk::op_query& q, tensor_rules rules,
               const std::function<support(const descs& in, const descs& out)>& decide) {
    std::vector<tensor_desc> logical;
    for (const auto& d : q.inputs)
        logical.push_back(d.is_strided() ? d : d.with_layout(tessera::layout::row_major()));
    // Outputs are ours whatever layout was asked; validation and shapes come from inference.
    const auto inferred = q.op.infer(logical);
    if (auto s = check_tensors(q.inputs, "input", false, rules.int8_inputs)) return *s;
    if (auto s = check_tensors(inferred, "output", rules.int32_outputs)) return *s;
    support s = decide(q.inputs, inferred);
    if (s.level == TSR_SUPPORT_NONE) return s;
    if (auto over = check_limits(s)) return *over;
    return s;
}

bool tfrmd_is(const zdnn_tensor_desc& t, std::uint32_t d4, std::uint32_t d3, std::uint32_t d2,
              std::uint32_t d1) {
    return t.dim4 == d4 && t.dim3 == d3 && t.dim2 == d2 && t.dim1 == d1;
}

tensor_desc choose(const tensor_desc& offered, const stick_format& fallback, const tfrmd_test& ok) {
    const tensor_desc logical = offered.with_layout(tessera::layout::row_major());
    if (const auto f = format_of(offered); f && f->fits(offered.dims())) {
        if (*f == fallback || (ok && ok(transformed_of(offered)))) return in_format(logical, *f);
    }
    return in_format(logical, fallback);
}

support with_layouts(std::vector<tensor_desc> in, std::vector<tensor_desc> out) {
    support s = support::native();
    s.inputs = std::move(in);
    s.outputs = std::move(out);
    return s;
}

support same_layout_everywhere(const std::vector<tensor_desc>& in,
                               const std::vector<tensor_desc>& out) {
    const auto current = format_of(in[0]);
    const stick_format f =
        current && current->fits(in[0].dims()) ? *current : natural_format(in[0].dims());
    std::vector<tensor_desc> ins, outs;
    for (const auto& d : in) ins.push_back(choose(d, f));
    for (const auto& d : out) outs.push_back(in_format(d, f));
    return with_layouts(ins, outs);
}

tfrmd_test vectors_of(std::int64_t cols) {
    return [cols](const zdnn_tensor_desc& t) { return t.dim3 == 1 && t.dim1 == cols; };
}

bool row_major_format(const tensor_desc& d) {
    const auto f = format_of(d);
    return f && (f->kind == stick_kind::feature_1d || f->kind == stick_kind::feature_2d ||
                 f->kind == stick_kind::feature_2ds || f->kind == stick_kind::feature_3ds);
}

tensor_desc matrix_operand(const tensor_desc& d) {
    return d.rank() == 2 ? choose(d, stick_format::d2(1)) : choose(d, stick_format::d3s());
}

zdnn_data_layouts matrix_layout(const tensor_desc& d) {
    return d.rank() == 3 ? ZDNN_3DS : ZDNN_2D;
}

std::optional<stick_format> channels_last(const tensor_desc& d) {
    if (d.rank() == 4) return stick_format::nhwc();
    if (d.rank() == 2) return stick_format::d2(1);
    return std::nullopt;
}

tensor_desc per_row(const tensor_desc& d, int axis) {
    std::int64_t rows = 1;
    for (int i = 0; i < axis; ++i) rows *= d.dim(i);
    const bool keeps_rows =
        (format_of(d) && format_of(d)->kind == stick_kind::feature_nhwc && axis == 1) ||
        (format_of(d) && format_of(d)->kind == stick_kind::feature_3ds && axis == 1);
    return choose(d, stick_format::d2s(axis),
                  [&](const zdnn_tensor_desc& t) { return keeps_rows && t.dim4 == rows; });
}

}  // namespace tessera::plugins::zaiu
