// ops/convert.cpp: a reorder that changes the element type (no quantisation) as the IR layer
// "Convert" with destination_type the target's precision name
// (f16, f32, u8, i8, i16, i32). The shipped Convert reads u8 and writes f16 (exact: every u8
// value is a half); other pairs run where a user's binding declares them. The binding's kernels
// must read and write exactly the tensors' types (a conversion at the layer's boundary would be
// the conversion itself, with other rounding). The output is row-major as every myriad tensor
// (the graph compiler reorders it where another layout is asked); a reorder that keeps the type
// and quantised tensors are declined.
#include "../layouts.hpp"
#include "ops.hpp"
#include "tessera/ops/reorder.hpp"

namespace tessera::plugins::myriad {

namespace {

bool quantized(const tensor_desc& d) {
    const quantization q = d.quant();
    return q.scale != 1.0f || q.zero_point != 0 || q.fixed_point_pos != 0;
}

layer_request describe_reorder(const op::reorder& o, const std::vector<tensor_desc>& inputs,
                               const std::vector<tensor_desc>& outputs) {
    if (inputs.size() != 1 || outputs.size() != 1)
        decline(TSR_REASON_INVALID, "reorder takes one input and one output");
    const tensor_desc& src = inputs[0];
    const tensor_desc& dst = o.has_target ? o.target : outputs[0];
    if (dst.type() == src.type())
        decline(TSR_REASON_OP_KIND,
                "a reorder that keeps the element type is a layout change: Convert changes types");
    if (quantized(src) || quantized(dst))
        decline(TSR_REASON_DTYPE, "quantised tensors: Convert converts values, not scales");
    if (!kernel_dtype(dst.type()))
        decline(TSR_REASON_DTYPE, "no Convert to " + std::string(to_string(dst.type())));
    layer_request r;
    r.type = "Convert";
    r.params = {{"destination_type", std::string(to_string(dst.type()))}};
    r.ports = {0};
    r.exact_types = true;
    return r;
}

}  // namespace

void state_convert(router& r) {
    state_layer<op::reorder>(r, &describe_reorder);
}

}  // namespace tessera::plugins::myriad
