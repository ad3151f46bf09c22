// Packing of the GEMM's B operand into the microkernel's panel format.
#pragma once

#include <cstdint>

namespace tessera::cpu {

/// op(B)(k, j) rows [p0, p0+kc), columns [j0, j0+nc) into panels of `nr` columns, each [kc][nr],
/// zero-padded to whole panels.
void pack_b_panels(const float* b, int64_t ldb, bool trans, int64_t p0, int64_t kc, int64_t j0,
                   int64_t nc, int64_t nr, float* out);

}  // namespace tessera::cpu
