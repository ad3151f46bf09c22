// kernel_weighted_q78.cpp: the int16 SIMD paths of the convolution and fully connected layers
// (q78_kernels.hpp), bit-identical to the scalar kernels of kernel_weighted.cpp wherever they run:
// - int16 tensors (input, weights, bias, output) with shift = pos_in + pos_w - pos_out in 1..15
//   (Q7.8: 8), rounding to nearest (ties to even) or toward zero;
// - every weight |w| < 2^shift (Q7.8: |w| < 1.0), so that no rounded product can overflow int16
//   and neither overflow policy alters one (q78_simd.hpp gives the exact per-product step);
// - no partial sum can leave the accumulator: products * bound + |bias| fits accumulator_bits
//   (and int32), the bound on a rounded product coming from the largest |input| of this run and
//   the largest |weight|; then the accumulator's narrowing never acts and the sums are exact;
//   or the overflow policy wraps, which makes the output the sum modulo 2^16 (sums_exact);
// - convolution: any skips (with a horizontal skip s > 1 each padded input row is stored as s
//   phases, columns X = s j + phase, so that output columns read consecutive elements).
// Elsewhere the caller runs the other kernels. Weights are packed once per content (the root
// tensor's generation counter tells when they change); the work is split over oneTBB threads.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "fixed_point.hpp"
#include "kernels.hpp"
#include "q78_kernels.hpp"

