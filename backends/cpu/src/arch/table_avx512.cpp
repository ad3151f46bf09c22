// AVX-512 kernel table (compiled with -mavx512f/bw/dq/vl/vnni -mfma): a 6x64 fp32 register tile
// for GEMM, 12x32 for direct convolution.
#include "simd/arch_table.hpp"
#include "simd/vnni_kernels.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx512() {
    static const KernelTable table = [] {
        // GEMM: 6x64 (4 vectors of B per step, 6 broadcasts) rather than 12x32 was 5-8% faster
        // on every square size 256-1024 at 1 and 2 threads (in-process A/B, Sapphire Rapids).
        // Convolution keeps 12x32: 6x64 was 3-8% faster at 1 thread but 0-5% slower at 2.
        KernelTable t = simd::make_table<xsimd::avx512bw, 6, 4>("avx512", 384, 144, 640);
        simd::set_conv_tile<xsimd::avx512bw, 12, 2>(t);
        t.s8_gemm = &simd::s8_gemm_vnni512;
        return t;
    }();
    return &table;
}

}  // namespace tessera::cpu
