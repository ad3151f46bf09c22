// Stubs for the kernel tables a non-x86 build does not compile.
#include "simd/kernel_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_avx512() {
    return nullptr;
}
const KernelTable* kernel_table_avx2() {
    return nullptr;
}
const KernelTable* kernel_table_sse2() {
    return nullptr;
}

}  // namespace tessera::cpu
