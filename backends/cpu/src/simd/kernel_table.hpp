// KernelTable: the per-instruction-set SIMD kernel entry points. Each arch TU (compiled with its
// own -m flags) fills one table from the same xsimd templates; the Context picks one at run time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/cpu/types.hpp"

namespace tessera::cpu {

constexpr int kMaxMR = 12;
constexpr int kMaxNV = 4;

/// Activation of the GEMM/conv microkernel's epilogue (r = alpha*acc (+ beta*C) (+ residual)
/// (+ bias), then this): clamp to [act_lo, act_hi]; leaky (x > 0 ? x : act_slope * x);
/// hard_sigmoid min(max(act_slope * x + act_lo, 0), 1) and hard_swish x times it.
enum class FusedAct : int { none = 0, clamp = 1, leaky = 2, hard_sigmoid = 3, hard_swish = 4 };

/// Arguments of one register tile: C[p][j] (+)= sum_k A(p, k) * B[k][j], p < mr, j < nv*W.
/// A(p, k) is a[p*a_ps + koff[k]], or a[p*a_ps + k*a_ks] without an offset table: row-major,
/// transposed or packed GEMM operands, or the input of a direct convolution in any layout. B is
/// packed [k][NR] (NR = nv * W). C column j of row/pixel p lives at c[p*c_ps + (j/16)*c_bs + j%16].
struct MicroArgs {
    int64_t kc = 0;
    const float* a = nullptr;
    int64_t a_ps = 1;
    const int64_t* koff = nullptr;  ///< A of step k at a + koff[k]; null: at a + k * a_ks
    /// With an offset table: steps per entry. Each entry starts a run of koff_run steps that read
    /// consecutive elements (step k at a + koff[k / koff_run] + k % koff_run; kc a multiple of
    /// koff_run), e.g. 16 channels of a blocked pixel or 7 taps of an input row; see
    /// micro_run_supported.
    int64_t koff_run = 1;
    int64_t a_ks = 1;
    const float* b = nullptr;
    float* c = nullptr;
    int64_t c_ps = 0;
    int64_t c_bs = 16;
    int64_t a_rs = 0;  ///< two-row tiles: A of the second row at a + a_rs
    int64_t c_rs = 0;  ///< two-row tiles: C of the second row at c + c_rs
    float alpha = 1.0f;
    float beta = 0.0f;
    bool load_c = false;
    /// Added to the sums before the bias when not null: a tensor of C's shape, pixel p of row r,
    /// vector v at res + r * res_rs + p * res_ps + (v * W / 16) * res_bs + (v * W) % 16.
    const float* res = nullptr;
    int64_t res_ps = 0, res_bs = 16, res_rs = 0;
    const float* bias = nullptr;  ///< NR values or null
    FusedAct act = FusedAct::none;
    float act_lo = 0.0f, act_hi = 0.0f, act_slope = 0.0f;
    /// With an offset table: pf_count lines to prefetch during the reduction, the MR pixels of
    /// each at pf + pf_lines[j] + p * a_ps (the next row's input of a streaming convolution).
    const float* pf = nullptr;
    const int64_t* pf_lines = nullptr;
    int64_t pf_count = 0;
    /// With an offset table of 16-step runs: pf_weight_lines consecutive 16-float lines from
    /// pf_weights fetched into L2 during the reduction, spread evenly over its runs (the weights
    /// a streaming convolution reads next, so that they do not arrive from L3 at the rate they
    /// are used). Other reductions ignore them.
    const float* pf_weights = nullptr;
    int64_t pf_weight_lines = 0;
    /// One-row tiles side by side in one call (a row of a 1x1 convolution's plane, whose tiles
    /// are short): tile t reads A at a + t * MR * a_ps and writes C (and reads the residual) MR
    /// pixels on likewise. Only without prefetching (pf_count and pf_weight_lines 0).
    int64_t tiles = 1;
};
using MicroKernel = void (*)(const MicroArgs&);

/// One row of Winograd F(2x2, 3x3) input tiles (simd/winograd_kernels.hpp): the 4x4 windows at
/// input rows ih0 .. ih0 + 3 and columns iw0 + 2t .. iw0 + 2t + 3 of an nchw16c image (pixels
/// outside in_h x in_w read as zeros), written to V: value xi of channel c of tile t at
/// v[xi * v_xi + t * v_tile + c].
struct WinogradInputArgs {
    const float* src = nullptr;  ///< the image's element (0, 0) of channel block 0
    int64_t src_row = 0, src_px = 16, src_block = 0;  ///< element strides
    int64_t in_h = 0, in_w = 0;
    int64_t ih0 = 0, iw0 = 0;  ///< the first window's top-left input pixel (may lie outside)
    int64_t tiles = 0;
    int64_t blocks = 0;  ///< 16-channel blocks
    float* v = nullptr;
    int64_t v_xi = 0, v_tile = 0;
};

/// One row of Winograd F(2x2, 3x3) output tiles: the products M (value xi of channel c of tile t
/// at m[xi * m_xi + t * m_tile + c]) transformed into outputs (rows oh, oh + 1 when rows is 2;
/// columns 2t, 2t + 1 below out_w), plus the residual and bias, then the fused activation.
struct WinogradOutputArgs {
    const float* m = nullptr;
    int64_t m_xi = 0, m_tile = 0;
    int64_t tiles = 0;
    int64_t blocks = 0;  ///< 16-channel blocks
    int64_t rows = 2;    ///< output rows the tiles cover (1 at an odd bottom edge)
    int64_t out_w = 0;
    float* dst = nullptr;  ///< element (oh, 0) of channel block 0 (nchw16c)
    int64_t dst_row = 0, dst_px = 16, dst_block = 0;
    const float* res = nullptr;  ///< null, or the residual's element (oh, 0) of block 0
    int64_t res_row = 0, res_px = 16, res_block = 0;
    const float* bias = nullptr;          ///< blocks * 16 values, or null
    const MicroArgs* epilogue = nullptr;  ///< act, act_lo, act_hi, act_slope used
};

/// Binary element-wise operators.
enum class BinaryOp : int { add, sub, mul, div, min, max, pow, squared_diff };

/// Pooling over a row of blocked pixels.
struct PoolRowArgs {
    const float* src = nullptr;  ///< top-left input of the first output pixel's window
    float* dst = nullptr;
    int64_t count = 0;           ///< output pixels in the row
    int64_t src_pixel_step = 0;  ///< elements between consecutive outputs' windows (stride*16)
    int64_t src_row = 0;         ///< elements between input rows
    int64_t kh = 1, kw = 1;
    int64_t dil_h = 1, dil_w = 1;  // in input pixels
    bool max = true;
    const float* divisor = nullptr;  ///< per output pixel (avg); null: 1/area
    int64_t area = 0;                ///< average pooling's window size; 0: kh*kw
};

/// Depthwise convolution over a row of blocked pixels (one 16-channel block).
struct DepthwiseRowArgs {
    const float* src = nullptr;
    float* dst = nullptr;
    int64_t count = 0;
    int64_t src_pixel_step = 0;
    int64_t src_row = 0;
    int64_t kh = 1, kw = 1;
    int64_t dil_h = 1, dil_w = 1;
    const float* weights = nullptr;  ///< tap (y, x) at weights[y * w_row + x * 16], 16 floats
    int64_t w_row = 0;               ///< floats between kernel rows (kw * 16 for a whole kernel)
    const float* bias = nullptr;     ///< [16] or null
    ActivationInfo act;
    /// Zero-padded edges (rows with depthwise_zero_columns_supported() only): the first
    /// `zero_left` and last `zero_right` of the count + kw - 1 input columns the row reads lie
    /// outside the image and count as zeros; `src` then points at the first column inside.
    int64_t zero_left = 0, zero_right = 0;
};

/// Whether depthwise_row takes zero_left / zero_right for these taps (stride 1, dense, up to 5x5
/// but 4 columns).
constexpr bool depthwise_zero_columns_supported(int64_t kh, int64_t kw, int64_t dil_h,
                                                int64_t dil_w, int64_t src_pixel_step) {
    return kh <= 5 && kw >= 1 && kw <= 5 && kw != 4 && dil_h == 1 && dil_w == 1 &&
           src_pixel_step == 16;
}

/// A row strides with dedicated microkernel instantiations (0: any stride, read at run time).
constexpr int kMicroStrides = 4;
constexpr int64_t kMicroStrideValues[kMicroStrides] = {0, 1, 2, 16};

/// Whether the microkernels for A pixel stride `a_ps` take offset-table runs of `run` steps
/// (MicroArgs::koff_run): runs of 16 (the channels of a blocked pixel) where the pixel stride is
/// not 1 or 2, runs of 3 or 7 (the taps of a kernel row on an unblocked input) where it is.
constexpr bool micro_run_supported(int64_t a_ps, int64_t run) {
    const bool unblocked = a_ps == 1 || a_ps == 2;
    return run == 1 || (run == 16 && !unblocked) || ((run == 3 || run == 7) && unblocked);
}

/// A full register tile: mr rows (GEMM) or output pixels (convolution) by nv vectors.
struct TileShape {
    int mr = 1;
    int nv = 1;
};

/// Rows (or pixels) of the next tile when `remaining` of them go into `tiles` more tiles of nearly
/// equal size (7 as 4 + 3 rather than 6 + 1, 128 with MR 6 as 18 x 6 + 4 x 5): a thin last tile is
/// bound by the FMA latency rather than its work.
constexpr int64_t even_tile_rows(int64_t remaining, int64_t tiles) {
    return (remaining + tiles - 1) / tiles;
}

/// Output rows shorter than this take KernelTable::conv_short_rows.
constexpr int64_t kConvShortRow = 28;

struct KernelTable {
    const char* isa = "";
    int vec_width = 1;  ///< floats per vector
    int mr = 1;         ///< rows of the GEMM's full register tile
    int nv = 1;         ///< vectors per row of the GEMM's full register tile
    /// Direct convolution tiles, chosen per instruction set by measurement: for channel-blocked
    /// inputs with output rows of at least kConvShortRow pixels, for shorter rows, and for inputs
    /// that are not channel-blocked (first layers).
    TileShape conv, conv_short_rows, conv_unblocked;
    /// Tile for inputs that are not channel-blocked with 7-tap kernel rows (7x7 first layers),
    /// where it differs from conv_unblocked; mr 0: conv_unblocked.
    TileShape conv_unblocked_7taps{0, 0};
    /// Convolutions with at most 16 output channels (one block): a tile of more pixels where the
    /// table's conv / conv_unblocked tile would leave most accumulators unused; mr 0: none.
    TileShape conv_one_block{0, 0};
    /// Two-row convolution tile (mr pixels of each of two output rows) for rows of at most mr
    /// pixels, where measured faster; mr 0: none.
    TileShape conv_two_rows{0, 0};
    int64_t kc = 256, mc = 96, nc = 2048;  ///< cache blocking of the GEMM driver
    /// A multi-threaded GEMM with at least this many rows splits them (M) between threads rather
    /// than the columns (N); 0: rows only when N has too few column panels. Rows cost each thread
    /// a packing of the whole B, columns a full read of A per column block.
    int64_t split_m_rows = 0;
    /// Whether a 1x1 convolution prefetches the next row of its (streamed, unpadded) input in
    /// software, ahead of the hardware prefetchers.
    bool conv_prefetch_input = true;
    /// K chunks of the direct convolution, in KiB of one output block's weights, while all the
    /// weights stay in L2 (resident) and while they stream from L3; 0: no chunks. Zen 3 (AVX2):
    /// 40 rather than 24 KiB made 3x3 64->64 56x56 3-5% faster, 1x1 256->64 2%, and the streaming
    /// 3x3 512->512 7x7 up to 5% slower (in-process A/B).
    int64_t conv_chunk_kib_resident = 40, conv_chunk_kib_streaming = 24;
    /// Convolution steps ordered tap by tap (ConvChannelPlan::columns_outer), so edge tiles skip
    /// every tap that reads only padding; else kernel row by kernel row, whose K chunks read each
    /// input line for all columns of the row while it is in L1.
    bool conv_columns_outer = false;
    MicroKernel micro[kMicroStrides][kMaxMR][kMaxNV] = {};           ///< [stride slot][mr-1][nv-1]
    MicroKernel micro_two_rows[kMicroStrides][kMaxMR][kMaxNV] = {};  ///< mr pixels per row

