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
    /// The shape the layer sees for each port and for the output when it is not the tensor's own
    /// (a dense view of the same row-major memory, e.g. normalised rows as [1, rows, 1, length]);
    /// empty: the tensors' dims.
    std::vector<::myriad::Shape> port_views;
    ::myriad::Shape output_view;
    /// The kernels must declare exactly the tensors' element types (no conversion at the
    /// layer's boundary): the op is itself an element-type conversion.
    bool exact_types = false;
};

/// The layer shape of port `port` (tensor `d`): its view, else the tensor's dims.
::myriad::Shape port_shape(const layer_request& r, std::size_t port, const tensor_desc& d);

/// The layer shape of the output (tensor `d`): its view, else the tensor's dims.
::myriad::Shape output_shape(const layer_request& r, const tensor_desc& d);

/// The layer spec for a node with these input and output descriptors. `blob_values` holds the
/// values of each request blob (in request order); empty: zeros of the blob's size (queries).
::myriad::LayerSpec make_spec(const layer_request& r, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>& outputs,
                              const std::vector<std::vector<float>>& blob_values = {});

}  // namespace tessera::plugins::myriad
