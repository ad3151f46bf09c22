// gemm_blocked.h -- the local-memory blocked GEMM kernel for GPUs: its tile configurations and
// the choice among them for one matrix product on one device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cl_config.h"

namespace tessera::clml {

extern const char* const kGemmBlockedSource;  // gemm_blocked.cpp

// One tile configuration of the kernel: a work-group computes a block_m x block_n block of C,
// walking K block_k at a time through local memory; each work-item holds item_m x item_n results.
struct BlockedGemmTile {
  const char* name;  // what CLML_GEMM_KERNEL names it by
  int block_m, block_n, block_k;
  int item_m, item_n;

  constexpr int group_x() const { return block_n / item_n; }
  constexpr int group_y() const { return block_m / item_m; }
  // The -D options that build this tile (and the shape-dependent switches).
  std::string build_options(bool trans_a, bool trans_b, bool checked) const;
};

// The tile the blocked kernel runs `m x n x k` with on `device`, or nothing when the
// register-tiled kernels serve better (CPU devices, small products). CLML_GEMM_KERNEL in the
// environment overrides the choice: "register" keeps the register-tiled kernels, a tile name
// (see kBlockedGemmTiles in gemm_blocked.cpp) forces that tile for every shape.
std::optional<BlockedGemmTile> choose_blocked_gemm_tile(const cl::Device& device, int64_t m, int64_t n, int64_t k);

// The default choice for an m x n product on a GPU of `compute_units`: the largest tile whose
// work-groups still occupy at least 90% of the compute units.
BlockedGemmTile blocked_gemm_tile_for(int64_t m, int64_t n, int64_t compute_units);
// The tile called `name`, if there is one.
std::optional<BlockedGemmTile> blocked_gemm_tile_named(const std::string& name);

// True when the shape needs the bounds-checked variant (a dimension not a multiple of the tile).
bool blocked_gemm_needs_checks(const BlockedGemmTile& tile, int64_t m, int64_t n, int64_t k);

}  // namespace tessera::clml
