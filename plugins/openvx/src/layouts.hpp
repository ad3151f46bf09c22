// layouts.hpp: how Tessera tensors are held as OpenVX tensors and how the openvx backend answers a
// query. A row-major Tessera tensor [d0, ..., d(r-1)] is the OpenVX tensor [d(r-1), ..., d0]
// (OpenVX's dim 0 is the fastest), so NCHW images are OpenVX's [W, H, C, N] and conv2d weights
// [O, C, KH, KW] are [kx, ky, IFM, OFM] with no data movement. Element types: i16 fixed point
// (VX_TYPE_INT16, its fixed_point_pos), i8 / u8 with scale 1 and zero point 0 (VX_TYPE_INT8 /
// VX_TYPE_UINT8, position 0); with precision=q7.8, f32 tensors are held as Q7.8 (VX_TYPE_INT16,
// position 8), converted at the partition's edges.
#pragma once

#include <VX/vx_khr_cnn.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tessera/sdk/backend.hpp"

namespace tessera::plugins::openvx {

using descs = std::vector<tensor_desc>;

/// What the backend computes in: the tensors' own integer types (exact, the default), or, with
/// precision=q7.8, also f32 tensors quantised to Q7.8 at the partition's edges.
enum class precision { exact, q7_8 };

/// Q7.8: the fixed-point position f32 tensors get in precision=q7.8.
inline constexpr int q7_8_position = 8;
/// The most dimensions an OpenVX tensor of this implementation has
/// (VX_CONTEXT_MAX_TENSOR_DIMENSIONS).
inline constexpr int max_vx_dims = 6;

/// An OpenVX element format.
struct vx_format {
    vx_enum type = VX_TYPE_INT16;
    vx_uint8 position = 0;
    bool from_f32 = false;  ///< an f32 Tessera tensor held as Q7.8
};

/// The OpenVX format of `d` under `p`, or the reason it has none.
std::optional<vx_format> format_of(const tensor_desc& d, precision p, std::string* why = nullptr);

/// OpenVX dims of `d` (reversed; a rank-0 tensor is [1]).
std::vector<vx_uint32> vx_dims(const tensor_desc& d);

/// Answers query `q` with `decide(inputs, inferred outputs)` inside the common frame: shape
/// inference, then tensors OpenVX cannot hold declined (dtype, rank, empty dims, quantisation);
/// the chosen layouts are row-major for every operand.
sdk::support framed(const sdk::op_query& q, precision p,
                    const std::function<sdk::support(const descs& in, const descs& out)>& decide);

inline sdk::support decline(tsr_reason why, std::string text) {
    return sdk::support::declined(why, std::move(text));
}

/// The integer policies a rule must use: an op's own on integer tensors, OpenVX's Q7.8 defaults
/// (nearest even, saturate) on f32 tensors held as Q7.8.
vx_enum vx_rounding(std::int32_t tsr_rounding);
vx_enum vx_overflow(std::int32_t tsr_overflow);

/// Whether `d` is an f32 tensor (held as Q7.8 under precision=q7.8).
inline bool is_f32(const tensor_desc& d) {
    return d.type() == dtype::f32;
}

}  // namespace tessera::plugins::openvx
