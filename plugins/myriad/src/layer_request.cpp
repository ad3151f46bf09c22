// layer_request.cpp: a layer request with concrete descriptors as a myriad::LayerSpec.
#include "layer_request.hpp"

#include "layouts.hpp"
#include "tessera/error.hpp"

namespace tessera::plugins::myriad {

namespace {

::myriad::Shape shape_or_throw(const tensor_desc& d, const std::string& type,
                               const std::string& what) {
    std::string why;
    const auto s = layer_shape(d, &why);
    if (!s) throw error(status::unsupported, why, {backend_name, type, what});
    return *s;
}

const tensor_desc& input_at(const std::vector<tensor_desc>& inputs, int index,
                            const std::string& type) {
    if (index < 0 || static_cast<std::size_t>(index) >= inputs.size())
        throw error(status::invalid_argument,
                    "node input " + std::to_string(index) + " does not exist",
                    {backend_name, type, ""});
    return inputs[static_cast<std::size_t>(index)];
}

}  // namespace

::myriad::Shape port_shape(const layer_request& r, std::size_t port, const tensor_desc& d) {
    if (port < r.port_views.size()) return r.port_views[port];
    return shape_or_throw(d, r.type, "input " + std::to_string(port));
}

::myriad::Shape output_shape(const layer_request& r, const tensor_desc& d) {
    if (!r.output_view.empty()) return r.output_view;
    return shape_or_throw(d, r.type, "output");
}

::myriad::LayerSpec make_spec(const layer_request& r, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>& outputs,
                              const std::vector<std::vector<float>>& blob_values) {
    ::myriad::LayerSpec spec;
    spec.type = r.type;
    spec.params = r.params;
    for (std::size_t port = 0; port < r.ports.size(); ++port) {
        spec.input_shapes.push_back(port_shape(r, port, input_at(inputs, r.ports[port], r.type)));
        spec.input_layouts.push_back(::myriad::Layout::BFYX);
    }
    if (outputs.size() != 1)
        throw error(status::unsupported, "a Myriad custom layer has exactly one output",
                    {backend_name, r.type, ""});
    spec.output_shape = output_shape(r, outputs[0]);
    for (std::size_t i = 0; i < r.blobs.size(); ++i) {
        const tensor_desc& d = input_at(inputs, r.blobs[i].first, r.type);
        ::myriad::HostTensor blob;
        blob.shape = shape_or_throw(d, r.type, r.blobs[i].second);
        blob.values = i < blob_values.size()
                          ? blob_values[i]
                          : std::vector<float>(static_cast<std::size_t>(d.num_elements()), 0.0f);
        spec.blobs[r.blobs[i].second] = std::move(blob);
    }
    return spec;
}

}  // namespace tessera::plugins::myriad
