// Builds a KernelTable for one instruction set from the xsimd kernel templates. Included only by
// the arch TUs (src/arch/table_*.cpp), each compiled with its own instruction-set flags.
#pragma once

#include <xsimd/xsimd.hpp>

#include "simd/elementwise_kernels.hpp"
#include "simd/micro_kernel.hpp"
#include "simd/neighbourhood_kernels.hpp"
#include "simd/s8_gemm_kernels.hpp"

namespace tessera::cpu::simd {

/// A table whose GEMM and direct convolution use the MR x NV register tile.
template <class Arch, int MR, int NV>
KernelTable make_table(const char* isa, int64_t kc, int64_t mc, int64_t nc) {
    KernelTable t;
    t.isa = isa;
    t.vec_width = static_cast<int>(xsimd::batch<float, Arch>::size);
    t.mr = t.conv_mr = MR;
    t.nv = t.conv_nv = NV;
    t.kc = kc;
    t.mc = mc;
    t.nc = nc;
    MicroTableFiller<Arch, MR, NV>::fill(t);
    t.activation = &activation<Arch>;
    t.binary = &binary<Arch>;
    t.scale_shift_block = &scale_shift_block<Arch>;
    t.softmax_row = &softmax_row<Arch>;
    t.pool_row = &pool_row<Arch>;
    t.depthwise_row = &depthwise_row<Arch>;
    t.s8_gemm = &s8_gemm_generic;
    return t;
}

/// Gives the direct convolution its own MR x NV tile.
template <class Arch, int MR, int NV>
void set_conv_tile(KernelTable& t) {
    t.conv_mr = MR;
    t.conv_nv = NV;
    MicroTableFiller<Arch, MR, NV>::fill(t);
}

/// Adds the convolution's wide MR x NV tile (see KernelTable::wide_mr).
template <class Arch, int MR, int NV>
void set_wide_conv_tile(KernelTable& t) {
    t.wide_mr = MR;
    t.wide_nv = NV;
    MicroTableFiller<Arch, MR, NV>::fill(t);
}

}  // namespace tessera::cpu::simd
