// kernel_rows_simd.cpp: the int16 SIMD paths of the pooling layer and of the element-wise tensor
// nodes, on the row kernels of the CPU's best table (tensor_rows_simd.hpp), bit-identical to the
// scalar kernels (kernel_pool_norm.cpp, kernel_tensor_ops.cpp) wherever they run:
// - pooling: int16 input and output, max (zero padding counts, positions past the padded input do
//   not) or average (window sum in int32, divided by the positions counted, rounded to nearest
//   even);
// - add / subtract: int16 tensors, either policy, any broadcasting;
// - multiply: int16 tensors; a power-of-two scale (1, 1/2^k, ...) with the product's shift
//   fa + fb - fo - log2(scale) in 0..30 in int32 lanes (they hold x * y exactly), other scales
//   (1/255: an odd mantissa of up to 24 bits) in int64 lanes with shifts 0..62; scales whose
//   shift is negative (products scaled up) take the scalar kernel.
// Element access: dimension 0 contiguous in every tensor (views keep the root's element stride).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "data_objects.hpp"
#include "kernels.hpp"
#include "q78_kernels.hpp"

namespace openvx {

namespace {

bool int16_rows(const tensor_span& t) {
    return t.type == VX_TYPE_INT16 && (t.dim(0) == 1 || t.stride(0) == sizeof(std::int16_t));
}

std::int16_t* int16_at(const tensor_span& t, vx_size offset) {
    return reinterpret_cast<std::int16_t*>(t.base + offset);
}

/// sum / count rounded to nearest, ties to even (count > 0), as the scalar kernel computes it.
std::int16_t average(std::int64_t sum, std::int64_t count) {
    std::int64_t q = sum / count;
    const std::int64_t r = sum % count;
    const std::int64_t twice = 2 * (r < 0 ? -r : r);
    if (twice > count || (twice == count && (q & 1) != 0)) q += sum < 0 ? -1 : 1;
    return static_cast<std::int16_t>(q);
}

}  // namespace

const char* run_pooling_simd(const _vx_node& node) {
    const q78::kernel_table* table = q78::best_table();
    const tensor_span in(tensor_param(node, 0)), out(tensor_param(node, 1));
    if (table == nullptr || !int16_rows(in) || !int16_rows(out)) return nullptr;
    const q78::row_kernels& k = table->rows;
    const node_config& c = node.config;
    const bool is_max = c.pool_type == VX_CONVOLUTIONAL_NETWORK_POOLING_MAX;
    const vx_size in_w = in.dim(0), in_h = in.dim(1), out_w = out.dim(0), out_h = out.dim(1);
    const vx_size pad_x = c.pad_x, pad_y = c.pad_y, size_x = c.pool_size_x, size_y = c.pool_size_y,
                  skip_x = c.skip_x, skip_y = c.skip_y;
    // Window columns of the padded input: [0, span); those at or past valid_w (ceiling
    // rounding) do not count: they hold -32768 for max (never above a counted value) and 0 for
    // sums, and the divisor leaves them out.
    const vx_size span = (out_w - 1) * skip_x + size_x;
    const vx_size valid_w = in_w + 2 * pad_x;
    const std::int16_t past = is_max ? std::int16_t{-32768} : std::int16_t{0};
    const vx_size positions = (out_w - 1) * skip_x + 1;
    const vx_size planes = in.dim(2) * in.dim(3);
    // Output columns whose window starts inside the padded input.
    const vx_size counted = std::min(out_w, (valid_w + skip_x - 1) / skip_x);
    // Pieces of at least an eighth of the planes: each piece sets its buffers up once.
    tbb::parallel_for(
        tbb::blocked_range<vx_size>(0, planes, std::max<vx_size>(1, planes / 8)),
        [&](const tbb::blocked_range<vx_size>& range) {
            // The window rows of one output row (input rows, or a zero row for the padding),
            // and the row results. The padding columns of the vertical results are constant:
            // 0 beside the input, `past` at and after valid_w; only the input's columns change.
            const std::vector<std::int16_t> zero_row(in_w, 0);
            std::vector<const std::int16_t*> window(size_y);
            std::vector<std::int16_t> down16(span, 0), along16(positions + 1);
            std::vector<std::int32_t> down32(span, 0), along32(positions);
            for (vx_size x = std::min(valid_w, span); x < span; ++x) {
                down16[x] = past;
                down32[x] = past;
            }
            const vx_size copy = std::min(in_w, span - pad_x);  // pad_x < size_x <= span
            for (vx_size plane = range.begin(); plane != range.end(); ++plane) {
                const vx_size ci = plane % in.dim(2), n = plane / in.dim(2);
                const vx_size in_plane = ci * in.stride(2) + n * in.stride(3);
                for (vx_size oy = 0; oy < out_h; ++oy) {
                    // Window rows: padding rows are zero rows; rows past the padded input do not
                    // count.
                    vx_size rows = 0;
                    for (vx_size j = 0; j < size_y; ++j) {
                        const vx_size y = oy * skip_y + j;  // in padded coordinates
                        if (y >= in_h + 2 * pad_y) break;
                        window[rows++] = y < pad_y || y >= in_h + pad_y
                                             ? zero_row.data()
                                             : int16_at(in, (y - pad_y) * in.stride(1) + in_plane);
                    }
                    std::int16_t* dst =
                        int16_at(out, oy * out.stride(1) + ci * out.stride(2) + n * out.stride(3));
                    if (rows == 0) {
                        std::fill(dst, dst + out_w, std::int16_t{0});
                        continue;
                    }
                    if (is_max) {
                        k.max_rows(window.data(), rows, copy, down16.data() + pad_x);
                        k.max_window(down16.data(), size_x, positions, along16.data());
                    } else {
                        k.sum_rows(window.data(), rows, copy, down32.data() + pad_x);
                        k.sum_window(down32.data(), size_x, positions, along32.data());
                    }
                    // Windows starting at or past valid_w (ceiling rounding) count nothing: 0.
                    std::fill(dst + counted, dst + out_w, std::int16_t{0});
                    if (is_max && skip_x == 1) {
                        std::memcpy(dst, along16.data(), counted * sizeof(std::int16_t));
                    } else if (is_max && skip_x == 2) {
                        k.pick_even(along16.data(), counted, dst);
                    } else if (is_max) {
                        const std::int16_t* from = along16.data();
                        for (vx_size ox = 0; ox < counted; ++ox) dst[ox] = from[ox * skip_x];
                    } else {
                        for (vx_size ox = 0; ox < counted; ++ox) {
                            const vx_size x0 = ox * skip_x;
                            const vx_size cols = std::min(size_x, valid_w - x0);
                            dst[ox] = average(along32[x0], static_cast<std::int64_t>(rows * cols));
                        }
                    }
                }
            }
        });
    return table->name;
}

const char* run_elementwise_simd(const _vx_node& node) {
    const q78::kernel_table* table = q78::best_table();
    const bool multiply = node.kind == kernel_kind::tensor_multiply;
    const tensor_span a(tensor_param(node, 0)), b(tensor_param(node, 1)),
        out(tensor_param(node, multiply ? 3 : 2));
    if (table == nullptr || !int16_rows(a) || !int16_rows(b) || !int16_rows(out)) return nullptr;
    const node_config& c = node.config;
    const bool saturate = c.overflow_policy == VX_CONVERT_POLICY_SATURATE;
    int shift = 0;
    std::int64_t mantissa = 1;
    if (multiply) {
        const auto* s = static_cast<const _vx_scalar*>(node.params[2].ref);
        const exact_scale scale(static_cast<float>(s->as_double()));
        // mantissa = odd * 2^t: x * y * mantissa / 2^shift = x * y * odd / 2^(shift - t).
        mantissa = scale.mantissa;
        shift = a.fixed_point_pos + b.fixed_point_pos - out.fixed_point_pos - scale.exponent;
        if (mantissa == 0) {
            shift = 0;
        } else {
            const int t = __builtin_ctzll(static_cast<unsigned long long>(mantissa));
            mantissa >>= t;
            shift -= t;
        }
        // A power of two: int32 lanes; otherwise int64 lanes.
        if (shift < 0 || shift > (mantissa == 1 ? 30 : 62)) return nullptr;
    }
    const bool subtract = node.kind == kernel_kind::tensor_subtract;
    const bool to_zero = c.rounding_policy == VX_ROUND_POLICY_TO_ZERO;
    // Rows: the leading dims that a, b and out share and hold packed (one row when nothing
    // broadcasts), else dim 0 with a broadcast operand repeated.
    vx_size width = 1;
    std::size_t shared = 0;
    for (; shared < out.dims.size(); ++shared) {
        bool packed = true;
        for (const tensor_span* t : {&a, &b, &out})
            packed = packed && t->dim(shared) == out.dims[shared] &&
                     (out.dims[shared] == 1 || t->stride(shared) == width * sizeof(std::int16_t));
        if (!packed) break;
        width *= out.dims[shared];
    }
    if (shared == 0) width = out.dim(0);
    const vx_size rows = out.num_elements() / width;
    const vx_size a_step = shared == 0 && a.dim(0) == 1 ? 0 : 1;
    const vx_size b_step = shared == 0 && b.dim(0) == 1 ? 0 : 1;
    // Work items: pieces of rows of up to 8192 elements.
    constexpr vx_size piece = 8192;
    const vx_size pieces = (width + piece - 1) / piece;
    const q78::row_kernels& k = table->rows;
    tbb::parallel_for(
        tbb::blocked_range<vx_size>(0, rows * pieces, std::max<vx_size>(1, piece / width)),
        [&](const tbb::blocked_range<vx_size>& range) {
            for (vx_size item = range.begin(); item != range.end(); ++item) {
                const vx_size first = item / pieces * width, from = item % pieces * piece;
                const vx_size count = std::min(piece, width - from);
                const std::int16_t* x =
                    int16_at(a, broadcast_offset(a, out, first)) + from * a_step;
                const std::int16_t* y =
                    int16_at(b, broadcast_offset(b, out, first)) + from * b_step;
                std::int16_t* dst = int16_at(out, out.offset_of(first)) + from;
                if (multiply && mantissa == 1) {
                    k.multiply(x, a_step, y, b_step, count, shift, to_zero, saturate, dst);
                } else if (multiply) {
                    k.multiply_scaled(x, a_step, y, b_step, count,
                                      static_cast<std::int32_t>(mantissa), shift, to_zero, saturate,
                                      dst);
                } else {
                    k.add(x, a_step, y, b_step, count, subtract, saturate, dst);
                }
            }
        });
    return table->name;
}

}  // namespace openvx
