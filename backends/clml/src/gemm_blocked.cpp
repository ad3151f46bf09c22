// gemm_blocked.cpp -- the local-memory blocked GEMM kernel for GPUs (gemm_blocked.h).
//
// A work-group computes a BM x BN block of C. K is walked BK at a time: the work-items fetch the
// next BK-deep slices of op(A) and op(B) into registers (float4 runs, coalesced) while they
// multiply the current slices from local memory, then stage them into the other of two local
// buffers (one barrier per step). Each work-item accumulates TM x TN results as 4 x 4 quads
// spread BM / (TM / 4) rows and BN / (TN / 4) columns apart, so that its float4 reads of local
// memory and the group's stores of C are conflict-free and coalesced.
#include "gemm_blocked.h"

#include <cstdlib>
#include <cstring>

namespace tessera::clml {

const char* const kGemmBlockedSource = R"CLC(
#ifndef BM  // the representative variant (program_sources.cpp)
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#endif
#ifndef CHECKED
#define CHECKED 0
#endif
#define WX (BN / TN)  // work-items along N
#define WY (BM / TM)  // work-items along M
#define NT (WX * WY)
#define PM (TM / 4)  // row quads per work-item
#define PN (TN / 4)  // column quads per work-item
#define A_LOADS (BM * BK / 4 / NT)
#define B_LOADS (BN * BK / 4 / NT)
#define LDA4 (BM / 4 + 1)  // local row pitch in float4 (one float4 of padding)
#define LDB4 (BN / 4 + 1)

#if DT == 0
#define LD4(p, i) vload4(0, (p) + (i))
#define ST4(p, i, v) vstore4((v), 0, (p) + (i))
#elif DT == 1
#define LD4(p, i) vload_half4(0, (p) + (i))
#define ST4(p, i, v) vstore_half4_rte((v), 0, (p) + (i))
#else
#define LD4(p, i) convert_float4(vload4(0, (p) + (i)))
#define ST4(p, i, v) vstore4(convert_char4_sat_rte(v), 0, (p) + (i))
#endif

// Elements col..col+3 of row `row` of a rows x cols row-major matrix; the checked variant reads
// zeros outside the matrix, the other one needs cols and col to be multiples of 4.
inline float4 load_run(const global T* p, int row, int col, int rows, int cols) {
#if CHECKED
  float4 v = (float4)(0.0f);
  if (row < rows) {
    const int o = row * cols + col;
    if (col < cols) v.s0 = ldf(p, o);
    if (col + 1 < cols) v.s1 = ldf(p, o + 1);
    if (col + 2 < cols) v.s2 = ldf(p, o + 2);
    if (col + 3 < cols) v.s3 = ldf(p, o + 3);
  }
  return v;
#elif DT == 0
  return ((const global float4*)p)[row * (cols / 4) + col / 4];
#else
  return LD4(p, row * cols + col);
#endif
}

// (The loops over `loads`, a constant once these are inlined, unroll without a pragma.)
// An operand stored with K along its rows (A as is, B transposed): this work-item's runs of the
// `rows`-long (M or N) by BK slice starting at (r0, k0), staged transposed as [k][row].
inline void fetch_k_inner(const global T* p, int r0, int k0, int rows, int K, int loads, int lid,
                          private float4* regs) {
  for (int l = 0; l < loads; ++l) {
    const int f = lid + l * NT;
    regs[l] = load_run(p, r0 + f / (BK / 4), k0 + f % (BK / 4) * 4, rows, K);
  }
}
inline void stage_k_inner(local float* tile, int pitch, int loads, int lid, const private float4* regs) {
  for (int l = 0; l < loads; ++l) {
    const int f = lid + l * NT;
    const int r = f / (BK / 4), k = f % (BK / 4) * 4;
    tile[(k + 0) * pitch + r] = regs[l].s0;
    tile[(k + 1) * pitch + r] = regs[l].s1;
    tile[(k + 2) * pitch + r] = regs[l].s2;
    tile[(k + 3) * pitch + r] = regs[l].s3;
  }
}

// An operand stored with K down its columns (A transposed, B as is): K rows from k0, `width`
// columns from c0 of `cols`; staged as they are, [k][column].
inline void fetch_k_outer(const global T* p, int c0, int k0, int cols, int K, int width, int loads, int lid,
                          private float4* regs) {
  for (int l = 0; l < loads; ++l) {
    const int f = lid + l * NT;
    regs[l] = load_run(p, k0 + f / (width / 4), c0 + f % (width / 4) * 4, K, cols);
  }
}
inline void stage_k_outer(local float4* tile, int pitch4, int width, int loads, int lid,
                          const private float4* regs) {
  for (int l = 0; l < loads; ++l) {
    const int f = lid + l * NT;
    tile[f / (width / 4) * pitch4 + f % (width / 4)] = regs[l];
  }
}

#if TRANS_A
#define FETCH_A(k0) fetch_k_outer(A, i0, (k0), M, K, BM, A_LOADS, lid, ra)
#define STAGE_A(buf) stage_k_outer(a_tiles[buf], LDA4, BM, A_LOADS, lid, ra)
#else
#define FETCH_A(k0) fetch_k_inner(A, i0, (k0), M, K, A_LOADS, lid, ra)
#define STAGE_A(buf) stage_k_inner((local float*)a_tiles[buf], LDA4 * 4, A_LOADS, lid, ra)
#endif
#if TRANS_B
#define FETCH_B(k0) fetch_k_inner(B, j0, (k0), N, K, B_LOADS, lid, rb)
#define STAGE_B(buf) stage_k_inner((local float*)b_tiles[buf], LDB4 * 4, B_LOADS, lid, rb)
#else
#define FETCH_B(k0) fetch_k_outer(B, j0, (k0), N, K, BN, B_LOADS, lid, rb)
#define STAGE_B(buf) stage_k_outer(b_tiles[buf], LDB4, BN, B_LOADS, lid, rb)
#endif

// C (M x N) = alpha * op(A) * op(B) + beta * C (+ bias[j]). A is M x K (K x M when TRANS_A), B
// is K x N (N x K when TRANS_B), all row-major. Without CHECKED, M, N and K must be multiples of
// BM, BN and BK.
__attribute__((reqd_work_group_size(WX, WY, 1)))
kernel void gemm_blocked(const global T* A, const global T* B, global T* C, const global T* bias, int M, int N,
                         int K, float alpha, float beta, int has_bias) {
  local float4 a_tiles[2][BK * LDA4];
  local float4 b_tiles[2][BK * LDB4];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int lid = ty * WX + tx;
  const int i0 = get_group_id(1) * BM, j0 = get_group_id(0) * BN;
  float4 ra[A_LOADS], rb[B_LOADS];
  float4 acc[TM][PN];
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int q = 0; q < PN; ++q) acc[r][q] = (float4)(0.0f);

