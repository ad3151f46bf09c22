// negate_plugin.cpp: a minimal out-of-tree backend, "negate-test", that runs one op: linear
// activation with a = -1, b = 0 (negation) on f32 tensors. Everything else is declined.
#include <tessera/sdk/plugin_api.hpp>

namespace {

using namespace tessera;

class negate_backend final : public sdk::backend {
  public:
    explicit negate_backend(const sdk::options&) {}

    sdk::support query(const sdk::op_query& q) const override {
        const auto* a = q.op.get_if<op::activation>();
        if (!a || a->spec().kind != activation_kind::linear || a->spec().a != -1.0f ||
            a->spec().b != 0.0f)
            return sdk::support::declined(TSR_REASON_OP_KIND, "only negation");
        if (q.inputs[0].type() != dtype::f32 || !q.inputs[0].is_row_major())
            return sdk::support::declined(TSR_REASON_LAYOUT, "row-major f32 only");
        return sdk::support::native();
    }

    std::unique_ptr<sdk::executable> compile(const sdk::partition& p) override {
        struct program final : sdk::executable {
            sdk::partition p;
            void execute(const std::vector<sdk::buffer*>& b) override {
                for (const auto& n : p.nodes) {
                    const auto count = p.tensors[n.inputs[0]].num_elements();
                    const auto* in = static_cast<const float*>(b[n.inputs[0]]->host_data());
                    auto* out = static_cast<float*>(b[n.outputs[0]]->host_data());
                    for (std::int64_t i = 0; i < count; ++i) out[i] = -in[i];
                }
            }
        };
        auto prog = std::make_unique<program>();
        prog->p = p;
        return prog;
    }
};

}  // namespace

extern "C" TSR_PLUGIN_EXPORT const tsr_plugin_api* tsr_plugin_entry(const tsr_host_api* host,
                                                                    tsr_error*) {
    return sdk::plugin_api<negate_backend>(host, "negate-test", "1.0", "out-of-tree test plugin");
}
