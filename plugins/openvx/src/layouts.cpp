// layouts.cpp: OpenVX formats and dims of Tessera tensors, and the query frame (see layouts.hpp).
#include "layouts.hpp"

#include "vx_handles.hpp"

namespace tessera::plugins::openvx {

using tessera::dtype;
using tessera::sdk::support;

std::optional<vx_format> format_of(const tensor_desc& d, precision p, std::string* why) {
    auto no = [&](std::string text) -> std::optional<vx_format> {
        if (why) *why = std::move(text);
        return std::nullopt;
    };
    const quantization q = d.quant();
    switch (d.type()) {
        case dtype::i16:
            if (q.fixed_point_pos < 0 || q.fixed_point_pos > 15)
                return no("i16 fixed_point_pos " + std::to_string(q.fixed_point_pos) +
                          " is outside OpenVX's 0..15");
            return vx_format{VX_TYPE_INT16, static_cast<vx_uint8>(q.fixed_point_pos), false};
        case dtype::i8:
        case dtype::u8:
            if (q.scale != 1.0f || q.zero_point != 0)
                return no(std::string(tessera::to_string(d.type())) + " with scale " +
                          std::to_string(q.scale) + " and zero point " +
                          std::to_string(q.zero_point) +
                          ": OpenVX 8-bit tensors are plain integers (scale 1, zero point 0)");
            return vx_format{d.type() == dtype::i8 ? VX_TYPE_INT8 : VX_TYPE_UINT8, 0, false};
        case dtype::f32:
            if (p == precision::q7_8) return vx_format{VX_TYPE_INT16, q7_8_position, true};
            return no(
                "f32: OpenVX computes in fixed point (i16 Q7.8, i8, u8); the option "
                "precision=q7.8 runs f32 graphs in Q7.8");
        default:
            return no(std::string(tessera::to_string(d.type())) +
                      ": OpenVX tensors are i16 fixed point, i8 or u8" +
                      (p == precision::q7_8 ? " (f32 in precision=q7.8)" : ""));
    }
}

std::vector<vx_uint32> vx_dims(const tensor_desc& d) {
    std::vector<vx_uint32> dims;
    for (int i = d.rank() - 1; i >= 0; --i) dims.push_back(static_cast<vx_uint32>(d.dim(i)));
    if (dims.empty()) dims.push_back(1);
    return dims;
}

namespace {

/// Declines a tensor OpenVX cannot hold.
std::optional<support> check_tensors(const descs& ts, const char* role, precision p) {
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const tensor_desc& d = ts[i];
        std::string why;
        if (!format_of(d, p, &why))
            return decline(TSR_REASON_DTYPE,
                           std::string(role) + " " + std::to_string(i) + " is " + why);
        if (d.is_opaque()) return decline(TSR_REASON_LAYOUT, "opaque layout of another backend");
        if (d.rank() > max_vx_dims)
            return decline(TSR_REASON_SHAPE, std::string(role) + " " + std::to_string(i) + " has " +
                                                 std::to_string(d.rank()) +
                                                 " dims; OpenVX tensors have at most " +
                                                 std::to_string(max_vx_dims));
        for (int k = 0; k < d.rank(); ++k) {
            if (d.dim(k) < 1) return decline(TSR_REASON_SHAPE, "empty dimensions");
            if (d.dim(k) > 0x7fffffff)
                return decline(TSR_REASON_SHAPE, "a dimension exceeds OpenVX's 32-bit sizes");
        }
    }
    return std::nullopt;
}

}  // namespace

support framed(const sdk::op_query& q, precision p,
               const std::function<support(const descs& in, const descs& out)>& decide) {
    descs logical;
    for (const auto& d : q.inputs)
        logical.push_back(d.is_strided() ? d : d.with_layout(tessera::layout::row_major()));
    const descs inferred = q.op.infer(logical);
    if (auto s = check_tensors(logical, "input", p)) return *s;
    if (auto s = check_tensors(inferred, "output", p)) return *s;
    // precision=q7.8 takes f32 graphs whole: an op mixing f32 and integer tensors keeps exact
    // integer semantics nowhere, so it is declined.
    bool any_f32 = false, any_int = false;
    for (const descs* list : {static_cast<const descs*>(&logical), &inferred})
        for (const auto& d : *list) (is_f32(d) ? any_f32 : any_int) = true;
    if (any_f32 && any_int)
        return decline(TSR_REASON_DTYPE,
                       "f32 and integer tensors in one op: precision=q7.8 takes f32 ops only");
    support s = decide(logical, inferred);
    if (s.level == TSR_SUPPORT_NONE) return s;
    s.inputs.clear();
    s.outputs.clear();
    for (const auto& d : logical) s.inputs.push_back(d.with_layout(tessera::layout::row_major()));
    for (const auto& d : inferred) s.outputs.push_back(d.with_layout(tessera::layout::row_major()));
    if (any_f32 && s.text.empty())
        s.text = "runs in Q7.8 fixed point (precision=q7.8): f32 quantised at the partition edges";
    return s;
}

vx_enum vx_rounding(std::int32_t r) {
    return r == TSR_ROUND_TO_ZERO ? VX_ROUND_POLICY_TO_ZERO : VX_ROUND_POLICY_TO_NEAREST_EVEN;
}
vx_enum vx_overflow(std::int32_t o) {
    return o == TSR_OVERFLOW_WRAP ? VX_CONVERT_POLICY_WRAP : VX_CONVERT_POLICY_SATURATE;
}

}  // namespace tessera::plugins::openvx