  FETCH_A(0);
  FETCH_B(0);
  STAGE_A(0);
  STAGE_B(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int steps = (K + BK - 1) / BK;
  for (int t = 0; t < steps; ++t) {
    const int cur = t & 1;
    const bool more = t + 1 < steps;
    if (more) {
      FETCH_A((t + 1) * BK);
      FETCH_B((t + 1) * BK);
    }
    const local float4* at = a_tiles[cur];
    const local float4* bt = b_tiles[cur];
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float4 a[PM], b[PN];
#pragma unroll
      for (int p = 0; p < PM; ++p) a[p] = at[kk * LDA4 + p * WY + ty];
#pragma unroll
      for (int q = 0; q < PN; ++q) b[q] = bt[kk * LDB4 + q * WX + tx];
#pragma unroll
      for (int p = 0; p < PM; ++p)
#pragma unroll
        for (int q = 0; q < PN; ++q) {
          acc[p * 4 + 0][q] = mad((float4)(a[p].s0), b[q], acc[p * 4 + 0][q]);
          acc[p * 4 + 1][q] = mad((float4)(a[p].s1), b[q], acc[p * 4 + 1][q]);
          acc[p * 4 + 2][q] = mad((float4)(a[p].s2), b[q], acc[p * 4 + 2][q]);
          acc[p * 4 + 3][q] = mad((float4)(a[p].s3), b[q], acc[p * 4 + 3][q]);
        }
    }
    if (more) {
      STAGE_A(cur ^ 1);
      STAGE_B(cur ^ 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int p = 0; p < PM; ++p)
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int row = i0 + p * WY * 4 + ty * 4 + r;
#pragma unroll
      for (int q = 0; q < PN; ++q) {
        const int col = j0 + q * WX * 4 + tx * 4;
        const float4 v = acc[p * 4 + r][q];
#if CHECKED
        if (row < M) {
          const float vs[4] = {v.s0, v.s1, v.s2, v.s3};
#pragma unroll
          for (int e = 0; e < 4; ++e)
            if (col + e < N) {
              const int o = row * N + col + e;
              float out = alpha * vs[e] + (has_bias ? ldf(bias, col + e) : 0.0f);
              if (beta != 0.0f) out += beta * ldf(C, o);
              stf(C, o, out);
            }
        }
#else
        const int o = row * N + col;
        float4 out = alpha * v + (has_bias ? LD4(bias, col) : (float4)(0.0f));
        if (beta != 0.0f) out += beta * LD4(C, o);
        ST4(C, o, out);
#endif
      }
    }
}
)CLC";

