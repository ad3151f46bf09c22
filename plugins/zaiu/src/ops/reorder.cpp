// ops/reorder.cpp: reorders between zaiu stick layouts (restickified on the host).
#include "../host_transfer.hpp"
#include "../layouts.hpp"
#include "ops.hpp"

namespace tessera::plugins::zaiu {

using tessera::tensor_desc;
using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_reorder(const std::vector<tensor_desc>& in, const std::vector<tensor_desc>& out) {
    if (!format_of(in[0]) || !format_of(out[0]))
        return decline(TSR_REASON_LAYOUT,
                       "zaiu reorders convert between its own stick layouts only");
    if (!stickable(out[0].type()))
        return decline(TSR_REASON_DTYPE, "reorder output dtype is not stickable");
    return with_layouts({in[0]}, {out[0]});
}

class reorder_step final : public step {
  public:
    reorder_step(const tessera::sdk::node& n, const std::vector<tensor_desc>& t)
        : from_(n.inputs[0]), to_(n.outputs[0]), from_desc_(t[from_]), to_desc_(t[to_]) {}
    void run(const buffers& b) override {
        restick(b[from_]->host_data(), b[from_]->size(), from_desc_, b[to_]->host_data(),
                b[to_]->size(), to_desc_);
    }

  private:
    int from_, to_;
    tensor_desc from_desc_, to_desc_;
};

}  // namespace

void state_reorder(router& r) {
    // a reorder is answered for the layouts asked, without shape inference
    r.state<op::reorder>([](const op::reorder&,
                            const sdk::op_query& q) { return decide_reorder(q.inputs, q.outputs); },
                         [](const op::reorder&, const sdk::node& n, const descs& t) {
                             return std::make_unique<reorder_step>(n, t);
                         });
}

}  // namespace tessera::plugins::zaiu
