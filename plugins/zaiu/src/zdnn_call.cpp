// zdnn_call.cpp: status checks, stick memory and zview.
#include "zdnn_call.hpp"

#include <cstring>

namespace tessera::plugins::zaiu {

void check(zdnn_status s, const std::string& what) {
    if (s == ZDNN_OK || (s & 0xFFFF0000u) == ZDNN_WARNING) return;
    const tessera::status code = s == ZDNN_ALLOCATION_FAILURE ? tessera::status::out_of_memory
                                                              : tessera::status::backend_failure;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08X", static_cast<unsigned>(s));
    throw tessera::error(code, what + " failed: " + zdnn_get_status_message(s) + " (" + hex + ")",
                         {backend_name, "", ""});
}

stick_memory::stick_memory(std::uint64_t bytes) : size_(bytes) {
    const std::uint64_t rounded = (bytes + stick_alignment - 1) / stick_alignment * stick_alignment;
    if (rounded == 0) return;
    void* p = std::aligned_alloc(stick_alignment, rounded);
    if (!p)
        throw tessera::error(tessera::status::out_of_memory,
                             "cannot allocate " + std::to_string(bytes) + " bytes of sticks");
    std::memset(p, 0, rounded);
    data_.reset(p);
}

zview::zview(const pre_shape& shape, zdnn_data_types type) {
    make_descs(shape, type, pre_, tfrmd_);
    zdnn_init_ztensor(&pre_, &tfrmd_, &z_);
}

void zview::quantize(float scale, float offset) {
    zdnn_init_quantized_ztensor(&pre_, &tfrmd_, scale, offset, &z_);
}

zdnn_ztensor* zview::bind(void* buffer, bool transformed) {
    if (!buffer || reinterpret_cast<std::uintptr_t>(buffer) % stick_alignment != 0) {
        throw tessera::error(tessera::status::invalid_argument, "stick buffer is not 4 KiB aligned",
                             {backend_name, "", ""});
    }
    z_.buffer = buffer;
    z_.buffer_size = size();
    z_.is_transformed = transformed;
    return &z_;
}

zdnn_ztensor* zview::bind_scratch(bool transformed) {
    if (!scratch_.data()) scratch_ = stick_memory(size());
    return bind(scratch_.data(), transformed);
}

bool same_sticks(const zdnn_tensor_desc& a, const zdnn_tensor_desc& b) {
    return a.format == b.format && a.type == b.type && a.dim4 == b.dim4 && a.dim3 == b.dim3 &&
           a.dim2 == b.dim2 && a.dim1 == b.dim1;
}

}  // namespace tessera::plugins::zaiu