namespace {

// Tiles, largest first. Each must let every work-item fetch whole float4 runs of both slices.
constexpr BlockedGemmTile kBlockedGemmTiles[] = {
    {"128x128x8_8x8", 128, 128, 8, 8, 8}, {"128x128x16_8x8", 128, 128, 16, 8, 8}, {"128x64x8_8x8", 128, 64, 8, 8, 8},
    {"128x64x16_8x8", 128, 64, 16, 8, 8}, {"64x128x8_8x8", 64, 128, 8, 8, 8},     {"64x128x16_8x8", 64, 128, 16, 8, 8},
    {"64x64x8_8x8", 64, 64, 8, 8, 8},     {"64x64x16_8x8", 64, 64, 16, 8, 8},     {"64x64x16_4x4", 64, 64, 16, 4, 4},
    {"64x32x16_4x4", 64, 32, 16, 4, 4},   {"32x64x16_4x4", 32, 64, 16, 4, 4},     {"32x32x8_4x4", 32, 32, 8, 4, 4},
    {"32x32x16_4x4", 32, 32, 16, 4, 4},
};

constexpr bool tile_is_valid(const BlockedGemmTile& t) {
  const int items = t.group_x() * t.group_y();
  return t.item_m % 4 == 0 && t.item_n % 4 == 0 && t.block_k % 4 == 0 && t.block_m % t.item_m == 0 &&
         t.block_n % t.item_n == 0 && items <= 256 && (t.block_m * t.block_k / 4) % items == 0 &&
         (t.block_n * t.block_k / 4) % items == 0;
}

constexpr bool all_tiles_valid() {
  for (const BlockedGemmTile& t : kBlockedGemmTiles)
    if (!tile_is_valid(t)) return false;
  return true;
}
static_assert(all_tiles_valid(), "every blocked GEMM tile must split its slices into whole float4 runs");

const BlockedGemmTile* tile_named(const char* name) {
  for (const BlockedGemmTile& t : kBlockedGemmTiles)
    if (std::strcmp(t.name, name) == 0) return &t;
  return nullptr;
}

int64_t blocks(int64_t extent, int block) {
  return (extent + block - 1) / block;
}

}  // namespace

std::string BlockedGemmTile::build_options(bool trans_a, bool trans_b, bool checked) const {
  return "-DBM=" + std::to_string(block_m) + " -DBN=" + std::to_string(block_n) + " -DBK=" + std::to_string(block_k) +
         " -DTM=" + std::to_string(item_m) + " -DTN=" + std::to_string(item_n) +
         " -DTRANS_A=" + std::to_string(trans_a) + " -DTRANS_B=" + std::to_string(trans_b) +
         " -DCHECKED=" + std::to_string(checked);
}

bool blocked_gemm_needs_checks(const BlockedGemmTile& tile, int64_t m, int64_t n, int64_t k) {
  return m % tile.block_m != 0 || n % tile.block_n != 0 || k % tile.block_k != 0;
}

std::optional<BlockedGemmTile> choose_blocked_gemm_tile(const cl::Device& device, int64_t m, int64_t n, int64_t k) {
  // Offsets inside the kernel are ints.
  constexpr int64_t kIntLimit = int64_t{1} << 31;
  if (m * k >= kIntLimit || k * n >= kIntLimit || m * n >= kIntLimit) return std::nullopt;
  if (const char* forced = std::getenv("CLML_GEMM_KERNEL"); forced != nullptr && *forced != '\0') {
    if (const BlockedGemmTile* tile = tile_named(forced)) return *tile;
    return std::nullopt;  // "register" (or an unknown name): the register-tiled kernels
  }
  // CPU devices run the register-tiled kernels faster (local memory is ordinary memory there,
  // and barriers split the work-group loops); small products do not fill a GPU's tiles.
  if (!(device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU)) return std::nullopt;
  if (m < 64 || n < 64 || k < 16) return std::nullopt;
  return blocked_gemm_tile_for(m, n, device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
}

BlockedGemmTile blocked_gemm_tile_for(int64_t m, int64_t n, int64_t compute_units) {
  // The largest tile whose work-groups keep at least 90% of the compute units busy (a larger tile
  // reuses each loaded value more than the few idle units cost). Wide tiles before tall ones:
  // their rows of B and C are longer coalesced runs.
  for (const char* name : {"128x128x8_8x8", "64x128x8_8x8", "64x64x16_8x8", "32x64x16_4x4"}) {
    const BlockedGemmTile& tile = *tile_named(name);
    if (blocks(m, tile.block_m) * blocks(n, tile.block_n) * 10 >= compute_units * 9) return tile;
  }
  return *tile_named("32x32x16_4x4");
}

std::optional<BlockedGemmTile> blocked_gemm_tile_named(const std::string& name) {
  if (const BlockedGemmTile* tile = tile_named(name.c_str())) return *tile;
  return std::nullopt;
}

}  // namespace tessera::clml
