// run_ref.hpp: runs one op on the reference backend the way reference::execute does for
// row-major f32/integer inputs: infer, allocate row-major outputs, call the kernel.
#pragma once

#include <vector>

#include "helpers.hpp"
#include "tessera/reference/activation.hpp"
#include "tessera/reference/custom.hpp"
#include "tessera/reference/data_movement.hpp"
#include "tessera/reference/elementwise.hpp"
#include "tessera/reference/rnn.hpp"

namespace ops_test {

template <typename Op>
std::vector<tensor> run_ref(const Op& op, const std::vector<tensor>& inputs) {
    std::vector<tensor> outputs;
    for (const auto& d : op.infer(descs(inputs))) outputs.emplace_back(d);
    reference::run(op, inputs, outputs);
    return outputs;
}

/// The single output of run_ref.
template <typename Op>
tensor run1(const Op& op, const std::vector<tensor>& inputs) {
    auto out = run_ref(op, inputs);
    REQUIRE(out.size() == 1);
    return out[0];
}

}  // namespace ops_test
