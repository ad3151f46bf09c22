// ops/reorder.cpp: reorders from the OPTIMAL layout to row-major, run as CLML tensor copies
// between recordings (program.cpp).
#include "common.hpp"

namespace tessera::plugins::qcom_ml {

namespace {

sdk::support query_reorder(const sdk::op_query& q) {
    if (q.inputs.size() != 1 || q.outputs.size() != 1)
        return sdk::support::declined(TSR_REASON_INVALID, "reorder takes one tensor");
    const tensor_desc& in = q.inputs[0];
    const tensor_desc& out = q.outputs[0];
    if (in.type() != out.type())
        return sdk::support::declined(TSR_REASON_DTYPE, "reorder with a dtype change");
    if (!is_optimal(in) || !(out.is_any() || out.is_row_major()))
        return sdk::support::declined(
            TSR_REASON_LAYOUT, "qcom-ml reorders OPTIMAL to row-major only; got " + in.to_string() +
                                   " -> " + out.to_string());
    sdk::support s = sdk::support::native();
    s.inputs = {in};
    s.outputs = {row_major(out)};
    return s;
}

}  // namespace

void state_reorder(router& r) {
    r.state<op::reorder>([](const op::reorder&, const sdk::op_query& q,
                            const qcom_ml_backend&) { return query_reorder(q); },
                         [](const op::reorder&, const build_context&, const node_tensors&) {
                             auto b = std::make_unique<built_op>();
                             b->copy = true;
                             return b;
                         });
}

}  // namespace tessera::plugins::qcom_ml
