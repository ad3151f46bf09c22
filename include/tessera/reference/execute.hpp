// tessera/reference/execute.hpp: the reference backend's entry point. Runs any op on host
// tensors. Kernels see row-major tensors, floating types widened to f32; this dispatcher converts
// inputs from any strided layout and dtype, and converts results into the caller's outputs.
#pragma once

#include <vector>

#include "tessera/ops/op_desc.hpp"
#include "tessera/reference/activation.hpp"
#include "tessera/reference/compare.hpp"
#include "tessera/reference/conv2d.hpp"
#include "tessera/reference/custom.hpp"
#include "tessera/reference/data_movement.hpp"
#include "tessera/reference/elementwise.hpp"
#include "tessera/reference/fully_connected.hpp"
#include "tessera/reference/gemm.hpp"
#include "tessera/reference/indexing.hpp"
#include "tessera/reference/matmul.hpp"
#include "tessera/reference/normalization.hpp"
#include "tessera/reference/pooling.hpp"
#include "tessera/reference/reduction.hpp"
#include "tessera/reference/reorder.hpp"
#include "tessera/reference/rnn.hpp"
#include "tessera/reference/scan.hpp"
#include "tessera/reference/softmax.hpp"
#include "tessera/tensor.hpp"

namespace tessera::reference {

/// The dtype a kernel computes in for a tensor of type t: 16-bit floats widen to f32.
inline dtype compute_type(dtype t) {
    return (t == dtype::f16 || t == dtype::bf16 || t == dtype::dlfloat16) ? dtype::f32 : t;
}

/// A row-major tensor in the compute type holding `t`'s values (`t` itself when it already is).
inline tensor normalized(const tensor& t) {
    const dtype ct = compute_type(t.type());
    if (ct == t.type() && t.desc().is_row_major()) return t;
    tensor out(t.desc()
                   .with_type(ct, ct == t.type() ? t.desc().quant() : quantization{})
                   .with_layout(layout::row_major())
                   .with_offset(0));
    tensor::copy_elements(t, out);
    return out;
}

/// Runs `op` on `inputs`, writing `outputs` (pre-allocated with the descriptors infer() gave,
/// in any strided layout and dtype).
inline void execute(const op_desc& op, const std::vector<tensor>& inputs,
                    const std::vector<tensor>& outputs) {
    std::vector<tensor_desc> in_descs;
    for (const auto& t : inputs) in_descs.push_back(t.desc());
    const auto expected = op.infer(in_descs);
    if (expected.size() != outputs.size()) {
        throw error(status::invalid_argument,
                    "expects " + std::to_string(expected.size()) + " outputs, got " +
                        std::to_string(outputs.size()),
                    {"reference", std::string(op.name()), ""});
    }
    std::vector<tensor> in;
    for (const auto& t : inputs) in.push_back(normalized(t));
    std::vector<tensor> out;
    for (const auto& t : outputs) {
        const dtype ct = compute_type(t.type());
        out.push_back(
            ct == t.type() && t.desc().is_row_major()
                ? t
                : tensor(t.desc()
                             .with_type(ct, ct == t.type() ? t.desc().quant() : quantization{})
                             .with_layout(layout::row_major())
                             .with_offset(0)));
    }
    std::visit([&](const auto& o) { run(o, in, out); }, op.variant());
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (out[i].data() != outputs[i].data()) tensor::copy_elements(out[i], outputs[i]);
    }
}

/// Convenience: allocates row-major outputs, runs, returns them.
inline std::vector<tensor> execute(const op_desc& op, const std::vector<tensor>& inputs) {
    std::vector<tensor_desc> in_descs;
    for (const auto& t : inputs) in_descs.push_back(t.desc());
    std::vector<tensor> outputs;
    for (const auto& d : op.infer(in_descs))
        outputs.emplace_back(d.with_layout(layout::row_major()));
    execute(op, inputs, outputs);
    return outputs;
}

}  // namespace tessera::reference
