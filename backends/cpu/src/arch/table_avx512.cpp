// AVX-512 kernel table (compiled with -mavx512f/bw/dq/vl/vnni -mfma): 12x32 fp32 register tile.
#include "simd/arch_table.hpp"
#include "simd/vnni_kernels.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx512() {
    static const KernelTable table = [] {
        KernelTable t = simd::make_table<xsimd::avx512bw, 12, 2>("avx512", 384, 144, 640);
        t.s8_gemm = &simd::s8_gemm_vnni512;
        return t;
    }();
    return &table;
}

}  // namespace tessera::cpu
