// Stub for the NEON kernel table on non-Arm builds.
#include "simd/kernel_table.hpp"

namespace tessera::cpu {

const KernelTable* kernel_table_neon() {
    return nullptr;
}

}  // namespace tessera::cpu
