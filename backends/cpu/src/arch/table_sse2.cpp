// SSE2 kernel table (the x86-64 baseline, no extra flags): 3x16 fp32 register tile.
#include "simd/arch_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_sse2() {
    static const KernelTable table = simd::make_table<xsimd::sse2, 3, 4>("sse2", 256, 96, 256);
    return &table;
}

}  // namespace tessera::cpu
