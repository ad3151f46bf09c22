// edge_copy.cpp: host <-> OpenVX tensor copies at a partition's edges (see edge_copy.hpp).
#include "edge_copy.hpp"

#include "tessera/numeric/fixed_point.hpp"

namespace tessera::plugins::openvx {

edge_copy::edge_copy(vx_context ctx, const tensor_desc& d, vx_format f) : desc_(d), f_(f) {
    std::vector<vx_uint32> dims = vx_dims(d);
    std::vector<vx_uint32> strides(dims.size());
    const vx_uint32 element = f.type == VX_TYPE_INT16 ? 2 : 1;
    vx_uint32 stride = element;
    for (std::size_t k = 0; k < dims.size(); ++k) {
        strides[k] = stride;
        stride *= dims[k];
    }
    elements_ = stride / element;
    addr_ = vx_owned<vx_tensor_addressing>(vxCreateTensorAddressing(
        ctx, dims.data(), strides.data(), static_cast<vx_uint8>(dims.size())));
    check_created(reinterpret_cast<vx_reference>(addr_.get()), "vxCreateTensorAddressing");
    if (f.from_f32) staging_.resize(elements_);
}

void edge_copy::in(vx_tensor t, tessera::sdk::buffer& b) {
    void* host = host_of(b);
    if (f_.from_f32) {
        const auto* src = static_cast<const float*>(host);
        for (std::size_t i = 0; i < elements_; ++i)
            staging_[i] = numeric::to_fixed<std::int16_t>(src[i], q7_8_position);
        host = staging_.data();
    }
    check_vx(vxCopyTensorPatch(t, nullptr, addr_.get(), host, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
             "vxCopyTensorPatch (write)");
}

void edge_copy::out(vx_tensor t, tessera::sdk::buffer& b) {
    void* host = host_of(b);
    void* target = f_.from_f32 ? static_cast<void*>(staging_.data()) : host;
    check_vx(vxCopyTensorPatch(t, nullptr, addr_.get(), target, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
             "vxCopyTensorPatch (read)");
    if (f_.from_f32) {
        auto* dst = static_cast<float*>(host);
        for (std::size_t i = 0; i < elements_; ++i)
            dst[i] =
                static_cast<float>(numeric::from_fixed<std::int16_t>(staging_[i], q7_8_position));
    }
}

void* edge_copy::host_of(tessera::sdk::buffer& b) const {
    void* p = b.host_data();
    if (!p || b.size() < desc_.size_bytes())
        throw error(status::invalid_argument,
                    "buffer of " + desc_.to_string() + " is not host memory of " +
                        std::to_string(desc_.size_bytes()) + " bytes",
                    {backend_name, "", ""});
    return p;
}

}  // namespace tessera::plugins::openvx
