// table_absent_avx512.cpp: the AVX512 kernel table of a build without it (another architecture, or
// TESSERA_CPU_KERNEL_TABLES=host on a CPU that selects another table): none.
#include "simd/kernel_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx512() {
    return nullptr;
}

}  // namespace tessera::cpu
