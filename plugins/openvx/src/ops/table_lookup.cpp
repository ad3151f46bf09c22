// ops/table_lookup.cpp: table_lookup on vxTensorTableLookupNode: u8 (offset 0) or i16 (offset
// count/2) tables, Tessera's default offsets; the LUT tensor is copied into the vx_lut before
// every run (vxCopyLUT), so a LUT computed by an earlier partition or changed between runs is
// the one used.
#include "ops.hpp"

namespace tessera::plugins::openvx {

using tessera::sdk::support;
namespace op = tessera::op;
namespace sdk = tessera::sdk;

namespace {

support decide_table_lookup(const op::table_lookup& t, const descs& in, const descs&) {
    const std::int64_t count = in[1].dim(0);
    const std::int64_t vx_offset = in[0].type() == dtype::i16 ? count / 2 : 0;
    if (t.effective_offset(in[0].type(), count) != vx_offset)
        return decline(TSR_REASON_ATTRIBUTE,
                       "offset " + std::to_string(t.effective_offset(in[0].type(), count)) +
                           ": an OpenVX LUT's offset is " + std::to_string(vx_offset));
    return support::native();
}

/// Copies the LUT tensor into the vx_lut before each run.
class lut_step final : public step {
  public:
    lut_step(vx_lut lut, int id) : lut_(lut), id_(id) {}
    void before_run(const buffers& b) override {
        void* host = b.at(static_cast<std::size_t>(id_))->host_data();
        if (!host)
            throw error(status::invalid_argument, "LUT buffer is not host memory",
                        {backend_name, "", ""});
        check_vx(vxCopyLUT(lut_, host, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), "vxCopyLUT");
    }

  private:
    vx_lut lut_;
    int id_;
};

std::unique_ptr<step> build_table_lookup(const op::table_lookup&, const sdk::node& n,
                                         graph_builder& g) {
    const int lut_id = n.inputs[1];
    const tensor_desc& lut_desc = g.desc(lut_id);
    vx_lut lut = g.own(
        vxCreateLUT(g.context(), lut_desc.type() == dtype::i16 ? VX_TYPE_INT16 : VX_TYPE_UINT8,
                    static_cast<vx_size>(lut_desc.dim(0))),
        "vxCreateLUT");
    g.own_node(
        vxTensorTableLookupNode(g.graph(), g.tensor(n.inputs[0]), lut, g.tensor(n.outputs[0])),
        "vxTensorTableLookupNode");
    return std::make_unique<lut_step>(lut, lut_id);
}

}  // namespace

void state_table_lookup(router& r) {
    r.state<op::table_lookup>(framed_rule(&decide_table_lookup), build_rule(&build_table_lookup));
}

}  // namespace tessera::plugins::openvx
