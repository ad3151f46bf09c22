// q78_arch_neon.cpp: the int16 kernels for AArch64 NEON: 8 int16 lanes; convolution tiles of 4
// vectors (16 columns) x 4 output channels.
#include "q78_simd.hpp"

namespace openvx::q78 {

const kernel_table* table_neon() {
    static const kernel_table table = make_table<xsimd::neon64, 4, 4, 4>("int16 SIMD neon");
    return &table;
}

}  // namespace openvx::q78
