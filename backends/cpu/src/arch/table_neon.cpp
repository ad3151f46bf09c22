// NEON (aarch64) kernel table: 6x16 fp32 register tile.
#include "simd/arch_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_neon() {
    static const KernelTable table = simd::make_table<xsimd::neon64, 6, 4>("neon", 256, 96, 256);
    return &table;
}

}  // namespace tessera::cpu
