// q78_arch_avx512.cpp: the int16 kernels for AVX-512 (BW), compiled with -mavx512f -mavx512bw:
// 32 int16 lanes; convolution tiles of 3 vectors (48 columns) x 8 output channels, products
// rounded half up with the ties counted apart (q78_tie_count_avx512.hpp), for shifts up to 8
// (Q7.8); larger shifts take the AVX2 table's tie-key kernel (best_conv_table).
#include "q78_rows_avx512.hpp"
#include "q78_simd.hpp"
#include "q78_tie_count_avx512.hpp"

namespace openvx::q78 {

const kernel_table* table_avx512() {
    static const kernel_table table = [] {
        kernel_table t = make_table<xsimd::avx512bw, tie_block_o, 3, 8>("int16 SIMD avx512");
        t.tie_class_max_shift = 8;
        t.tie_classes = &tie_classes_avx512;
        t.pack_row = &pack_row_avx512;
        t.narrow_row = &narrow_row_avx512;
        t.conv_row = &conv_row_tie_classes<3>;
        return t;
    }();
    return &table;
}

}  // namespace openvx::q78
