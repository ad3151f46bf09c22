// q78_arch_avx2.cpp: the int16 kernels for AVX2, compiled with -mavx2: 16 int16 lanes;
// convolution tiles of 2 vectors (16 columns) x 4 output channels (16 registers).
#include "q78_simd.hpp"

namespace openvx::q78 {

const kernel_table* table_avx2() {
    static const kernel_table table = make_table<xsimd::avx2, 4, 2, 4>("int16 SIMD avx2");
    return &table;
}

}  // namespace openvx::q78
