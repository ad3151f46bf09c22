// AVX2+FMA kernel table (compiled with -mavx2 -mfma): 6x16 fp32 register tile, and 3x32 for the
// convolutions that run faster with it.
#include "simd/arch_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx2() {
    using Arch = xsimd::fma3<xsimd::avx2>;
    static const KernelTable table = [] {
        KernelTable t = simd::make_table<Arch, 6, 2>("avx2", 256, 144, 256);
        simd::set_wide_conv_tile<Arch, 3, 4>(t);
        // Measured on a 2-core Zen 3 (in-process A/B, 2 threads): splitting rows was 4-20%
        // faster for M >= 128 (square 256-1024, 128x1024x1024, 3136x64x576), slower below.
        t.split_m_rows = 128;
        return t;
    }();
    return &table;
}

}  // namespace tessera::cpu
