// kernel_fc_fast.cpp: the int32-lane path of the fully connected layer, for int16 tensors
// outside the int16 path's domain (weights with |w| >= 2^shift, whose rounded products may leave
// int16 and are narrowed per product). Each lane holds one product of an input element and a
// weight: exact in int32 (|x w| <= 2^30), rounded and narrowed as the scalar kernel does
// (int32_lanes.hpp), summed in int32 lanes. The sums equal the scalar kernel's when no partial
// sum can leave the accumulator (accumulator_bits 0 or >= 32 with fewer than 65535 products,
// each narrowed product being at most 2^15) or when the overflow policy wraps (the output is
// then the sum modulo 2^16 whatever the accumulator, and int32 lanes wrapping modulo 2^32 keep
// it). Output channels are split over oneTBB threads.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "fixed_point.hpp"
#include "int32_lanes.hpp"
#include "kernels.hpp"

namespace openvx {

bool run_fully_connected_fast(const _vx_node& node) {
    using int32_lanes::lanes;
    using int32_lanes::width;
    const tensor_span in(tensor_param(node, 0)), w(tensor_param(node, 1)),
        out(tensor_param(node, 3));
    const _vx_tensor_t* bias_t = tensor_param(node, 2);
    const node_config& c = node.config;
    const int shift = in.fixed_point_pos + w.fixed_point_pos - out.fixed_point_pos;
    const bool wrap = c.overflow_policy == VX_CONVERT_POLICY_WRAP;
    const std::size_t core = c.core_dims;
    tensor_span in_core = in, w_core = w;
    in_core.dims.resize(core);
    in_core.strides.resize(core);
    w_core.dims.pop_back();
    w_core.strides.pop_back();
    const vx_size inner = w_core.num_elements(), ofm_n = w.dims.back();
    const bool wide =
        wrap || ((c.accumulator_bits == 0 || c.accumulator_bits >= 32) && inner < 65535);
    if (in.type != VX_TYPE_INT16 || w.type != VX_TYPE_INT16 || out.type != VX_TYPE_INT16 ||
        (bias_t != nullptr && bias_t->data_type != VX_TYPE_INT16) || !wide || shift < 0 ||
        shift > 30) {
        return false;
    }
    const bool nearest = c.rounding_policy == VX_ROUND_POLICY_TO_NEAREST_EVEN;
    const bool saturate = !wrap;
    // Input rows as int32, inner padded with zeros to whole lane groups (a zero input gives a
    // zero product); offsets of each batch row's outputs.
    const vx_size padded = (inner + width - 1) / width * width;
    vx_size batch = 1;
    for (std::size_t d = core; d < in.dims.size(); ++d) batch *= in.dims[d];
    std::vector<std::int32_t> x(batch * padded, 0);
    std::vector<vx_size> out_base(batch, 0);
    std::vector<vx_size> in_offsets(inner), w_offsets(inner);
    for (vx_size i = 0; i < inner; ++i) {
        in_offsets[i] = in_core.offset_of(i);
        w_offsets[i] = w_core.offset_of(i);
    }
    for (vx_size r = 0; r < batch; ++r) {
        vx_size in_base = 0, rest = r;
        for (std::size_t d = core; d < in.dims.size(); ++d) {
            in_base += (rest % in.dims[d]) * in.strides[d];
            out_base[r] += (rest % in.dims[d]) * out.stride(d - core + 1);
            rest /= in.dims[d];
        }
        for (vx_size i = 0; i < inner; ++i)
            x[r * padded + i] = static_cast<std::int32_t>(in.load(in_base + in_offsets[i]));
    }
    tbb::parallel_for(
        tbb::blocked_range<vx_size>(0, ofm_n), [&](const tbb::blocked_range<vx_size>& range) {
            std::vector<std::int32_t> weights(padded, 0);  // one weight row as int32
            alignas(64) std::int32_t sum_lanes[width];
            for (vx_size o = range.begin(); o != range.end(); ++o) {
                const vx_size w_base = o * w.strides.back();
                for (vx_size i = 0; i < inner; ++i)
                    weights[i] = static_cast<std::int32_t>(w.load(w_base + w_offsets[i]));
                const std::int64_t bias =
                    bias_t ? tensor_span(bias_t).load(o * bias_t->strides[0]) : 0;
                for (vx_size r = 0; r < batch; ++r) {
                    const std::int32_t* row = x.data() + r * padded;
                    lanes acc(0);
                    for (vx_size i = 0; i < padded; i += width)
                        acc += int32_lanes::product_lanes(
                            lanes::load_unaligned(row + i) *
                                lanes::load_unaligned(weights.data() + i),
                            shift, nearest, saturate);
                    acc.store_aligned(sum_lanes);
                    // Lanes summed modulo 2^32 (exact when the sums fit, enough when wrapping).
                    std::uint32_t sum = 0;
                    for (std::size_t l = 0; l < width; ++l)
                        sum += static_cast<std::uint32_t>(sum_lanes[l]);
                    const std::int64_t total = static_cast<std::int32_t>(sum) + bias;
                    out.store(out_base[r] + o * out.stride(0),
                              fixed::narrow_to(total, VX_TYPE_INT16, c.overflow_policy));
                }
            }
        });
    return true;
}

}  // namespace openvx
