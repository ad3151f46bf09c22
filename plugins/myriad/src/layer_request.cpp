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

::myriad::LayerSpec make_spec(const layer_request& r, const std::vector<tensor_desc>& inputs,
                              const std::vector<tensor_desc>& outputs,
                              const std::vector<std::vector<float>>& blob_values) {
    ::myriad::LayerSpec spec;
    spec.type = r.type;
    spec.params = r.params;
    for (int port : r.ports) {
        spec.input_shapes.push_back(shape_or_throw(input_at(inputs, port, r.type), r.type,
                                                   "input " + std::to_string(port)));
        spec.input_layouts.push_back(::myriad::Layout::BFYX);
    }
    if (outputs.size() != 1)
        throw error(status::unsupported, "a Myriad custom layer has exactly one output",
                    {backend_name, r.type, ""});
    spec.output_shape = shape_or_throw(outputs[0], r.type, "output");
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
