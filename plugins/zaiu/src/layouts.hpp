// layouts.hpp: how the zaiu backend answers a query: the frame every op's rule runs in (outputs
// inferred, dtypes and dims zDNN cannot hold declined, chosen layouts checked against the zAIU
// limits) and the stick-layout choices the rules in ops/ share, keeping an input's current zaiu
// layout whenever the zDNN call can read it as is.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "stick_format.hpp"
#include "tessera/sdk/backend.hpp"
#include "zdnn_call.hpp"

namespace tessera::plugins::zaiu {

using descs = std::vector<tensor_desc>;

/// Which dtypes besides the stickable floats a rule admits.
struct tensor_rules {
    bool int32_outputs = false;  ///< reduce indices
    bool int8_inputs = false;    ///< quantized_matmul operands
};

/// Answers query `q` with `decide(inputs, inferred outputs)` inside the common frame: shape
/// inference, tensors no zaiu layout holds declined first, the zAIU limits checked after.
sdk::support framed(const sdk::op_query& q, tensor_rules rules,
                    const std::function<sdk::support(const descs& in, const descs& out)>& decide);

/// A router query rule running `decide` inside the common frame.
template <typename Op>
auto framed_rule(sdk::support (*decide)(const Op&, const descs&, const descs&),
                 tensor_rules rules = {}) {
    return [decide, rules](const Op& o, const sdk::op_query& q) {
        return framed(q, rules,
                      [&](const descs& in, const descs& out) { return decide(o, in, out); });
    };
}

inline sdk::support decline(tsr_reason why, std::string text) {
    return sdk::support::declined(why, std::move(text));
}

/// A native answer with these chosen layouts.
sdk::support with_layouts(std::vector<tensor_desc> in, std::vector<tensor_desc> out);

using tfrmd_test = std::function<bool(const zdnn_tensor_desc&)>;

/// Whether transformed descriptor `t` has exactly these dims.
bool tfrmd_is(const zdnn_tensor_desc& t, std::uint32_t d4, std::uint32_t d3, std::uint32_t d2,
              std::uint32_t d1);

/// The layout for an input: its current zaiu layout when `ok` accepts its sticks, else `fallback`.
tensor_desc choose(const tensor_desc& offered, const stick_format& fallback,
                   const tfrmd_test& ok = {});

/// Element-wise ops: every operand and the output in one layout (the first input's if it is a
/// zaiu layout, else the natural one).
sdk::support same_layout_everywhere(const descs& in, const descs& out);

/// Row-major flattening to [rows, cols] vectors in dim 1: accepted when the sticks have dim3 1
/// and dim1 = cols (2D@K, 2DS@K, 3DS and 1D layouts are row-major flattenings).
tfrmd_test vectors_of(std::int64_t cols);

/// Whether `d` is in a zaiu layout that is a row-major flattening.
bool row_major_format(const tensor_desc& d);

/// Matmul-family operand layouts: 2D (m,n) unstacked, 3DS (s,m,n) stacked.
tensor_desc matrix_operand(const tensor_desc& d);

/// The zDNN layout of a matmul operand: ZDNN_3DS for a stack of matrices, else ZDNN_2D.
zdnn_data_layouts matrix_layout(const tensor_desc& d);

/// Channel-innermost layouts for [N, C] (2D) and [N, C, H, W] (NHWC).
std::optional<stick_format> channels_last(const tensor_desc& d);

/// [rows, rest] per-row statistics layout: sticks (rows, *, *, *) with dim4 = rows.
tensor_desc per_row(const tensor_desc& d, int axis);

}  // namespace tessera::plugins::zaiu
