// blocked_layout.hpp: the cpu backend's preferred activation layout, nchw16c (channels in blocks
// of 16), as an opaque Tessera layout, and conversions between it and strided host tensors.
#pragma once

#include <tessera/cpu/tensor_info.hpp>
#include <tessera/tensor.hpp>

namespace tessera::cpu_plugin {

inline constexpr const char* backend_name = "cpu";
inline constexpr const char* blocked_format = "nchw16c";

/// Whether `d` is a 4-D f32 tensor in the cpu backend's blocked layout.
bool is_blocked(const tensor_desc& d);

/// `d` (4-D, f32) in the blocked layout, with the runtime's allocation size.
tensor_desc blocked(const tensor_desc& d);

/// The runtime's description of a partition tensor: nchw16c for blocked descriptors; for
/// row-major ones nchw when `as_image` and the rank is 4 (what Reorder needs), plain otherwise.
cpu::TensorInfo runtime_info(const tensor_desc& d, bool as_image = false);

/// Blocked buffer -> strided host tensor (any dtype) and back. Padding cells are written as zero.
void blocked_to_host(const void* src, const tensor_desc& src_desc, const tensor& dst);
void host_to_blocked(const tensor& src, void* dst, std::int64_t dst_bytes,
                     const tensor_desc& dst_desc);

}  // namespace tessera::cpu_plugin
