// AVX2+FMA kernel table (compiled with -mavx2 -mfma): 6x16 fp32 register tile, 3x32 for the
// convolutions that run faster with it.
#include "simd/arch_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx2() {
    using Arch = xsimd::fma3<xsimd::avx2>;
    static const KernelTable table = [] {
        KernelTable t = simd::make_table<Arch, 6, 2>("avx2", 256, 144, 256);
        // 3 pixels x 32 channels (half the input broadcasts per FMA of 6 x 16) took 0.88-0.98
        // of the time on rows of <= 14 pixels (3x3 512 7x7, 256 14x14 and 9x9, 1x1 512 7x7 and
        // 256->1024 14x14) and 0.90-0.97 on unblocked inputs (3x3 3->32, 7x7 s2 3->64; the
        // latter 1.00 when the host was quiet), 1.01 at 28 pixels and 1.01-1.04 at 56 pixels of
        // blocked input (3x3 64->64, 1x1 256->64): in-process A/B on a Zen 3, 1 and 2 threads.
        t.conv_short_rows = t.conv_unblocked = simd::tile<Arch, 3, 4>(t);
        // Since the reduction reads a 7-tap kernel row as one unrolled run, 6 x 16 (one spare
        // register; 3 x 32 uses all 16 and GCC spills in the run) took 0.96-0.99 of 3 x 32's time
        // on 7x7 s2 3->64 224x224, 1 and 2 threads; 3x3 3->32 still ran 1.00-1.07 slower with it.
        t.conv_unblocked_7taps = t.conv;
        // Measured on a 2-core Zen 3 (in-process A/B, 2 threads): splitting rows was 4-20%
        // faster for M >= 128 (square 256-1024, 128x1024x1024, 3136x64x576), slower below.
        t.split_m_rows = 128;
        // Steps stay ordered by kernel row (K chunks then read each input line for all columns
        // of the row from L1): ordered tap by tap, 3x3 512->512 7x7 took 2.22-2.27 ms at 1
        // thread against 2.00-2.06 (Zen 5 capped to AVX2, in-process).
        t.conv_columns_outer = false;
        return t;
    }();
    return &table;
}

}  // namespace tessera::cpu
