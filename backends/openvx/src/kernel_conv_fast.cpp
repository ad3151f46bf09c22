// kernel_conv_fast.cpp: the int16 SIMD path (xsimd, the build's architecture) of the convolution
// layer for the common case: Q-format int16 tensors, any skips, and an accumulator wide
// enough that no partial sum can overflow (accumulator_bits 0 or >= 32 with fewer than 65535
// products per output) or the wrapping overflow policy (any accumulator_bits), where 32-bit lane
// sums equal the scalar kernel's bit for bit. Each lane
// computes one output position: product, rounding (to zero / nearest even), narrowing (wrap /
// saturate) exactly as the scalar kernel does. This is the exact SIMD path for weights with
// |w| >= 2^shift (a rounded product may leave int16 and is narrowed per product); output
// channels of each batch item are split over oneTBB threads.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <vector>

#include "fixed_point.hpp"
#include "int32_lanes.hpp"
#include "kernels.hpp"

namespace openvx {

using int32_lanes::lanes;
using int32_lanes::product_lanes;
using int32_lanes::width;

bool run_convolution_fast(const _vx_node& node) {
    const _vx_tensor_t* in_t = tensor_param(node, 0);
    const _vx_tensor_t* w_t = tensor_param(node, 1);
    const _vx_tensor_t* out_t = tensor_param(node, 3);
    const node_config& c = node.config;
    const tensor_span in(in_t), w(w_t), out(out_t);
    const vx_size kx_n = w.dim(0), ky_n = w.dim(1), ifm_n = w.dim(2), ofm_n = w.dim(3);
    const vx_size products = kx_n * ky_n * ifm_n;
    // Wrapping makes the output the sum modulo 2^16 whatever the accumulator (2^16 divides
    // 2^accumulator_bits and 2^32), which int32 lanes wrapping modulo 2^32 keep.
    const bool wrap = c.overflow_policy == VX_CONVERT_POLICY_WRAP;
    const bool wide = wrap || c.accumulator_bits == 0 || c.accumulator_bits >= 32;
    const int shift = in.fixed_point_pos + w.fixed_point_pos - out.fixed_point_pos;
    if (in.type != VX_TYPE_INT16 || c.skip_x < 1 || !wide || (products >= 65535 && !wrap) ||
        shift > 30) {
        return false;
    }
    const vx_size in_w = in.dim(0), in_h = in.dim(1), batch = in.dim(3);
    const vx_size out_w = out.dim(0), out_h = out.dim(1);
    // The input as int32 with its zero padding, rows rounded up to whole lane groups.
    const vx_size groups = (out_w + width - 1) / width;
    // With horizontal skip s each padded row is s phases of phase_w columns (column X at phase
    // X mod s, position X / s): tap kx of consecutive outputs reads consecutive positions.
    const vx_size skip_x = c.skip_x;
    const vx_size phase_w = groups * width + kx_n / skip_x + 1;
    const vx_size padded_w = skip_x * phase_w;
    const vx_size padded_h = in_h + 2 * c.pad_y;
    std::vector<std::int32_t> padded(batch * ifm_n * padded_h * padded_w, 0);
    for (vx_size n = 0; n < batch; ++n)
        for (vx_size ci = 0; ci < ifm_n; ++ci)
            for (vx_size y = 0; y < in_h; ++y)
                for (vx_size x = 0; x < in_w && x + c.pad_x < padded_w; ++x) {
                    const vx_size column = x + c.pad_x;
                    padded[((n * ifm_n + ci) * padded_h + y + c.pad_y) * padded_w +
                           column % skip_x * phase_w + column / skip_x] =
                        static_cast<std::int32_t>(in.load(x * in.stride(0) + y * in.stride(1) +
                                                          ci * in.stride(2) + n * in.stride(3)));
                }
    const bool nearest = c.rounding_policy == VX_ROUND_POLICY_TO_NEAREST_EVEN;
    const bool saturate = c.overflow_policy == VX_CONVERT_POLICY_SATURATE;
    const _vx_tensor_t* bias_t = tensor_param(node, 2);
    const bool per_location_bias = bias_t && bias_t->dims.size() == 3;
    // Work items: (batch item, output channel), split over oneTBB threads.
    tbb::parallel_for(
        tbb::blocked_range<vx_size>(0, batch * ofm_n),
        [&](const tbb::blocked_range<vx_size>& range) {
            std::vector<lanes> acc(groups);
            alignas(64) std::int32_t row[width];
            for (vx_size item = range.begin(); item != range.end(); ++item) {
                const vx_size n = item / ofm_n, o = item % ofm_n;
                for (vx_size oy = 0; oy < out_h; ++oy) {
                    std::fill(acc.begin(), acc.end(), lanes(0));
                    for (vx_size ci = 0; ci < ifm_n; ++ci)
                        for (vx_size ky = 0; ky < ky_n; ++ky) {
                            // Ceiling rounding can reach rows past the padding: they add zeros.
                            if (oy * c.skip_y + ky >= padded_h) continue;
                            const std::int32_t* src =
                                padded.data() +
                                ((n * ifm_n + ci) * padded_h + oy * c.skip_y + ky) * padded_w;
                            for (vx_size kx = 0; kx < kx_n; ++kx) {
                                const lanes weight(static_cast<std::int32_t>(
                                    w.load(kx * w.stride(0) + ky * w.stride(1) + ci * w.stride(2) +
                                           o * w.stride(3))));
                                for (vx_size g = 0; g < groups; ++g) {
                                    const lanes x = lanes::load_unaligned(
                                        src + kx % skip_x * phase_w + kx / skip_x + g * width);
                                    acc[g] += product_lanes(x * weight, shift, nearest, saturate);
                                }
                            }
                        }
                    for (vx_size g = 0; g < groups; ++g) {
                        acc[g].store_aligned(row);
                        for (vx_size l = 0; l < width && g * width + l < out_w; ++l) {
                            const vx_size ox = g * width + l;
                            std::int64_t sum = row[l];
                            if (bias_t) {
                                const tensor_span b(bias_t);
                                sum +=
                                    b.load(per_location_bias ? ox * b.stride(0) + oy * b.stride(1) +
                                                                   o * b.stride(2)
                                                             : o * b.stride(0));
                            }
                            out.store(ox * out.stride(0) + oy * out.stride(1) + o * out.stride(2) +
                                          n * out.stride(3),
                                      fixed::narrow_to(sum, VX_TYPE_INT16, c.overflow_policy));
                        }
                    }
                }
            }
        });
    return true;
}

}  // namespace openvx
