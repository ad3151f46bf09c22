// AVX2+FMA kernel table (compiled with -mavx2 -mfma): 6x16 fp32 register tile.
#include "simd/arch_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx2() {
    static const KernelTable table =
        simd::make_table<xsimd::fma3<xsimd::avx2>, 6, 2>("avx2", 256, 144, 256);
    return &table;
}

}  // namespace tessera::cpu
