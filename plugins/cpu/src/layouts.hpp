// layouts.hpp: the cpu backend's layouts. Its preferred activation layout is nchw16c (channels
// in blocks of 16), an opaque Tessera layout; parameters and everything else stay row-major.
// Also: the runtime's view of a partition tensor, host conversions of blocked tensors, and how a
// query answer lays out an op's tensors for the route its rule chose.
#pragma once

#include <string>
#include <vector>

#include <tessera/cpu/tensor_info.hpp>
#include <tessera/sdk/backend.hpp>
#include <tessera/tensor.hpp>

namespace tessera::plugins::cpu {

/// The ACL-style runtime of backends/cpu.
namespace runtime = ::tessera::cpu;

using descs = std::vector<tensor_desc>;

inline constexpr const char* backend_name = "cpu";
inline constexpr const char* blocked_format = "nchw16c";

/// Whether `d` is a 4-D f32 tensor in the cpu backend's blocked layout.
bool is_blocked(const tensor_desc& d);

/// `d` (4-D, f32) in the blocked layout, with the runtime's allocation size.
tensor_desc blocked(const tensor_desc& d);

/// The runtime's description of a partition tensor: nchw16c for blocked descriptors; for
/// row-major ones nchw when `as_image` and the rank is 4 (what Reorder needs), plain otherwise.
runtime::TensorInfo runtime_info(const tensor_desc& d, bool as_image = false);

/// Blocked buffer -> strided host tensor (any dtype; integer results rounded and narrowed with
/// `rounding` and `overflow`) and back. Padding cells are written as zero.
void blocked_to_host(const void* src, const tensor_desc& src_desc, const tensor& dst,
                     rounding_policy rounding = rounding_policy::to_nearest_even,
                     overflow_policy overflow = overflow_policy::saturate);
void host_to_blocked(const tensor& src, void* dst, std::int64_t dst_bytes,
                     const tensor_desc& dst_desc);

/// How an op runs, as its rule (ops/*.cpp) decides from the op and its tensors' shapes and
/// dtypes; query and compile ask the same rule, so they always agree.
enum class route {
    native_blocked,  ///< runtime function; activations in nchw16c, parameters row-major
    native_plain,    ///< runtime function on row-major tensors
    reference,       ///< the reference kernel, run by this plugin on row-major tensors
    declined,
};

struct route_choice {
    route how = route::declined;
    tsr_reason reason = TSR_REASON_NONE;
    std::string why;  ///< for reference/declined: what the runtime lacks
};

/// The query answer for route `r`: a decline, or native / emulated ("reference kernel: why")
/// with layouts: on the blocked route the first `activation_inputs` inputs and every output in
/// nchw16c, all other tensors row-major; `in` and `out` are the logical tensors.
sdk::support answer(const route_choice& r, const descs& in, const descs& out,
                    int activation_inputs = 1);

}  // namespace tessera::plugins::cpu