    /// The microkernel for A row stride `a_ps`, `mr` rows and `nv` vectors.
    MicroKernel micro_for(int64_t a_ps, int64_t mr, int64_t nv) const {
        return micro[stride_slot(a_ps)][mr - 1][nv - 1];
    }
    /// The two-row microkernel for A row stride `a_ps`, `mr` pixels per row and `nv` vectors.
    MicroKernel micro_two_rows_for(int64_t a_ps, int64_t mr, int64_t nv) const {
        return micro_two_rows[stride_slot(a_ps)][mr - 1][nv - 1];
    }
    static int stride_slot(int64_t a_ps) {
        int slot = 0;
        for (int s = 1; s < kMicroStrides; ++s)
            if (kMicroStrideValues[s] == a_ps) slot = s;
        return slot;
    }

    void (*activation)(const float* src, float* dst, int64_t n,
                       const ActivationInfo& act) = nullptr;
    /// d[i] = a[i*a_inc] op b[i*b_inc] (inc 0 broadcasts a scalar)
    void (*binary)(BinaryOp op, const float* a, int64_t a_inc, const float* b, int64_t b_inc,
                   float* d, int64_t n) = nullptr;
    /// dst[p][16] = src[p][16] * scale[16] + shift[16] for `pixels` blocked pixels, then act
    void (*scale_shift_block)(const float* src, float* dst, int64_t pixels, const float* scale,
                              const float* shift, const ActivationInfo& act) = nullptr;
    void (*pool_row)(const PoolRowArgs& args) = nullptr;
    void (*depthwise_row)(const DepthwiseRowArgs& args) = nullptr;
    /// y[j] = x . (row j of w) for `rows` rows of `k` floats, `ldw` apart (simd/dot_kernels.hpp).
    void (*dot_rows)(const float* x, const float* w, int64_t ldw, int64_t k, float* y,
                     int64_t rows) = nullptr;
    /// y[j] = x . (row j of a matrix packed into 16-row panels) for j < outputs
    /// (simd/dot_kernels.hpp).
    void (*dot_panels)(const float* x, const float* packed, int64_t k, float* y,
                       int64_t outputs) = nullptr;
    /// Winograd F(2x2, 3x3) transforms of one row of tiles (simd/winograd_kernels.hpp).
    void (*winograd_input_row)(const WinogradInputArgs& args) = nullptr;
    void (*winograd_output_row)(const WinogradOutputArgs& args) = nullptr;
    /// Softmax (or log-softmax) of a contiguous row.
    void (*softmax_row)(const float* src, float* dst, int64_t n, float beta, bool log) = nullptr;
    /// C[m][n] (s32) = sum_k A[m][k] (u8) * Bp (s8 packed by pack_s8_b); VNNI where present.
    void (*s8_gemm)(const uint8_t* a, int64_t lda, const int8_t* bp, int32_t* c, int64_t ldc,
                    int64_t m, int64_t n, int64_t k_padded) = nullptr;
};

/// Tables compiled for this target (null where the build has no such variant).
const KernelTable* kernel_table_avx512();
const KernelTable* kernel_table_avx2();
const KernelTable* kernel_table_sse2();
const KernelTable* kernel_table_neon();

}  // namespace tessera::cpu
