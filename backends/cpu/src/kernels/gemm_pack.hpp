// Packing of GEMM operands into the microkernel's panel formats.
#pragma once

#include <cstdint>

namespace tessera::cpu {

/// op(A)(i, k) rows [i0, i0+mc), columns [p0, p0+kc) into micro-panels of `mr` rows, each [kc][mr],
/// zero-padded to whole panels.
void pack_a_panels(const float* a, int64_t lda, bool trans, int64_t i0, int64_t mc, int64_t p0,
                   int64_t kc, int64_t mr, float* out);

/// op(B)(k, j) rows [p0, p0+kc), columns [j0, j0+nc) into panels of `nr` columns, each [kc][nr],
/// zero-padded to whole panels.
void pack_b_panels(const float* b, int64_t ldb, bool trans, int64_t p0, int64_t kc, int64_t j0,
                   int64_t nc, int64_t nr, float* out);

}  // namespace tessera::cpu
