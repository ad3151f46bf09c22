// host_fixup.cpp: read / edit / write back of zaiu results through the public transforms.
#include "host_fixup.hpp"

#include "host_transfer.hpp"

namespace tessera::plugins::zaiu {

using tessera::dtype;
using tessera::tensor;
using tessera::tensor_desc;

tensor read_sticks(tessera::sdk::buffer& b, const tensor_desc& desc) {
    tensor values(tensor_desc(desc.dims(), dtype::f32));
    unstickify(b.host_data(), b.size(), desc, values);
    return values;
}

void edit_sticks(tessera::sdk::buffer& b, const tensor_desc& desc,
                 const std::function<float(float, std::int64_t)>& edit) {
    tensor values = read_sticks(b, desc);
    float* v = values.data_as<float>();
    for (std::int64_t i = 0; i < values.num_elements(); ++i) v[i] = edit(v[i], i);
    stickify(values, desc, b.host_data(), b.size());
}

}  // namespace tessera::plugins::zaiu
