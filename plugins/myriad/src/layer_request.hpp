// layer_request.hpp: one Tessera node as a Myriad layer: the layer type the bindings are searched
// for (the VPU IR's type name), its IR parameters, which node inputs are the layer's ports and
// which are blobs (`Data source="weights"`), and the myriad::LayerSpec made from it.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "myriad/runtime.h"
#include "tessera/c/plugin.h"
#include "tessera/tensor_desc.hpp"

namespace tessera::plugins::myriad {

/// Thrown while describing an op that has no Myriad layer form.
class op_declined : public std::runtime_error {
  public:
    op_declined(tsr_reason why, const std::string& text) : std::runtime_error(text), reason(why) {}
    tsr_reason reason;
};

[[noreturn]] inline void decline(tsr_reason why, const std::string& text) {
    throw op_declined(why, text);
}

/// One node as a Myriad layer.
struct layer_request {
    std::string type;                                ///< layer type, e.g. "Convolution", "GRN"
    ::myriad::LayerParams params;                    ///< IR parameters
    std::vector<int> ports;                          ///< node input index of each layer input port
    std::vector<std::pair<int, std::string>> blobs;  ///< node input index -> blob name
};

/// The layer spec for a node with these input and output descriptors. `blob_values` holds the
/// values of each request blob (in request order); empty: zeros of the blob's size (queries).
::myriad::LayerSpec make_spec(const layer_request& r, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>& outputs,
                              const std::vector<std::vector<float>>& blob_values = {});

}  // namespace tessera::plugins::myriad
