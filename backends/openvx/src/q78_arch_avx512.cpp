// q78_arch_avx512.cpp: the int16 kernels for AVX-512 (BW), compiled with -mavx512f -mavx512bw:
// 32 int16 lanes; convolution tiles of 3 vectors (48 columns) x 4 output channels (with 4 x 4
// the accumulators, inputs and tie keys outgrow the 32 registers).
#include "q78_simd.hpp"

namespace openvx::q78 {

const kernel_table* table_avx512() {
    static const kernel_table table = make_table<xsimd::avx512bw, 4, 3, 8>("int16 SIMD avx512");
    return &table;
}

}  // namespace openvx::q78