namespace openvx {

namespace q78 {

#if !defined(__x86_64__)
const kernel_table* table_avx512() {
    return nullptr;
}
const kernel_table* table_avx2() {
    return nullptr;
}
#endif
#if !defined(__aarch64__)
const kernel_table* table_neon() {
    return nullptr;
}
#endif

const kernel_table* best_table() {
    // TESSERA_OPENVX_ISA=avx2 picks a narrower table than the CPU's best (tests run both).
    const char* isa = std::getenv("TESSERA_OPENVX_ISA");
#if defined(__x86_64__)
    static const bool avx512 = __builtin_cpu_supports("avx512bw") != 0;
    static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
    if (avx512 && (isa == nullptr || std::strcmp(isa, "avx512") == 0)) return table_avx512();
    if (avx2 && (isa == nullptr || std::strcmp(isa, "avx2") == 0 || avx512)) return table_avx2();
    return nullptr;
#else
    (void)isa;
    return table_neon();
#endif
}

const kernel_table* best_conv_table(int shift) {
    const kernel_table* table = best_table();
    if (table != nullptr && table->tie_class_max_shift > 0 && shift > table->tie_class_max_shift)
        return table_avx2();  // the tie-class tables are x86 AVX-512 only
    return table;
}

}  // namespace q78

kernel_paths enabled_kernel_paths() {
    const char* v = std::getenv("TESSERA_OPENVX_KERNELS");
    if (v == nullptr) return kernel_paths::all;
    if (std::strcmp(v, "scalar") == 0) return kernel_paths::scalar;
    if (std::strcmp(v, "int32") == 0) return kernel_paths::no_int16;
    return kernel_paths::all;
}

namespace {

/// A node's packed weights and the input scratch of its convolution, kept between runs.
struct q78_state {
    // What the packed weights were made from.
    const _vx_tensor_t* tensor = nullptr;
    const std::uint8_t* data = nullptr;
    std::uint64_t generation = 0;
    const q78::kernel_table* table = nullptr;
    int shift = 0;
    bool usable = false;       // every |w| < 2^shift
    std::int64_t max_abs = 0;  // largest |w|
    std::vector<std::int16_t> weights;
    std::vector<std::int16_t> weight_keys;     // convolution: tie keys of the weights, or
    std::vector<std::uint8_t> weight_classes;  // their tie class tables (q78_kernels.hpp)
    // Convolution input scratch: its borders stay zero between runs of one geometry.
    std::vector<std::int16_t> input, input_keys;
    std::vector<std::uint8_t> input_classes;
    std::size_t input_rows = 0, input_cols = 0, input_pairs = 0;
};

bool int16_all(std::initializer_list<const _vx_tensor_t*> tensors) {
    for (const _vx_tensor_t* t : tensors)
        if (t && t->data_type != VX_TYPE_INT16) return false;
    return true;
}

int product_shift(const _vx_node& node) {
    return tensor_param(node, 0)->fixed_point_pos + tensor_param(node, 1)->fixed_point_pos -
           tensor_param(node, 3)->fixed_point_pos;
}

/// The node's state with weights packed for `table`, or nullptr when the weights are outside the
/// path's domain. `pack` fills state.weights from the weights tensor and returns the largest |w|.
template <typename Pack>
q78_state* packed_state(const _vx_node& node, const q78::kernel_table* table, int shift,
                        Pack&& pack) {
    const _vx_tensor_t* w = tensor_param(node, 1);
    auto state = std::static_pointer_cast<q78_state>(node.kernel_cache);
    if (!state) {
        state = std::make_shared<q78_state>();
        node.kernel_cache = state;
    }
    const std::uint64_t generation = w->root->generation.load();
    if (state->tensor != w || state->data != w->data() || state->generation != generation ||
        state->table != table || state->shift != shift) {
        state->tensor = w;
        state->data = w->data();
        state->generation = generation;
        state->table = table;
        state->shift = shift;
        state->max_abs = pack(*state);
        state->usable = state->max_abs < (std::int64_t{1} << shift);
    }
    return state->usable ? state.get() : nullptr;
}

/// Largest |rounded product| of inputs up to max_in and weights up to max_w (<= 32767 when the
/// weights are in the path's domain).
std::int64_t product_bound(std::int64_t max_in, std::int64_t max_w, int shift) {
    return std::min<std::int64_t>(32767, ((max_in * max_w) >> shift) + 1);
}

/// True when `products` rounded products of at most `bound` and a bias never leave the
/// accumulator (so its narrowing never acts and int32 sums are exact).
bool sums_fit(std::uint64_t products, std::int64_t bound, bool bias, vx_uint8 accumulator_bits) {
    const int bits = accumulator_bits == 0 || accumulator_bits > 32 ? 32 : accumulator_bits;
    const std::uint64_t limit = (std::uint64_t{1} << (bits - 1)) - 1;
    const std::uint64_t most = products * static_cast<std::uint64_t>(bound) + (bias ? 32768 : 0);
    return products < (std::uint64_t{1} << 31) && most <= limit;
}

/// True when the int32 sums give the scalar kernels' results: either `products` rounded
/// products of at most `bound` and a bias never leave the accumulator (so its narrowing never
/// acts and int32 sums are exact), or the overflow policy wraps. Wrapping narrows modulo 2^bits
/// after every addition and modulo 2^16 at the end; 2^16 divides 2^bits (accumulator_bits >=
/// 16) and 2^32, so the output is (sum of products + bias) mod 2^16 whatever the accumulator,
/// and int32 lanes wrapping modulo 2^32 keep it.
bool sums_exact(std::uint64_t products, std::int64_t bound, bool bias, const node_config& c) {
    return c.overflow_policy == VX_CONVERT_POLICY_WRAP ||
           sums_fit(products, bound, bias, c.accumulator_bits);
}

std::int16_t narrow16(std::int64_t v, bool saturate) {
    if (saturate) return static_cast<std::int16_t>(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(v));
}

/// The tensor a layer's results go to: its output, or that of the activation fused into it.
const _vx_tensor_t* output_of(const _vx_node& node) {
    return node.fused_activation ? tensor_param(*node.fused_activation, 1) : tensor_param(node, 3);
}

/// The fused activation's table (indexed by raw value + 32768), or nullptr.
const std::int16_t* fused_table(const _vx_node& node) {
    return node.fused_activation ? node.activation_table.data() : nullptr;
}

/// v narrowed to int16, then through the activation table if there is one.
std::int16_t finish(std::int64_t v, bool saturate, const std::int16_t* activation) {
    const std::int16_t r = narrow16(v, saturate);
    return activation ? activation[static_cast<std::int32_t>(r) + 32768] : r;
}

std::int16_t load16(const std::uint8_t* p) {
    std::int16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// This thread's scratch of at least `count` int32 values (contents left from its last use; no
/// task running on the thread uses it while another does: its users run no nested parallel work).
std::int32_t* thread_scratch(std::size_t count) {
    thread_local std::vector<std::int32_t> scratch;
    if (scratch.size() < count) scratch.resize(count);
    return scratch.data();
}

/// Output columns [x_begin, x_end) of output row oy, whose sums start at `at` in a chunk's sums.
struct row_segment {
    vx_size oy, x_begin, x_end, at;
};

/// The convolution's packed weights, or nullptr when the node is outside the int16 path.
q78_state* convolution_state(const _vx_node& node) {
    const _vx_tensor_t* in_t = tensor_param(node, 0);
    const _vx_tensor_t* w_t = tensor_param(node, 1);
    const _vx_tensor_t* bias_t = tensor_param(node, 2);
    const _vx_tensor_t* out_t = tensor_param(node, 3);
    const node_config& c = node.config;
    const int shift = product_shift(node);
    const q78::kernel_table* table = q78::best_conv_table(shift);
    if (table == nullptr || !int16_all({in_t, w_t, bias_t, out_t}) || shift < 1 || shift > 15 ||
        c.skip_x < 1) {
        return nullptr;
    }
    const tensor_span w(w_t);
    const vx_size kx_n = w.dim(0), ky_n = w.dim(1), ifm_n = w.dim(2), ofm_n = w.dim(3);
    const vx_size block_o = table->block_o;
    const vx_size blocks = (ofm_n + block_o - 1) / block_o;
    const vx_size pairs = (ifm_n + 1) / 2;
    const bool classes = table->tie_class_max_shift > 0;
    return packed_state(node, table, shift, [&](q78_state& s) {
        // [blocks][pairs][ky][kx][block_o][2], scaled by 2^(15 - shift).
        s.weights.assign(blocks * pairs * ky_n * kx_n * block_o * 2, 0);
        // Tie keys in the same layout, or class tables [blocks][ifm][ky][kx][16].
        s.weight_keys.assign(classes ? 0 : s.weights.size(), -1);
        s.weight_classes.assign(classes ? blocks * ifm_n * ky_n * kx_n * 16 : 0, 0);
        std::int64_t max_abs = 0;
        for (vx_size o = 0; o < ofm_n; ++o)
            for (vx_size ci = 0; ci < ifm_n; ++ci)
                for (vx_size ky = 0; ky < ky_n; ++ky)
                    for (vx_size kx = 0; kx < kx_n; ++kx) {
                        const std::int64_t v = w.load(kx * w.stride(0) + ky * w.stride(1) +
                                                      ci * w.stride(2) + o * w.stride(3));
                        max_abs = std::max(max_abs, v < 0 ? -v : v);
                        const vx_size at =
                            ((((o / block_o * pairs + ci / 2) * ky_n + ky) * kx_n + kx) * block_o +
                             o % block_o) *
                                2 +
                            ci % 2;
                        s.weights[at] = static_cast<std::int16_t>(static_cast<std::uint16_t>(v)
                                                                  << (15 - shift));
                        if (!classes) {
                            s.weight_keys[at] =
                                q78::tie_key_weight(static_cast<std::int16_t>(v), shift);
                            continue;
                        }
                        const std::uint8_t k =
                            q78::tie_class_weight(static_cast<std::int16_t>(v), shift);
                        if (k == q78::tie_class_none) continue;
                        const vx_size tap = ((o / block_o * ifm_n + ci) * ky_n + ky) * kx_n + kx;
                        s.weight_classes[tap * 16 + k] |=
                            static_cast<std::uint8_t>(1u << (o % block_o));
                    }
        return max_abs;
    });
}

}  // namespace

const char* run_convolution_q78(const _vx_node& node) {
    q78_state* state = convolution_state(node);
    if (state == nullptr) return nullptr;
    const q78::kernel_table* table = state->table;
    const _vx_tensor_t* bias_t = tensor_param(node, 2);
    const node_config& c = node.config;
    const int shift = state->shift;
    const bool to_zero = c.rounding_policy == VX_ROUND_POLICY_TO_ZERO;
    // Tie classes or keys of the input: only rounding to nearest reads them.
    const bool classes = table->tie_class_max_shift > 0 && !to_zero;
    const bool keys = table->tie_class_max_shift == 0 && !to_zero;
    // A fused activation: results go through its table into its output.
    const std::int16_t* activation = fused_table(node);
    const tensor_span in(tensor_param(node, 0)), w(tensor_param(node, 1)), out(output_of(node));
    const vx_size kx_n = w.dim(0), ky_n = w.dim(1), ifm_n = w.dim(2), ofm_n = w.dim(3);
    const vx_size block_o = table->block_o;
    const vx_size blocks = (ofm_n + block_o - 1) / block_o;
    const vx_size pairs = (ifm_n + 1) / 2;

    const vx_size in_w = in.dim(0), in_h = in.dim(1), batch = in.dim(3);
    const vx_size out_w = out.dim(0), out_h = out.dim(1);
    const vx_size tile = table->tile_cols;
    // Skips 1: the output rows are computed as one long row through the input rows, `cols`
    // apart (cols - out_w discarded columns per row instead of a partial tile per row).
    // Horizontal skip s > 1: each padded row is stored as s phases of phase_cols columns.
    const vx_size skip_x = c.skip_x;
    const bool flat = c.skip_y == 1 && skip_x == 1;
    const vx_size phase_cols =
        flat ? out_w + kx_n - 1 : (out_w + tile - 1) / tile * tile + (kx_n - 1) / skip_x;
    const vx_size cols = phase_cols * skip_x;
    const vx_size span_cols =
        flat ? (out_h * cols + tile - 1) / tile * tile : (out_w + tile - 1) / tile * tile;
    const vx_size span_rows = flat ? 1 : out_h;
    const vx_size rows = std::max<vx_size>(
        in_h + 2 * c.pad_y, flat ? (span_cols + (ky_n - 1) * cols + kx_n + cols - 1) / cols + 1
                                 : (out_h - 1) * c.skip_y + ky_n);
    const vx_size item = pairs * rows * cols * 2;
    // Tie classes [ifm][rows][cols] per batch item, and room for the last 64-column read.
    const vx_size class_item = ifm_n * rows * cols + 64;
    if (state->input_rows != rows || state->input_cols != cols || state->input_pairs != pairs ||
        state->input.size() != item * batch ||
        state->input_classes.size() != (classes ? class_item * batch : 0)) {
        state->input.assign(item * batch, 0);
        // The key and class of 0 (no tie with any weight).
        state->input_keys.assign(keys ? item * batch : 0, 0);
        state->input_classes.assign(classes ? class_item * batch : 0, q78::tie_class_none);
        state->input_rows = rows;
        state->input_cols = cols;
        state->input_pairs = pairs;
    }
    // Input interleaved by channel pairs inside the zero border; its largest |x|.
    const vx_size copy_w = std::min(in_w, cols - std::min(cols, vx_size{c.pad_x}));
    // Where input column x goes in its padded row (phases with skip_x > 1).
    const auto column_at = [&](vx_size x) {
        const vx_size padded = x + c.pad_x;
        return padded % skip_x * phase_cols + padded / skip_x;
    };
    const std::int64_t max_in = tbb::parallel_reduce(
        tbb::blocked_range<vx_size>(0, batch * ifm_n), std::int64_t{0},
        [&](const tbb::blocked_range<vx_size>& range, std::int64_t most) {
            std::vector<std::int16_t> values;  // one strided input row, made contiguous
            for (vx_size nc = range.begin(); nc != range.end(); ++nc) {
                const vx_size n = nc / ifm_n, ci = nc % ifm_n;
                for (vx_size y = 0; y < in_h; ++y) {
                    const vx_size row_at =
                        n * item + (ci / 2 * rows + y + c.pad_y) * cols * 2 + ci % 2;
                    std::int16_t* row = state->input.data() + row_at;
                    std::int16_t* row_keys = keys ? state->input_keys.data() + row_at : nullptr;
                    std::uint8_t* row_classes = classes
                                                    ? state->input_classes.data() + n * class_item +
                                                          (ci * rows + y + c.pad_y) * cols
                                                    : nullptr;
                    const std::uint8_t* src =
                        in.base + y * in.stride(1) + ci * in.stride(2) + n * in.stride(3);
                    const vx_size step = in.stride(0);
                    // Separate simple loops (the largest |x| and the interleaving vectorize);
                    // a contiguous row is read in place, others are copied first.
                    const std::int16_t* v = reinterpret_cast<const std::int16_t*>(src);
                    if (step != sizeof(std::int16_t) ||
                        reinterpret_cast<std::uintptr_t>(src) % alignof(std::int16_t) != 0) {
                        values.resize(in_w);
                        for (vx_size x = 0; x < in_w; ++x) values[x] = load16(src + x * step);
                        v = values.data();
                    }
                    std::int32_t row_most = 0;
                    if (skip_x > 1) {  // phases: scattered columns
                        for (vx_size x = 0; x < in_w; ++x) {
                            const std::int32_t a = v[x] < 0 ? -std::int32_t{v[x]} : v[x];
                            row_most = a > row_most ? a : row_most;
                            const vx_size at = column_at(x);
                            if (x + c.pad_x >= cols) continue;
                            row[2 * at] = v[x];
                            if (keys) row_keys[2 * at] = q78::tie_key_input(v[x]);
                            if (classes) row_classes[at] = q78::tie_class_input(v[x], shift);
                        }
                        most = std::max<std::int64_t>(most, row_most);
                        continue;
                    }
                    std::int16_t* dst = row + c.pad_x * 2;
                    if (table->pack_row) {
                        row_most = table->pack_row(v, in_w, copy_w, dst);
                    } else {
                        for (vx_size x = 0; x < in_w; ++x) {
                            const std::int32_t a = v[x] < 0 ? -std::int32_t{v[x]} : v[x];
                            row_most = a > row_most ? a : row_most;
                        }
                        for (vx_size x = 0; x < copy_w; ++x) dst[2 * x] = v[x];
                    }
                    most = std::max<std::int64_t>(most, row_most);
                    if (classes) {
                        table->tie_classes(v, copy_w, shift, row_classes + c.pad_x);
                    } else if (keys) {
                        for (vx_size x = 0; x < copy_w; ++x)
                            row_keys[2 * (x + c.pad_x)] = q78::tie_key_input(v[x]);
                    }
                }
            }
            return most;
        },
        [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
    const std::int64_t bound = product_bound(max_in, state->max_abs, shift);
    if (!sums_exact(kx_n * ky_n * ifm_n, bound, bias_t != nullptr, c)) return nullptr;

    q78::conv_args args{};
    args.rows = rows;
    args.cols = cols;
    args.weights = state->weights.data();
    args.weight_keys = state->weight_keys.data();
    args.pairs = pairs;
    args.kernel_x = kx_n;
    args.kernel_y = ky_n;
    args.skip_y = c.skip_y;
    args.skip_x = skip_x;
    args.phase_cols = phase_cols;
    args.to_zero = to_zero;
    // The steps' and taps' offsets, the same for every output row and tile.
    std::vector<std::size_t> pair_offsets, tap_offsets;
    pair_offsets.reserve(pairs * ky_n * kx_n);
    for (vx_size p = 0; p < pairs; ++p)
        for (vx_size ky = 0; ky < ky_n; ++ky)
            for (vx_size kx = 0; kx < kx_n; ++kx)
                pair_offsets.push_back(q78::input_offset(args, p, ky, kx) * 2);
    if (classes) {
        tap_offsets.reserve(ifm_n * ky_n * kx_n);
        for (vx_size ci = 0; ci < ifm_n; ++ci)
            for (vx_size ky = 0; ky < ky_n; ++ky)
                for (vx_size kx = 0; kx < kx_n; ++kx)
                    tap_offsets.push_back(q78::input_offset(args, ci, ky, kx));
    }
    args.pair_offsets = pair_offsets.data();
    args.tap_offsets = tap_offsets.data();
    args.flush_steps = static_cast<std::size_t>(32767 / bound);
    args.weight_classes = state->weight_classes.data();
    args.channels = ifm_n;
    const bool saturate = c.overflow_policy == VX_CONVERT_POLICY_SATURATE;
    const bool per_location_bias = bias_t && bias_t->dims.size() == 3;
    const bool contiguous_out = out.stride(0) == sizeof(std::int16_t);
    // Work items: (batch item, span row, chunk of its columns, block of output channels): the
    // blocks of one chunk follow each other, so the chunk's input stays in cache for all of them.
    const vx_size chunk = tile * 4;
    const vx_size chunks = (span_cols + chunk - 1) / chunk;
    const vx_size per_item = blocks * span_rows * chunks;
    tbb::parallel_for(
        tbb::blocked_range<vx_size>(0, batch * per_item),
        [&](const tbb::blocked_range<vx_size>& range) {
            std::int32_t* const sums = thread_scratch(block_o * chunk);
            std::vector<row_segment> segments;
            q78::conv_args a = args;
            for (vx_size work = range.begin(); work != range.end(); ++work) {
                const vx_size n = work / per_item;
                const vx_size block = work % blocks;
                const vx_size span_row = work / (chunks * blocks) % span_rows;
                a.first_col = work / blocks % chunks * chunk;
                a.last_col = std::min(span_cols, a.first_col + chunk);
                a.input = state->input.data() + n * item;
                a.input_keys = keys ? state->input_keys.data() + n * item : nullptr;
                a.input_classes = classes ? state->input_classes.data() + n * class_item : nullptr;
                table->conv_row(a, block, span_row, sums);
                const vx_size width = a.last_col - a.first_col;
                // The output row segments this chunk holds (the same for each output channel).
                segments.clear();
                for (vx_size j = a.first_col; j < a.last_col;) {
                    const vx_size oy = flat ? j / cols : span_row;
                    const vx_size row_begin = flat ? oy * cols : 0;
                    const vx_size segment_end = std::min(a.last_col, row_begin + cols);
                    if (oy >= out_h) break;
                    const vx_size x_begin = j - row_begin;
                    const vx_size x_end = std::min(out_w, segment_end - row_begin);
                    if (x_begin < x_end) segments.push_back({oy, x_begin, x_end, j - a.first_col});
                    j = segment_end;
                }
                for (vx_size oi = 0; oi < block_o && block * block_o + oi < ofm_n; ++oi) {
                    const vx_size o = block * block_o + oi;
                    for (const row_segment& segment : segments) {
                        const vx_size oy = segment.oy, x_begin = segment.x_begin,
                                      x_end = segment.x_end;
                        const std::int32_t* s = sums + oi * width + segment.at;
                        std::uint8_t* row =
                            out.base + oy * out.stride(1) + o * out.stride(2) + n * out.stride(3);
                        if (!per_location_bias && contiguous_out) {
                            const std::int32_t b =
                                bias_t ? load16(bias_t->data() + o * bias_t->strides[0]) : 0;
                            std::int16_t* dst = reinterpret_cast<std::int16_t*>(row) + x_begin;
                            const vx_size count = x_end - x_begin;
                            if (activation == nullptr && table->narrow_row != nullptr) {
                                table->narrow_row(s, b, saturate, count, dst);
                            } else if (activation != nullptr) {
                                for (vx_size x = 0; x < count; ++x)
                                    dst[x] = finish(std::int64_t{s[x]} + b, saturate, activation);
                            } else if (saturate) {  // the loops without a table vectorize
                                for (vx_size x = 0; x < count; ++x)
                                    dst[x] = static_cast<std::int16_t>(
                                        std::clamp<std::int32_t>(s[x] + b, -32768, 32767));
                            } else {
                                for (vx_size x = 0; x < count; ++x)
                                    dst[x] = static_cast<std::int16_t>(static_cast<std::uint16_t>(
                                        static_cast<std::uint32_t>(s[x]) +
                                        static_cast<std::uint32_t>(b)));
                            }
                            continue;
                        }
                        for (vx_size x = x_begin; x < x_end; ++x) {
                            std::int64_t b = 0;
                            if (bias_t) {
                                const tensor_span bs(bias_t);
                                b = bs.load(per_location_bias
                                                ? x * bs.stride(0) + oy * bs.stride(1) +
                                                      o * bs.stride(2)
                                                : o * bs.stride(0));
                            }
                            const std::int16_t v = finish(s[x - x_begin] + b, saturate, activation);
                            std::memcpy(row + x * out.stride(0), &v, sizeof v);
                        }
                    }
                }
            }
        });
    return table->name;
}

namespace {

/// The fully connected layer's packed weights ([ofm][inner padded to whole vectors]), or nullptr
/// when the node is outside the int16 path.
q78_state* fully_connected_state(const _vx_node& node, const q78::kernel_table* table) {
    const _vx_tensor_t* in_t = tensor_param(node, 0);
    const _vx_tensor_t* w_t = tensor_param(node, 1);
    const _vx_tensor_t* bias_t = tensor_param(node, 2);
    const _vx_tensor_t* out_t = tensor_param(node, 3);
    const int shift = product_shift(node);
    if (table == nullptr || !int16_all({in_t, w_t, bias_t, out_t}) || shift < 1 || shift > 15) {
        return nullptr;
    }
    const tensor_span w(w_t);
    const vx_size ofm_n = w.dims.back();
    tensor_span w_core = w;
    w_core.dims.pop_back();
    w_core.strides.pop_back();
    const vx_size inner = w_core.num_elements();
    const vx_size padded = (inner + table->inner_step - 1) / table->inner_step * table->inner_step;
    return packed_state(node, table, shift, [&](q78_state& s) {
        s.weights.assign(ofm_n * padded, 0);
        std::vector<vx_size> offsets(inner);
        for (vx_size i = 0; i < inner; ++i) offsets[i] = w_core.offset_of(i);
        return tbb::parallel_reduce(
            tbb::blocked_range<vx_size>(0, ofm_n), std::int64_t{0},
            [&](const tbb::blocked_range<vx_size>& range, std::int64_t most) {
                for (vx_size o = range.begin(); o != range.end(); ++o) {
                    const std::uint8_t* src = w.base + o * w.strides.back();
                    std::int16_t* dst = s.weights.data() + o * padded;
                    for (vx_size i = 0; i < inner; ++i) {
                        const std::int32_t v = load16(src + offsets[i]);
                        most = std::max<std::int64_t>(most, v < 0 ? -v : v);
                        dst[i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(v)
                                                           << (15 - shift));
                    }
                }
                return most;
            },
            [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
    });
}

}  // namespace

const char* run_fully_connected_q78(const _vx_node& node) {
    const q78::kernel_table* table = q78::best_table();
    q78_state* state = fully_connected_state(node, table);
    if (state == nullptr) return nullptr;
    const _vx_tensor_t* bias_t = tensor_param(node, 2);
    const node_config& c = node.config;
    const int shift = state->shift;
    const std::int16_t* activation = fused_table(node);
    const tensor_span in(tensor_param(node, 0)), w(tensor_param(node, 1)), out(output_of(node));
    const std::size_t core = c.core_dims;
    const vx_size ofm_n = w.dims.back();
    tensor_span in_core = in;
    in_core.dims.resize(core);
    in_core.strides.resize(core);
    const vx_size inner = in_core.num_elements();  // = the weights' inner size (validated)
    const vx_size padded = state->weights.size() / ofm_n;

    vx_size batch = 1;
    for (std::size_t d = core; d < in.dims.size(); ++d) batch *= in.dims[d];
    // Every batch row packed first: the bound must hold for all of them before anything is
    // written (the caller falls back to the scalar kernel otherwise).
    std::vector<std::int16_t> x(batch * padded, 0);
    std::vector<vx_size> out_base(batch);
    std::int64_t max_in = 0;
    for (vx_size r = 0; r < batch; ++r) {
        vx_size in_base = 0, rest = r;
        out_base[r] = 0;
        for (std::size_t d = core; d < in.dims.size(); ++d) {
            in_base += (rest % in.dims[d]) * in.strides[d];
            out_base[r] += (rest % in.dims[d]) * out.stride(d - core + 1);
            rest /= in.dims[d];
        }
        std::int16_t* dst = x.data() + r * padded;
        for (vx_size i = 0; i < inner; ++i) {
            const std::int16_t v = load16(in.base + in_base + in_core.offset_of(i));
            dst[i] = v;
            max_in = std::max<std::int64_t>(max_in, v < 0 ? -std::int64_t{v} : v);
        }
    }
    const std::int64_t bound = product_bound(max_in, state->max_abs, shift);
    if (!sums_exact(inner, bound, bias_t != nullptr, c)) return nullptr;
    q78::fc_args args{state->weights.data(), padded, static_cast<std::size_t>(32767 / bound),
                      c.rounding_policy == VX_ROUND_POLICY_TO_ZERO};
    const bool saturate = c.overflow_policy == VX_CONVERT_POLICY_SATURATE;
    constexpr vx_size chunk = 64;
    tbb::parallel_for(tbb::blocked_range<vx_size>(0, batch * ((ofm_n + chunk - 1) / chunk)),
                      [&](const tbb::blocked_range<vx_size>& range) {
                          std::int32_t sums[chunk];
                          const vx_size chunks = (ofm_n + chunk - 1) / chunk;
                          for (vx_size work = range.begin(); work != range.end(); ++work) {
                              const vx_size r = work / chunks, first = work % chunks * chunk;
                              const vx_size count = std::min(chunk, ofm_n - first);
                              table->fc_rows(args, x.data() + r * padded, first, count, sums);
                              for (vx_size i = 0; i < count; ++i) {
                                  const vx_size o = first + i;
                                  const std::int64_t b =
                                      bias_t ? load16(bias_t->data() + o * bias_t->strides[0]) : 0;
                                  const std::int16_t v = finish(sums[i] + b, saturate, activation);
                                  std::memcpy(out.base + out_base[r] + o * out.stride(0), &v,
                                              sizeof v);
                              }
                          }
                      });
    return table->name;
}

void prepare_weighted_q78(const _vx_node& node) {
    if (enabled_kernel_paths() != kernel_paths::all) return;
    if (node.kind == kernel_kind::convolution) convolution_state(node);
    if (node.kind == kernel_kind::fully_connected) fully_connected_state(node, q78::best_table());
}

}  // namespace openvx
