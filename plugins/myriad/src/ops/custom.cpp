// ops/custom.cpp: op::custom runs as the layer its type names: attributes are the IR parameters,
// every input a port, the output as the op declares it. Kernel sources carried by the op are not
// used: the kernels come from the bindings (config=...), so such an op is declined rather than
// run with other code than it names.
#include "tessera/ops/custom.hpp"
#include "../backend.hpp"
#include "ops.hpp"

namespace tessera::plugins::myriad {

namespace {

layer_request describe_custom(const op::custom& c, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>&) {
    if (!c.sources().empty())
        decline(TSR_REASON_ATTRIBUTE,
                "custom '" + c.type_name() +
                    "' carries kernel sources; the myriad plugin runs the kernels its bindings "
                    "XML names (myriad:config=customLayers.xml)");
    layer_request r;
    r.type = c.type_name();
    for (const auto& a : c.attributes()) r.params[a.key] = a.value;
    for (std::size_t i = 0; i < inputs.size(); ++i) r.ports.push_back(static_cast<int>(i));
    return r;
}

}  // namespace

void state_custom(router& r) {
    state_layer<op::custom>(r, &describe_custom);
}

}  // namespace tessera::plugins::myriad
