// table_absent_neon.cpp: the NEON kernel table of a build for another architecture: none.
#include "simd/kernel_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_neon() {
    return nullptr;
}

}  // namespace tessera::cpu
